package rpc_test

import (
	"context"
	"errors"
	"net"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/leaguetui/leaguetui/agents/rpc"
)

// TestPosterReadsWholeRepliesOnOneConnection posts, one after the other,
// requests whose replies come with a stated length (below and above the
// size read in one buffer) and without one (chunked): each reply must come
// back whole, and every exchange must reuse the one connection, as it
// does when the reply was read to its end.
func TestPosterReadsWholeRepliesOnOneConnection(t *testing.T) {
	sizes := []int{0, 1, 300, 2047, 2049, 10 << 10, 32 << 10, 32<<10 + 1, 200 << 10}
	var connections atomic.Int32
	peer := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		size, _ := strconv.Atoi(r.URL.Query().Get("size"))
		reply := strings.Repeat(string(rune('a'+size%26)), size)
		if r.URL.Query().Get("chunked") == "" {
			w.Header().Set("Content-Length", strconv.Itoa(size))
		}
		_, _ = w.Write([]byte(reply))
		if f, ok := w.(http.Flusher); ok && r.URL.Query().Get("chunked") != "" {
			f.Flush()
		}
	}))
	peer.Config.ConnState = func(_ net.Conn, state http.ConnState) {
		if state == http.StateNew {
			connections.Add(1)
		}
	}
	peer.Start()
	defer peer.Close()
	poster := rpc.NewPoster(1)
	for _, chunked := range []string{"", "1"} {
		for _, size := range sizes {
			url := peer.URL + "/mcp?size=" + strconv.Itoa(size) + "&chunked=" + chunked
			status, reply, err := poster.Post(context.Background(), url, []byte(`{}`))
			if err != nil || status != http.StatusOK {
				t.Fatalf("size %d chunked %q: HTTP %d, %v", size, chunked, status, err)
			}
			if want := strings.Repeat(string(rune('a'+size%26)), size); string(reply) != want {
				t.Errorf("size %d chunked %q: got %d bytes, want %d", size, chunked, len(reply), size)
			}
		}
	}
	if n := connections.Load(); n != 1 {
		t.Errorf("%d connections for %d sequential exchanges, want 1", n, 2*len(sizes))
	}
}

// TestPosterRefusesAStatedLengthOverTheLimit: a reply that says it is
// longer than any request we take is refused before it is read.
func TestPosterRefusesAStatedLengthOverTheLimit(t *testing.T) {
	peer := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Length", strconv.Itoa(rpc.MaxBodyBytes+1))
		_, _ = w.Write([]byte(`{"jsonrpc":"2.0"`)) // and then nothing
	}))
	defer peer.Close()
	_, _, err := rpc.NewPoster(1).Post(context.Background(), peer.URL+"/mcp", []byte(`{}`))
	var tooLarge *rpc.ReplyTooLargeError
	if !errors.As(err, &tooLarge) || !strings.Contains(err.Error(), rpc.ReplyTooLarge) {
		t.Fatalf("got %v, want the reply refused as over %d bytes", err, rpc.MaxBodyBytes)
	}
}
