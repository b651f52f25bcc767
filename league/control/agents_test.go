package control

import (
	"context"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/leaguetui/leaguetui/agents/rpc"
)

func TestHealthURL(t *testing.T) {
	tests := []struct{ endpoint, want string }{
		{"http://127.0.0.1:8101/mcp", "http://127.0.0.1:8101/health"},
		{"http://127.0.0.1:8101/mcp/", "http://127.0.0.1:8101/health"},
		{"http://127.0.0.1:8101", "http://127.0.0.1:8101/health"},
	}
	for _, tt := range tests {
		if got := HealthURL(tt.endpoint); got != tt.want {
			t.Errorf("HealthURL(%q) = %q, want %q", tt.endpoint, got, tt.want)
		}
	}
}

// closedEndpoint is the /mcp URL of a port nothing listens on any more.
func closedEndpoint(t *testing.T) string {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	return "http://" + addr + "/mcp"
}

func TestProbeAgents(t *testing.T) {
	healthy := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/health" {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"id":"P01","role":"player","state":"ACTIVE","requests_served":7}`))
	}))
	defer healthy.Close()
	broken := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		http.Error(w, "no", http.StatusInternalServerError)
	}))
	defer broken.Close()
	hung := make(chan struct{})
	slow := httptest.NewServer(http.HandlerFunc(func(_ http.ResponseWriter, r *http.Request) {
		select {
		case <-hung:
		case <-r.Context().Done():
		}
	}))
	defer slow.Close()
	defer close(hung)

	endpoints := []string{healthy.URL + "/mcp", broken.URL + "/mcp", closedEndpoint(t), slow.URL + "/mcp"}
	probes := ProbeAgents(context.Background(), endpoints, 2, 300*time.Millisecond)
	if len(probes) != len(endpoints) {
		t.Fatalf("got %d probes, want %d", len(probes), len(endpoints))
	}
	if p := probes[0]; p.Err != nil || p.Health.ID != "P01" || p.Health.State != "ACTIVE" || p.Health.Served != 7 {
		t.Errorf("healthy agent: %+v", p)
	}
	for i, name := range []string{"", "HTTP 500", "closed port", "no answer in time"} {
		if i == 0 {
			continue
		}
		if probes[i].Err == nil {
			t.Errorf("%s: want an error, got %+v", name, probes[i])
		}
		if probes[i].Endpoint != endpoints[i] || probes[i].At.IsZero() {
			t.Errorf("%s: probe not labelled: %+v", name, probes[i])
		}
	}
}

// An agent whose /health never ends is read up to a league message's cap
// and shown as failing, REPLY_TOO_LARGE.
func TestProbeAnEndlessHealth(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		_, _ = w.Write([]byte(`{"state":"`))
		chunk := []byte(strings.Repeat("x", 64<<10))
		for range 160 { // 10 MiB, unless the reader stops first
			if _, err := w.Write(chunk); err != nil {
				return
			}
		}
	}))
	defer srv.Close()
	probes := ProbeAgents(context.Background(), []string{srv.URL + "/mcp"}, 1, 30*time.Second)
	if err := probes[0].Err; !rpc.IsReplyTooLarge(err) {
		t.Errorf("probe of an endless /health: %v, want %s", err, rpc.ReplyTooLarge)
	}
}

// TestClientCapsReplies: a manager that answers without end (anyone's,
// once the console attaches to it) is cut off at MaxReplyBytes with a
// reply-too-large error; the console does not read it whole into memory.
func TestClientCapsReplies(t *testing.T) {
	chunk := []byte(`{"x":"` + strings.Repeat("a", 1<<20))
	var written atomic.Int64
	endless := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		for written.Load() < 4*MaxReplyBytes {
			n, err := w.Write(chunk)
			written.Add(int64(n))
			if err != nil {
				return // the client hung up, as it should
			}
		}
	}))
	defer endless.Close()
	c := New(endless.URL, "")
	if _, err := c.Standings(context.Background()); !rpc.IsReplyTooLarge(err) {
		t.Errorf("standings of an endless reply: %v, want a reply-too-large error", err)
	}
	if _, err := c.MatchFile(context.Background(), "R1M1"); !rpc.IsReplyTooLarge(err) {
		t.Errorf("match file of an endless reply: %v, want a reply-too-large error", err)
	}
	if got := written.Load(); got >= 4*MaxReplyBytes {
		t.Errorf("the client read %d bytes, want it to stop after %d", got, MaxReplyBytes)
	}
}
