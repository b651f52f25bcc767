package mcpserve

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

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

// navigationTimeout bounds one call to a page server.
const navigationTimeout = 20 * time.Second

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
// one navigation capability a link race needs. It implements engine.Pages
// and keeps each page it loaded: pages do not change during a league.
type Navigator struct {
	session *mcp.ClientSession
	server  string
	nav     navigation
	listing bool

	mu     sync.Mutex
	pages  map[string]engine.Page
	titles []string
}

// ConnectPages opens the page server at endpoint (its /mcp URL) and maps
// its tools; a server without navigation fails with a *CapabilityError.
func ConnectPages(ctx context.Context, endpoint string) (*Navigator, error) {
	session, err := Connect(ctx, endpoint)
	if err != nil {
		return nil, err
	}
	n, err := NewNavigator(ctx, session, endpoint)
	if err != nil {
		session.Close()
		return nil, err
	}
	return n, nil
}

// NewNavigator maps the tools of an open session; server names it in
// errors.
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
	n := &Navigator{session: session, server: server, pages: map[string]engine.Page{}}
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
func (n *Navigator) Close() error { return n.session.Close() }

// Capability names the tool navigation goes through.
func (n *Navigator) Capability() string { return n.nav.tool }

// Titles lists the server's pages, through list_pages.
func (n *Navigator) Titles() ([]string, error) {
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.titles != nil {
		return n.titles, nil
	}
	if !n.listing {
		return nil, fmt.Errorf("the page server at %s cannot list its pages (no %s tool) to draw races from", n.server, listingTool)
	}
	obj, err := n.call(listingTool, map[string]any{})
	if err != nil {
		return nil, err
	}
	n.titles = titlesOf(obj["titles"])
	if len(n.titles) == 0 {
		return nil, fmt.Errorf("the page server at %s lists no pages", n.server)
	}
	return n.titles, nil
}

// Page navigates to one page; a failed call is an error (the seed's
// APP_NAVIGATION_ERROR).
func (n *Navigator) Page(title string) (engine.Page, error) {
	n.mu.Lock()
	defer n.mu.Unlock()
	if p, ok := n.pages[title]; ok {
		return p, nil
	}
	obj, err := n.call(n.nav.tool, n.nav.args(title))
	if err != nil {
		return engine.Page{}, err
	}
	if msg, ok := obj["error"].(string); ok && msg != "" {
		return engine.Page{}, fmt.Errorf("%s %q: %s", n.nav.tool, title, msg)
	}
	p := engine.Page{Title: title, Links: titlesOf(obj["links"]), Summary: summaryOf(obj)}
	n.pages[title] = p
	return p, nil
}

// call runs one tool and returns its structured result, or the JSON object
// of its first text block.
func (n *Navigator) call(tool string, args map[string]any) (map[string]any, error) {
	ctx, cancel := context.WithTimeout(context.Background(), navigationTimeout)
	defer cancel()
	res, err := n.session.CallTool(ctx, &mcp.CallToolParams{Name: tool, Arguments: args})
	if err != nil {
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
		return nil, fmt.Errorf("%s at %s: %s", tool, n.server, text)
	}
	var obj map[string]any
	raw, _ := json.Marshal(res.StructuredContent)
	if json.Unmarshal(raw, &obj) != nil || obj == nil {
		if err := json.Unmarshal([]byte(text), &obj); err != nil {
			return nil, fmt.Errorf("%s at %s: the result is not a JSON object: %w", tool, n.server, err)
		}
	}
	return obj, nil
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
