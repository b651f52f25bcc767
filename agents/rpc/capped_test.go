package rpc_test

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/leaguetui/leaguetui/agents/rpc"
)

// CapReplies reads a reply up to its cap: one that ends at the cap is
// whole, one that goes on without a stated length fails the read as
// REPLY_TOO_LARGE, and one that states a longer length is refused unread.
func TestCapReplies(t *testing.T) {
	const limit = 4096
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n, _ := strconv.Atoi(r.URL.Query().Get("n"))
		if r.URL.Query().Get("stated") != "" {
			w.Header().Set("Content-Length", strconv.Itoa(n))
		} else {
			w.(http.Flusher).Flush() // chunked: no stated length
		}
		_, _ = io.WriteString(w, strings.Repeat("x", n))
	}))
	defer srv.Close()
	client := &http.Client{Transport: rpc.CapReplies(http.DefaultTransport, limit)}
	get := func(query string) ([]byte, error) {
		resp, err := client.Get(srv.URL + "/?" + query)
		if err != nil {
			return nil, err
		}
		defer resp.Body.Close()
		return io.ReadAll(resp.Body)
	}
	if body, err := get("n=4096"); err != nil || len(body) != limit {
		t.Errorf("a reply of exactly the cap: %d bytes, %v", len(body), err)
	}
	for _, query := range []string{"n=4097", "n=10000000", "n=4097&stated=1"} {
		body, err := get(query)
		var tooLarge *rpc.ReplyTooLargeError
		if !errors.As(err, &tooLarge) || tooLarge.Limit != limit || !rpc.IsReplyTooLarge(err) || len(body) > limit {
			t.Errorf("%s: %d bytes read, err %v; want REPLY_TOO_LARGE after at most %d bytes", query, len(body), err, limit)
		}
	}
}

// --message-bytes: a server set to a smaller bound refuses a request over
// it (413), even one whose stated length its buffers would take, and a
// client set to one refuses a reply over it as REPLY_TOO_LARGE.
func TestMessageBytesIsSettable(t *testing.T) {
	const limit = 4096
	s := newTestServer()
	s.SetMaxBodyBytes(limit)
	srv := httptest.NewServer(s)
	defer srv.Close()
	body := `{"jsonrpc":"2.0","id":1,"method":"ping","params":{"pad":"` + strings.Repeat("x", limit) + `"}}`
	resp, err := http.Post(srv.URL+"/mcp", "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusRequestEntityTooLarge {
		t.Errorf("a %d-byte request to a server of %d: HTTP %d, want 413", len(body), limit, resp.StatusCode)
	}

	p := newPeer(t, func(*http.Request, string, map[string]any) (int, string) {
		return 200, result(`{"pad":"` + strings.Repeat("x", limit) + `"}`)
	})
	c := rpc.NewClient(rpc.Options{Retry: fastRetry, MaxReplyBytes: limit})
	_, err = c.Send(context.Background(), rpc.Call{Endpoint: p.endpoint(), Message: invitationMsg(), Timeout: 5 * time.Second})
	var tooLarge *rpc.ReplyTooLargeError
	if !errors.As(err, &tooLarge) || tooLarge.Limit != limit {
		t.Errorf("a reply over %d bytes: %v, want REPLY_TOO_LARGE", limit, err)
	}
}
