package mcpserve

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/url"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/leaguetui/leaguetui/agents/rpc"
	"github.com/leaguetui/leaguetui/config"
	"github.com/leaguetui/leaguetui/engine"
)

// navigationShapes are the page-server tools the capability registry knows,
// in order of preference, each with how a page title becomes its
// arguments: the seed's own server (navigate), its adapter's name
// (navigate_to_page), its compatibility matrix (get_page_links) and the
// official MCP example server-wiki-explorer (get-first-degree-links).
var navigationShapes = []navigation{
	{tool: "navigate", args: func(t string) map[string]any { return map[string]any{"page": t} }},
	{tool: "navigate_to_page", args: func(t string) map[string]any { return map[string]any{"page_title": t} }},
	{tool: "get_page_links", args: func(t string) map[string]any { return map[string]any{"title": t} }},
	{tool: "get-first-degree-links", args: func(t string) map[string]any { return map[string]any{"url": wikipediaURL(t)} }},
}

// listingTool is the tool that lists a server's pages (our own server's).
const listingTool = "list_pages"

// PageCallTimeout bounds one call to a page server. A page it does not
// answer within it is engine.ErrPagesSilent: a race draw stops there. It
// is the only clock of a draw, which is otherwise bounded by its page
// loads alone (--race-draw-loads), so that a machine's load never changes
// what a seed draws.
const PageCallTimeout = 20 * time.Second

// navigation is one mapping of the navigation capability onto a tool.
type navigation struct {
	tool string
	args func(title string) map[string]any
}

// wikipediaURL is the English Wikipedia address of a title, the argument
// server-wiki-explorer wants.
func wikipediaURL(title string) string {
	return "https://en.wikipedia.org/wiki/" + url.PathEscape(strings.ReplaceAll(title, " ", "_"))
}

// CapabilityError says a page server offers no tool the registry maps onto
// navigation: the seed's APP_CAPABILITY_ERROR.
type CapabilityError struct {
	Server string
	Tools  []string
}

func (e *CapabilityError) Error() string {
	known := make([]string, len(navigationShapes))
	for i, s := range navigationShapes {
		known[i] = s.tool
	}
	return fmt.Sprintf("%s: the page server at %s has no navigation capability: its tools %v include none of %v",
		engine.ErrorCapability, e.Server, e.Tools, known)
}

// MapNavigation picks the navigation tool among a server's tools.
func MapNavigation(server string, tools []string) (string, error) {
	for _, shape := range navigationShapes {
		for _, t := range tools {
			if t == shape.tool {
				return t, nil
			}
		}
	}
	return "", &CapabilityError{Server: server, Tools: tools}
}

// Navigator is a page server reached through MCP, its tools mapped onto the
// one navigation capability a link race needs. It implements engine.Pages,
// and keeps the pages it loaded, up to its cache's
// bytes: pages do not change during a league. What the server sends is
// bounded by the limits (config.Pages): a reply's bytes, a page's links,
// the cache's bytes; and each call by PageCallTimeout.
type Navigator struct {
	server   string
	endpoint string // where to connect again after a failed exchange; "" for a session given
	limits   config.Pages
	log      *slog.Logger
	nav      navigation
	listing  bool
	// callTimeout bounds one call (PageCallTimeout; shorter in tests).
	callTimeout time.Duration

	mu      sync.Mutex
	session *mcp.ClientSession // nil after a failed exchange, until the next call connects
	cache   *pageCache
	titles  []string
}

// ConnectPages opens the page server at endpoint (its /mcp URL) and maps
// its tools; a server without navigation fails with a *CapabilityError.
// limits bound what it may send (zero fields take config.Default's); log
// hears of pages whose links went past the cap.
func ConnectPages(ctx context.Context, endpoint string, limits config.Pages, log *slog.Logger) (*Navigator, error) {
	limits = pageLimits(limits)
	session, err := connectCapped(ctx, endpoint, limits.ReplyBytes)
	if err != nil {
		return nil, err
	}
	n, err := NewNavigator(ctx, session, endpoint)
	if err != nil {
		session.Close()
		return nil, err
	}
	n.endpoint, n.limits, n.cache = endpoint, limits, newPageCache(limits.CacheBytes)
	if log != nil {
		n.log = log
	}
	return n, nil
}

// pageLimits fills the limits left at zero with the defaults.
func pageLimits(l config.Pages) config.Pages {
	def := config.Default().Pages
	l.ReplyBytes = cmp.Or(max(l.ReplyBytes, 0), def.ReplyBytes)
	l.MaxLinks = cmp.Or(max(l.MaxLinks, 0), def.MaxLinks)
	l.CacheBytes = cmp.Or(max(l.CacheBytes, 0), def.CacheBytes)
	return l
}

// NewNavigator maps the tools of an open session, with the default
// limits; server names it in errors.
func NewNavigator(ctx context.Context, session *mcp.ClientSession, server string) (*Navigator, error) {
	var tools []string
	for tool, err := range session.Tools(ctx, nil) {
		if err != nil {
			return nil, fmt.Errorf("MCP tools/list at %s: %w", server, err)
		}
		tools = append(tools, tool.Name)
	}
	name, err := MapNavigation(server, tools)
	if err != nil {
		return nil, err
	}
	limits := pageLimits(config.Pages{})
	n := &Navigator{session: session, server: server, limits: limits, cache: newPageCache(limits.CacheBytes),
		log: slog.New(slog.DiscardHandler), callTimeout: PageCallTimeout}
	for _, shape := range navigationShapes {
		if shape.tool == name {
			n.nav = shape
		}
	}
	for _, t := range tools {
		n.listing = n.listing || t == listingTool
	}
	return n, nil
}

// CanList reports whether the server lists its pages (list_pages), which a
// referee needs to draw races.
func (n *Navigator) CanList() bool { return n.listing }

// Close ends the session.
func (n *Navigator) Close() error {
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.session == nil {
		return nil
	}
	return n.session.Close()
}

// Capability names the tool navigation goes through.
func (n *Navigator) Capability() string { return n.nav.tool }

// Titles lists the server's pages, through list_pages.
func (n *Navigator) Titles() ([]string, error) {
	var titles []string
	err := n.within(func(ctx context.Context) (err error) {
		titles, err = n.titlesWithin(ctx)
		return err
	})
	return titles, err
}

// Page navigates to one page; a failed call is an error (the seed's
// APP_NAVIGATION_ERROR), wrapping engine.ErrPagesSilent when the server
// did not answer within the call's time.
func (n *Navigator) Page(title string) (engine.Page, error) {
	var page engine.Page
	err := n.within(func(ctx context.Context) (err error) {
		page, err = n.pageWithin(ctx, title)
		return err
	})
	return page, err
}

// within runs one call to the server within callTimeout; a call that
// timeout cut short is the server's silence.
func (n *Navigator) within(call func(ctx context.Context) error) error {
	ctx, cancel := context.WithTimeout(context.Background(), n.callTimeout)
	defer cancel()
	err := call(ctx)
	if err != nil && errors.Is(ctx.Err(), context.DeadlineExceeded) {
		return fmt.Errorf("%w within %v at %s: %v", engine.ErrPagesSilent, n.callTimeout, n.server, err)
	}
	return err
}

func (n *Navigator) titlesWithin(ctx context.Context) ([]string, error) {
	n.mu.Lock()
	titles := n.titles
	n.mu.Unlock()
	if titles != nil {
		return titles, nil
	}
	if !n.listing {
		return nil, fmt.Errorf("the page server at %s cannot list its pages (no %s tool) to draw races from", n.server, listingTool)
	}
	obj, err := n.call(ctx, listingTool, map[string]any{})
	if err != nil {
		return nil, err
	}
	titles = titlesOf(obj["titles"])
	if len(titles) == 0 {
		return nil, fmt.Errorf("the page server at %s lists no pages", n.server)
	}
	n.mu.Lock()
	n.titles = titles
	n.mu.Unlock()
	return titles, nil
}

func (n *Navigator) pageWithin(ctx context.Context, title string) (engine.Page, error) {
	if p, ok := n.cache.get(title); ok {
		return p, nil
	}
	obj, err := n.call(ctx, n.nav.tool, n.nav.args(title))
	if err != nil {
		return engine.Page{}, err
	}
	if msg, ok := obj["error"].(string); ok && msg != "" {
		return engine.Page{}, fmt.Errorf("%s %q: %s", n.nav.tool, clipTitle(title), clipTitle(msg))
	}
	p := engine.Page{Title: title, Links: titlesOf(obj["links"]), Summary: summaryOf(obj)}
	if extra := len(p.Links) - n.limits.MaxLinks; extra > 0 {
		p.Links, p.DroppedLinks = slices.Clone(p.Links[:n.limits.MaxLinks]), extra // not the whole list's array
		n.log.Warn("page links over the cap: the rest are dropped", "event_type", "PAGE_LINKS_DROPPED",
			"page", clipTitle(title), "links_kept", n.limits.MaxLinks, "links_dropped", extra, "pages_url", n.server)
	}
	n.cache.put(p)
	return p, nil
}

// live is the session to call through: after a failed exchange (the SDK
// gives up a session whose reply it could not read) a new one is opened.
func (n *Navigator) live(ctx context.Context) (*mcp.ClientSession, error) {
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.session != nil {
		return n.session, nil
	}
	session, err := connectCapped(ctx, n.endpoint, n.limits.ReplyBytes)
	if err != nil {
		return nil, err
	}
	n.session = session
	return session, nil
}

// drop gives up session after a failed exchange, when it can be opened
// again.
func (n *Navigator) drop(session *mcp.ClientSession) {
	if n.endpoint == "" {
		return
	}
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.session == session {
		n.session = nil
		go session.Close()
	}
}

// call runs one tool and returns its structured result, or the JSON object
// of its first text block.
func (n *Navigator) call(ctx context.Context, tool string, args map[string]any) (map[string]any, error) {
	session, err := n.live(ctx)
	if err != nil {
		return nil, fmt.Errorf("%s at %s: %w", tool, n.server, err)
	}
	res, err := session.CallTool(ctx, &mcp.CallToolParams{Name: tool, Arguments: args})
	if err != nil {
		n.drop(session)
		if rpc.IsReplyTooLarge(err) {
			return nil, fmt.Errorf("%s at %s: %s: a reply over %d bytes (--page-reply-bytes)", tool, n.server, rpc.ReplyTooLarge, n.limits.ReplyBytes)
		}
		return nil, fmt.Errorf("%s at %s: %w", tool, n.server, err)
	}
	text := ""
	for _, c := range res.Content {
		if t, ok := c.(*mcp.TextContent); ok {
			text = t.Text
			break
		}
	}
	if res.IsError {
		return nil, fmt.Errorf("%s at %s: %s", tool, n.server, clipTitle(text))
	}
	obj, _ := res.StructuredContent.(map[string]any) // as the SDK decoded it: no second pass over a large page
	if obj == nil {
		raw, _ := json.Marshal(res.StructuredContent)
		_ = json.Unmarshal(raw, &obj)
	}
	if obj == nil {
		if err := json.Unmarshal([]byte(text), &obj); err != nil {
			return nil, fmt.Errorf("%s at %s: the result is not a JSON object: %w", tool, n.server, err)
		}
	}
	return obj, nil
}

// clipTitle bounds a server's text kept in an error or a log line.
func clipTitle(s string) string {
	if len(s) > maxSummary {
		return s[:maxSummary]
	}
	return s
}

// titlesOf reads a list of titles: strings, or objects with a title.
func titlesOf(v any) []string {
	list, _ := v.([]any)
	out := make([]string, 0, len(list))
	for _, item := range list {
		switch item := item.(type) {
		case string:
			out = append(out, item)
		case map[string]any:
			if t, ok := item["title"].(string); ok {
				out = append(out, t)
			}
		}
	}
	return out
}

// maxSummary bounds the summary a page server gives.
const maxSummary = 500

// summaryOf reads a page's short summary, or the start of its text.
func summaryOf(obj map[string]any) string {
	for _, key := range []string{"summary", "text", "extract"} {
		if s, ok := obj[key].(string); ok && s != "" {
			if len(s) > maxSummary {
				s = s[:maxSummary]
			}
			return s
		}
	}
	return ""
}
