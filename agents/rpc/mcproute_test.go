package rpc

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/leaguetui/leaguetui/agents/protocol"
)

// The /mcp dispatcher: league methods to the league, MCP to the SDK, and a
// league peer's bare ping or tools/call to the league as before.
func TestServeMCPRoutesLeagueAndMCPTraffic(t *testing.T) {
	srv := NewServer(slog.New(slog.DiscardHandler), func() string { return "player:P01" })
	srv.Handle(protocol.TypeGameInvitation, func(context.Context, protocol.Inbound) (any, error) { return map[string]string{"status": "ok"}, nil })
	var sdkBody, sdkAccept string
	srv.MountMCP(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		sdkBody, sdkAccept = string(b), r.Header.Get("Accept")
		w.WriteHeader(http.StatusTeapot)
	}))
	mcpHeaders := map[string]string{"Accept": mcpAccept, "Content-Type": "application/json"}
	invitation := `{"protocol":"league.v2","message_type":"GAME_INVITATION"}`
	cases := []struct {
		name    string
		method  string
		body    string
		headers map[string]string
		toSDK   bool
	}{
		{"league method", "POST", `{"jsonrpc":"2.0","id":1,"method":"handle_game_invitation","params":` + invitation + `}`, mcpHeaders, false},
		{"league wrapper with a slash", "POST", `{"jsonrpc":"2.0","id":1,"method":"protocol/message","params":{"message":` + invitation + `}}`, nil, false},
		{"initialize", "POST", `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}`, mcpHeaders, true},
		{"notification", "POST", `{"jsonrpc":"2.0","method":"notifications/initialized"}`, mcpHeaders, true},
		{"tools/list", "POST", `{"jsonrpc":"2.0","id":2,"method":"tools/list"}`, mcpHeaders, true},
		{"server/discover, 2026-07-28", "POST", `{"jsonrpc":"2.0","id":2,"method":"server/discover"}`,
			map[string]string{"Mcp-Method": "server/discover", "Mcp-Protocol-Version": "2026-07-28"}, true},
		{"MCP ping", "POST", `{"jsonrpc":"2.0","id":3,"method":"ping"}`, mcpHeaders, true},
		{"league peer's ping", "POST", `{"method":"ping"}`, nil, false},
		{"MCP tools/call", "POST", `{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"handle_game_invitation","arguments":` + invitation + `}}`, mcpHeaders, true},
		{"league peer's tools/call", "POST", `{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"handle_game_invitation","arguments":` + invitation + `}}`, nil, false},
		{"bare tools/call the league cannot serve", "POST", `{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"get_standings"}}`, nil, true},
		{"garbage", "POST", `{not json`, nil, false},
		{"GET", "GET", "", nil, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			sdkBody = ""
			req := httptest.NewRequest(c.method, "/mcp", strings.NewReader(c.body))
			for k, v := range c.headers {
				req.Header.Set(k, v)
			}
			rec := httptest.NewRecorder()
			srv.ServeHTTP(rec, req)
			toSDK := rec.Code == http.StatusTeapot
			if toSDK != c.toSDK {
				t.Fatalf("went to the SDK: %v, want %v (HTTP %d %s)", toSDK, c.toSDK, rec.Code, rec.Body)
			}
			if toSDK && sdkBody != c.body {
				t.Errorf("the SDK got body %q, want %q", sdkBody, c.body)
			}
			if toSDK && c.method == "POST" && !strings.Contains(sdkAccept, "text/event-stream") {
				t.Errorf("the SDK got Accept %q", sdkAccept)
			}
		})
	}
}

// A league peer's health check gets a success result once MCP is mounted;
// the SPEC's {"method":"ping"}, which has no id, is a JSON-RPC notification:
// 202 and no body, which still says the agent is there.
func TestLeaguePingStillSucceedsWithMCPMounted(t *testing.T) {
	srv := NewServer(slog.New(slog.DiscardHandler), func() string { return "player:P01" })
	srv.MountMCP(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(http.StatusTeapot) }))
	rec := httptest.NewRecorder()
	srv.ServeHTTP(rec, httptest.NewRequest("POST", "/mcp", strings.NewReader(`{"method":"ping","id":1}`)))
	if rec.Code != http.StatusOK || !strings.Contains(rec.Body.String(), `"result":{"status":"ok"}`) {
		t.Fatalf("league ping: HTTP %d %s", rec.Code, rec.Body)
	}
	rec = httptest.NewRecorder()
	srv.ServeHTTP(rec, httptest.NewRequest("POST", "/mcp", strings.NewReader(`{"method":"ping"}`)))
	if rec.Code != http.StatusAccepted || rec.Body.Len() != 0 {
		t.Fatalf("league ping without an id: HTTP %d %q, want 202 and no body", rec.Code, rec.Body)
	}
}
