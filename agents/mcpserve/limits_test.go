package mcpserve

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/leaguetui/leaguetui/agents/rpc"
	"github.com/leaguetui/leaguetui/config"
	"github.com/leaguetui/leaguetui/engine"
)

// hostilePages serves over HTTP a page server whose page "Big" lists
// 20,000 links, "Huge" holds 2 MB of text, "Slow" answers after 5 s (or
// when the test ends) and every other page is small.
func hostilePages(t *testing.T) string {
	t.Helper()
	server := mcp.NewServer(&mcp.Implementation{Name: "hostile-pages"}, nil)
	done := make(chan struct{})
	mcp.AddTool(server, &mcp.Tool{Name: "navigate"}, func(ctx context.Context, _ *mcp.CallToolRequest, in pageIn) (*mcp.CallToolResult, linksOut, error) {
		switch in.Page {
		case "Big":
			links := make([]string, 20_000)
			for i := range links {
				links[i] = fmt.Sprint("L", i)
			}
			return nil, linksOut{Title: in.Page, Links: links}, nil
		case "Huge":
			return nil, linksOut{Title: in.Page, Summary: strings.Repeat("x", 2<<20), Links: []string{"A"}}, nil
		case "Slow":
			select {
			case <-time.After(5 * time.Second):
			case <-ctx.Done():
			case <-done:
			}
		}
		return nil, linksOut{Title: in.Page, Links: []string{"A", "B"}, Summary: strings.Repeat("s", 100)}, nil
	})
	mcp.AddTool(server, &mcp.Tool{Name: listingTool}, func(context.Context, *mcp.CallToolRequest, struct{}) (*mcp.CallToolResult, map[string]any, error) {
		return nil, map[string]any{"titles": []string{"A", "B"}}, nil
	})
	srv := httptest.NewServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return server },
		&mcp.StreamableHTTPOptions{Stateless: true, JSONResponse: true}))
	t.Cleanup(func() { close(done); srv.Close() })
	return srv.URL + "/mcp"
}

// What a page server sends is bounded: a page's links (the rest dropped
// and counted), a reply's bytes (REPLY_TOO_LARGE, after which the
// navigator still reads the next page), the cache's bytes and one
// call's time (the page server's silence, after which the next page
// still loads).
func TestNavigatorBoundsWhatThePageServerSends(t *testing.T) {
	limits := config.Pages{ReplyBytes: 1 << 20, MaxLinks: 100, CacheBytes: 64 << 10}
	nav, err := ConnectPages(context.Background(), hostilePages(t), limits, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer nav.Close()

	big, err := nav.Page("Big")
	if err != nil || len(big.Links) != 100 || big.DroppedLinks != 19_900 || big.Links[99] != "L99" {
		t.Errorf("Big: %d links kept, %d dropped, %v; want the first 100 kept and 19,900 dropped", len(big.Links), big.DroppedLinks, err)
	}

	if _, err := nav.Page("Huge"); err == nil || !strings.Contains(err.Error(), rpc.ReplyTooLarge) {
		t.Errorf("a 2 MB page: %v, want %s", err, rpc.ReplyTooLarge)
	}
	if p, err := nav.Page("After"); err != nil || len(p.Links) != 2 {
		t.Errorf("the page after a refused reply: %+v, %v", p, err)
	}

	for i := range 400 {
		if _, err := nav.Page(fmt.Sprint("Page ", i)); err != nil {
			t.Fatal(err)
		}
	}
	if used := nav.cache.bytes(); used > limits.CacheBytes || used == 0 {
		t.Errorf("the cache holds %d bytes, cap %d", used, limits.CacheBytes)
	}
	if _, ok := nav.cache.get("Page 0"); ok {
		t.Error("the least recently used page is still cached")
	}
	if _, ok := nav.cache.get("Page 399"); !ok {
		t.Error("the most recent page is not cached")
	}

	nav.callTimeout = 300 * time.Millisecond
	start := time.Now()
	_, err = nav.Page("Slow")
	if !errors.Is(err, engine.ErrPagesSilent) || time.Since(start) > 3*time.Second {
		t.Errorf("a page not answered: %v after %v, want the server silent after 300ms", err, time.Since(start))
	}
	if p, err := nav.Page("Fresh"); err != nil || len(p.Links) != 2 {
		t.Errorf("a page after the silent one: %+v, %v", p, err)
	}
}
