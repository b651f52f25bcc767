package rpc_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/leaguetui/leaguetui/agents/protocol"
	"github.com/leaguetui/leaguetui/agents/rpc"
	"github.com/leaguetui/leaguetui/config"
	"github.com/leaguetui/leaguetui/league/bench"
)

// BenchmarkDispatch is one CHOOSE_PARITY_CALL, as a referee sends it, through
// the /mcp handler of a player-like server with MCP mounted (as every agent
// has): reading, routing, decoding the typed message and encoding the reply.
func BenchmarkDispatch(b *testing.B) {
	request, _, err := bench.SampleExchange()
	if err != nil {
		b.Fatal(err)
	}
	s := newTestServer()
	s.MountMCP(http.NotFoundHandler())
	b.SetBytes(int64(len(request)))
	b.ReportAllocs()
	for b.Loop() {
		rec := httptest.NewRecorder()
		s.ServeHTTP(rec, httptest.NewRequest(http.MethodPost, "/mcp", bytes.NewReader(request)))
		if rec.Code != http.StatusOK {
			b.Fatalf("HTTP %d %s", rec.Code, rec.Body)
		}
	}
}

// BenchmarkClientSend is one CHOOSE_PARITY_CALL sent by a referee's
// client to a loopback peer that answers with a canned
// CHOOSE_PARITY_RESPONSE: framing the request, the HTTP exchange and
// reading the reply, the client's whole share of a call.
func BenchmarkClientSend(b *testing.B) {
	call, response := sampleCall(b)
	peer := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write(response)
	}))
	defer peer.Close()
	sendAll(b, peer.URL+"/mcp", call)
}

// sampleCall is the CHOOSE_PARITY_CALL of bench.SampleExchange, decoded,
// and the response a player sends to it.
func sampleCall(b *testing.B) (*protocol.MoveCall, []byte) {
	request, response, err := bench.SampleExchange()
	if err != nil {
		b.Fatal(err)
	}
	var req struct {
		Params json.RawMessage `json:"params"`
	}
	if err := json.Unmarshal(request, &req); err != nil {
		b.Fatal(err)
	}
	var call protocol.MoveCall
	if err := protocol.Decode(req.Params, &call); err != nil {
		b.Fatal(err)
	}
	return &call, response
}

// sendAll sends call to endpoint b.N times with a referee's client.
func sendAll(b *testing.B, endpoint string, call *protocol.MoveCall) {
	client := rpc.NewClient(rpc.Options{Retry: config.Default().Retry, Breaker: config.Default().Breaker})
	send := rpc.Call{Endpoint: endpoint, Message: call, Timeout: 5 * time.Second, Attempts: 1}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := client.Send(context.Background(), send); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkExchange is one CHOOSE_PARITY_CALL from a referee's client to a
// player-like rpc.Server over loopback HTTP, both ends in this process:
// what net/http and the framing cost an exchange, on both sides.
func BenchmarkExchange(b *testing.B) {
	call, _ := sampleCall(b)
	s := newTestServer()
	s.MountMCP(http.NotFoundHandler())
	peer := httptest.NewServer(s)
	defer peer.Close()
	sendAll(b, peer.URL+"/mcp", call)
}
