package rpc_test

import (
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"

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
