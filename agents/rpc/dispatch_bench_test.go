package rpc_test

import (
	"bytes"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/leaguetui/leaguetui/agents/bench"
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
