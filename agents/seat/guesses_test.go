package seat

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/leaguetui/leaguetui/agents/throttle"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestWrongJoinCodesLockOutTheirSource: take_seat with wrong codes is
// answered as usual for the first few (throttle.DefaultFree), then the
// client's address is refused for a while whatever the code, a seat's
// right code included, from a new session too; a header naming another
// source changes nothing.
func TestWrongJoinCodesLockOutTheirSource(t *testing.T) {
	h := startHost(t)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	s := session(ctx, t, h.URL())
	take := func(s *mcp.ClientSession, code string) string {
		res, err := s.CallTool(ctx, &mcp.CallToolParams{Name: "take_seat", Arguments: map[string]any{"join_code": code}})
		if err != nil {
			t.Fatal(err)
		}
		if !res.IsError {
			t.Fatalf("take_seat %s: taken", code)
		}
		return toolText(res)
	}
	for i := range throttle.DefaultFree {
		if got := take(s, "join-guess"); !strings.Contains(got, "no seat has this join code") {
			t.Fatalf("wrong code %d of the %d free: %s", i+1, throttle.DefaultFree, got)
		}
	}
	locked := 0
	for range 10 { // each doubles the lock-out: past ten it is the longest
		switch got := take(s, "join-guess"); {
		case strings.Contains(got, "too many wrong join codes from your address"):
			locked++
		case !strings.Contains(got, "no seat has this join code"):
			t.Fatalf("a wrong code past the free ones: %s", got)
		}
	}
	if locked == 0 {
		t.Error("ten wrong codes past the free ones, and none refused for too many wrong codes")
	}
	other := sessionWithHeader(ctx, t, h.URL(), sourceHeader, "203.0.113.9")
	if got := take(other, "join-one"); !strings.Contains(got, "too many wrong join codes from your address") {
		t.Errorf("seat-1's right code from the locked-out address, in a new session claiming another source: %s", got)
	}
}

// sessionWithHeader is session with a header on every request.
func sessionWithHeader(ctx context.Context, t *testing.T, url, key, value string) *mcp.ClientSession {
	t.Helper()
	client := &http.Client{Transport: headerTransport{key: key, value: value}}
	s, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil).
		Connect(ctx, &mcp.StreamableClientTransport{Endpoint: url, HTTPClient: client}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = s.Close() })
	return s
}

type headerTransport struct{ key, value string }

func (h headerTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set(h.key, h.value)
	return http.DefaultTransport.RoundTrip(r)
}

// toolText is a tool result's text.
func toolText(res *mcp.CallToolResult) string {
	var out []string
	for _, c := range res.Content {
		if text, ok := c.(*mcp.TextContent); ok {
			out = append(out, text.Text)
		}
	}
	return strings.Join(out, " ")
}
