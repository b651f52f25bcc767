package mcpserve

import (
	"context"
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/leaguetui/leaguetui/engine"
)

// fakePageServer starts a page server of the given tools over in-memory
// transports and maps it.
func fakePageServer(t *testing.T, add func(*mcp.Server)) (*Navigator, error) {
	t.Helper()
	ctx := context.Background()
	server := mcp.NewServer(&mcp.Implementation{Name: "fake-pages"}, nil)
	add(server)
	serverSide, clientSide := mcp.NewInMemoryTransports()
	if _, err := server.Connect(ctx, serverSide, nil); err != nil {
		t.Fatal(err)
	}
	session, err := mcp.NewClient(&mcp.Implementation{Name: "test"}, nil).Connect(ctx, clientSide, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { session.Close() })
	return NewNavigator(ctx, session, "fake")
}

// wiki is the pages every fake serves.
var wiki = map[string][]string{"Paris": {"France", "Seine"}, "France": {"Paris", "Europe"}}

func lookup(title string) ([]string, error) {
	links, ok := wiki[title]
	if !ok {
		return nil, errors.New("no page " + title)
	}
	return links, nil
}

type pageIn struct {
	Page string `json:"page"`
}
type pageTitleIn struct {
	PageTitle string `json:"page_title"`
}
type titleIn struct {
	Title string `json:"title"`
}
type urlIn struct {
	URL string `json:"url"`
}
type linksOut struct {
	Title   string   `json:"title"`
	Summary string   `json:"summary,omitempty"`
	Links   []string `json:"links"`
}

// wikiLink is server-wiki-explorer's shape of a link.
type wikiLink struct {
	URL   string `json:"url"`
	Title string `json:"title"`
}
type wikiOut struct {
	Page  wikiLink   `json:"page"`
	Links []wikiLink `json:"links"`
	Error *string    `json:"error"`
}

// Each tool shape the registry knows is mapped, called with its own
// arguments, and read into the same page.
func TestNavigationShapes(t *testing.T) {
	shapes := map[string]func(*mcp.Server){
		"navigate": func(s *mcp.Server) {
			mcp.AddTool(s, &mcp.Tool{Name: "navigate"}, func(_ context.Context, _ *mcp.CallToolRequest, in pageIn) (*mcp.CallToolResult, linksOut, error) {
				links, err := lookup(in.Page)
				return nil, linksOut{Title: in.Page, Summary: "about " + in.Page, Links: links}, err
			})
		},
		"navigate_to_page": func(s *mcp.Server) {
			// Text only, no structured content: the JSON is read from the text.
			mcp.AddTool(s, &mcp.Tool{Name: "navigate_to_page"}, func(_ context.Context, _ *mcp.CallToolRequest, in pageTitleIn) (*mcp.CallToolResult, any, error) {
				links, err := lookup(in.PageTitle)
				if err != nil {
					return nil, nil, err
				}
				raw, _ := json.Marshal(linksOut{Title: in.PageTitle, Summary: "about " + in.PageTitle, Links: links})
				return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: string(raw)}}}, nil, nil
			})
		},
		"get_page_links": func(s *mcp.Server) {
			mcp.AddTool(s, &mcp.Tool{Name: "get_page_links"}, func(_ context.Context, _ *mcp.CallToolRequest, in titleIn) (*mcp.CallToolResult, linksOut, error) {
				links, err := lookup(in.Title)
				return nil, linksOut{Title: in.Title, Summary: "about " + in.Title, Links: links}, err
			})
		},
		"get-first-degree-links": func(s *mcp.Server) {
			mcp.AddTool(s, &mcp.Tool{Name: "search-article"}, func(context.Context, *mcp.CallToolRequest, titleIn) (*mcp.CallToolResult, any, error) {
				return nil, nil, errors.New("not navigation")
			})
			mcp.AddTool(s, &mcp.Tool{Name: "get-first-degree-links"}, func(_ context.Context, _ *mcp.CallToolRequest, in urlIn) (*mcp.CallToolResult, wikiOut, error) {
				title, ok := strings.CutPrefix(in.URL, "https://en.wikipedia.org/wiki/")
				if !ok {
					return nil, wikiOut{}, errors.New("url must match ^https?://[a-z]+\\.wikipedia\\.org/wiki/")
				}
				title = strings.ReplaceAll(title, "_", " ")
				out := wikiOut{Page: wikiLink{URL: in.URL, Title: title}}
				links, err := lookup(title)
				if err != nil {
					msg := err.Error()
					out.Error = &msg
				}
				for _, l := range links {
					out.Links = append(out.Links, wikiLink{URL: wikipediaURL(l), Title: l})
				}
				return nil, out, nil
			})
		},
	}
	for tool, add := range shapes {
		t.Run(tool, func(t *testing.T) {
			nav, err := fakePageServer(t, add)
			if err != nil {
				t.Fatal(err)
			}
			if nav.Capability() != tool {
				t.Errorf("capability %q, want %q", nav.Capability(), tool)
			}
			page, err := nav.Page("Paris")
			if err != nil || !reflect.DeepEqual(page.Links, wiki["Paris"]) || page.Title != "Paris" {
				t.Errorf("Page(Paris) = %+v, %v", page, err)
			}
			if _, err := nav.Page("Atlantis"); err == nil {
				t.Error("a page the server cannot give is no error")
			}
			if _, err := nav.Titles(); err == nil {
				t.Error("a server without list_pages listed its pages")
			}
		})
	}
}

// A server with no navigation tool is APP_CAPABILITY_ERROR, naming its
// tools and the ones the registry knows.
func TestNoNavigationCapability(t *testing.T) {
	_, err := fakePageServer(t, func(s *mcp.Server) {
		mcp.AddTool(s, &mcp.Tool{Name: "search_wikipedia"}, func(context.Context, *mcp.CallToolRequest, titleIn) (*mcp.CallToolResult, any, error) {
			return nil, nil, nil
		})
	})
	var capErr *CapabilityError
	if !errors.As(err, &capErr) || !strings.Contains(err.Error(), engine.ErrorCapability) ||
		!strings.Contains(err.Error(), "search_wikipedia") || !strings.Contains(err.Error(), "get-first-degree-links") {
		t.Fatalf("error %v, want a CapabilityError naming the tools", err)
	}
}

func TestMapNavigationPrefersTheSeedsOwnTool(t *testing.T) {
	got, err := MapNavigation("x", []string{"get-first-degree-links", "get_page_links", "navigate"})
	if err != nil || got != "navigate" {
		t.Errorf("MapNavigation = %q, %v", got, err)
	}
}
