package rpc

import (
	"context"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
)

// writeCounter counts the writes a connection makes: each is a system
// call, and over loopback a pass through TCP.
type writeCounter struct {
	net.Conn
	writes *atomic.Int64
}

func (c writeCounter) Write(p []byte) (int, error) {
	c.writes.Add(1)
	return c.Conn.Write(p)
}

// TestLargeRequestsLeaveInOneWrite posts a 10 KB body, a 64-player
// standings' size, over real connections whose writes are counted: with
// net/http's 4 KB buffer it takes more than one write a request, with a
// buffer that holds it (SetWriteBuffer) exactly one, and a small body one
// either way.
func TestLargeRequestsLeaveInOneWrite(t *testing.T) {
	peer := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = w.Write([]byte(`{"jsonrpc":"2.0","result":{},"id":1}`))
	}))
	defer peer.Close()
	large := []byte(`{"padding":"` + strings.Repeat("x", 10<<10) + `"}`)
	small := []byte(`{"padding":"x"}`)
	writesPerPost := func(buffer int, body []byte) float64 {
		p := NewPoster(DefaultMaxConnsPerHost)
		p.SetWriteBuffer(buffer)
		var writes atomic.Int64
		dial := p.transport.DialContext
		p.transport.DialContext = func(ctx context.Context, network, addr string) (net.Conn, error) {
			conn, err := dial(ctx, network, addr)
			if err != nil {
				return nil, err
			}
			return writeCounter{Conn: conn, writes: &writes}, nil
		}
		const posts = 20
		for range posts {
			if status, _, err := p.Post(context.Background(), peer.URL+"/mcp", body); err != nil || status != http.StatusOK {
				t.Fatalf("post: %d %v", status, err)
			}
		}
		p.transport.CloseIdleConnections()
		return float64(writes.Load()) / posts
	}
	if got := writesPerPost(0, large); got <= 1 {
		t.Errorf("a 10 KB request through net/http's default buffer took %.2f writes: the test no longer sees the split", got)
	}
	if got := writesPerPost(16<<10, large); got != 1 {
		t.Errorf("a 10 KB request through a 16 KB buffer took %.2f writes, want 1", got)
	}
	if got := writesPerPost(0, small); got != 1 {
		t.Errorf("a small request took %.2f writes, want 1", got)
	}
}
