package check

import (
	"context"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"
)

// TestRedirectIsNotFollowed: an agent that answers with a redirect gets
// its redirect shown as its answer; the checker never calls where it
// points, which could be anything on the checker's network.
func TestRedirectIsNotFollowed(t *testing.T) {
	var elsewhere atomic.Int64
	target := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		elsewhere.Add(1)
		_, _ = w.Write([]byte(`{"jsonrpc":"2.0","id":1,"result":{"status":"ok"}}`))
	}))
	defer target.Close()
	agent := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, target.URL+"/mcp", http.StatusTemporaryRedirect)
	}))
	defer agent.Close()
	x := post(context.Background(), agent.URL+"/mcp", request("ping", map[string]any{}, 1), 5*time.Second, nil)
	if x.Err != nil || x.Status != http.StatusTemporaryRedirect {
		t.Errorf("got %s, want the redirect itself (HTTP 307)", x.got())
	}
	if _, err := x.reply(); err == nil {
		t.Error("a redirect was read as a reply")
	}
	if g := get(context.Background(), agent.URL+"/health", 5*time.Second); g.Status != http.StatusTemporaryRedirect {
		t.Errorf("GET /health: got %s, want the redirect itself", g.got())
	}
	if n := elsewhere.Load(); n != 0 {
		t.Errorf("the redirect's target was called %d times", n)
	}
}
