package rpc_test

import (
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"unicode/utf8"

	"github.com/leaguetui/leaguetui/agents/protocol"
	"github.com/leaguetui/leaguetui/agents/rpc"
)

// fuzzSeeds are valid league requests in the forms peers send them, and
// the bad inputs of e2e/badinput's table.
var fuzzSeeds = []string{
	`{"jsonrpc":"2.0","method":"handle_game_invitation","params":` + invitation + `,"id":1}`,
	`{"jsonrpc":"2.0","method":"tools/call","params":{"name":"handle_game_invitation","arguments":` + invitation + `},"id":"a"}`,
	`{"jsonrpc":"2.0","method":"protocol/message","params":{"message":` + invitation + `},"id":2}`,
	`{"jsonrpc":"2.0","method":"league.handle","params":{"envelope":{"message_type":"START_MATCH","protocol":"league.v2"},"payload":{"match_id":"R1M1"}},"id":3}`,
	`{"jsonrpc":"2.0","method":"start_match","params":{"protocol":"league.v2","message_type":"START_MATCH","game_id":"R1M1","player_a_id":"P01"},"id":4}`,
	`{"jsonrpc":"2.0","method":"register_player","params":{"protocol":"league.v2","player_meta":{"name":"x","url":"http://h/mcp"}},"id":5}`,
	`{"method":"ping"}`,
	`{"jsonrpc":"2.0","method":"start_match","params":{"protocol":"league.v2","message_type":"START_MATCH","match_id":"R1M1"}}`,
	`{"jsonrpc":"2.0","method":"ping","id":"` + "\xff" + `"}`,
	`{"jsonrpc":"2.0","method":"ping","id":-1.5e3}`,
	`{"jsonrpc":"2.0","method":"choose_parity","params":{"type":"GAME_MOVE_CALL","matchId":"R1M1"},"id":6}`,
	`{"jsonrpc":"2.0","method":"handle_game_invitation",`,
	``,
	`"register"`,
	`{"jsonrpc":"1.0","method":"ping","id":1}`,
	`{"jsonrpc":2.0,"method":"ping","id":1}`,
	`{"jsonrpc":"2.0","params":{},"id":1}`,
	`{"jsonrpc":"2.0","method":42,"id":1}`,
	`{"jsonrpc":"2.0","result":{"status":"ok"},"id":1}`,
	`{"jsonrpc":"2.0","method":"ping","id":{"x":1}}`,
	`{"jsonrpc":"2.0","method":"frobnicate","params":{},"id":1}`,
	`{"jsonrpc":"2.0","method":"start_match","params":"x","id":1}`,
	`{"jsonrpc":"2.0","method":"start_match","params":[1],"id":1}`,
	`{"jsonrpc":"2.0","method":"start_match","params":{"round_id":"three"},"id":1}`,
	`{"jsonrpc":"2.0","method":"start_match","params":{"message_type":12},"id":1}`,
	`{"jsonrpc":"2.0","method":"start_match","params":{"protocol":"league.v1","message_type":"START_MATCH"},"id":1}`,
	`[{"jsonrpc":"2.0","method":"ping","id":1},{"jsonrpc":"2.0","method":"ping","id":2}]`,
	strings.Repeat("[", 20_000) + strings.Repeat("]", 20_000),
	`{"jsonrpc":"2.0","method":"start_match","id":1,"params":{"x":` + strings.Repeat("[", 20_000) + strings.Repeat("]", 20_000) + `}}`,
}

// recordingServer serves the message types whose handlers would change
// state; each records that it was reached with a message it could decode.
func recordingServer() (*rpc.Server, *atomic.Int64) {
	var acted atomic.Int64
	s := rpc.NewServer(slog.New(slog.DiscardHandler), func() string { return "referee:REF01" })
	act := func(newMessage func() protocol.Message) rpc.Handler {
		return func(_ context.Context, in protocol.Inbound) (any, error) {
			if err := rpc.DecodeParams(in, newMessage()); err != nil {
				return nil, err
			}
			acted.Add(1)
			return map[string]string{"status": "ok"}, nil
		}
	}
	s.Handle(protocol.TypeStartMatch, act(func() protocol.Message { return &protocol.StartMatch{} }))
	s.Handle(protocol.TypeGameInvitation, act(func() protocol.Message { return &protocol.GameInvitation{} }))
	s.Handle(protocol.TypeLeagueRegisterRequest, act(func() protocol.Message { return &protocol.LeagueRegisterRequest{} }))
	s.Handle(protocol.TypeChooseParityResponse, act(func() protocol.Message { return &protocol.MoveAnswer{} }))
	return s, &acted
}

// FuzzDispatch sends arbitrary bodies through the /mcp handler, as a league
// peer or with an MCP client's headers. It must never panic; it must answer
// one well-formed JSON-RPC response in valid UTF-8 (or 413 for a body over
// the limit, or 202 and nothing for a notification, or hand an MCP message
// to the MCP handler); and a handler that changes state
// must only ever see a request that is valid JSON-RPC carrying a league.v2
// message.
func FuzzDispatch(f *testing.F) {
	for _, seed := range fuzzSeeds {
		f.Add([]byte(seed), false)
		f.Add([]byte(seed), true)
	}
	f.Fuzz(func(t *testing.T, body []byte, asMCP bool) {
		s, acted := recordingServer()
		var toMCP atomic.Int64
		s.MountMCP(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
			toMCP.Add(1)
			w.WriteHeader(http.StatusAccepted)
		}))
		req := httptest.NewRequest(http.MethodPost, "/mcp", bytes.NewReader(body))
		if asMCP {
			req.Header.Set("Accept", "application/json, text/event-stream")
		}
		rec := httptest.NewRecorder()
		s.ServeHTTP(rec, req)

		if toMCP.Load() > 0 {
			if acted.Load() != 0 {
				t.Fatalf("handed to MCP and acted on: %q", body)
			}
			return
		}
		parsed, rpcErr := protocol.ParseRequest(body)
		checkResponse(t, body, rec, parsed, rpcErr)
		if acted.Load() > 0 {
			checkActionable(t, body, parsed, rpcErr)
		}
	})
}

// checkResponse requires one JSON-RPC response with either a result or an
// error, echoing the request's id.
func checkResponse(t *testing.T, body []byte, rec *httptest.ResponseRecorder, parsed *protocol.Request, rpcErr *protocol.RPCError) {
	t.Helper()
	if rpcErr == nil && parsed.IsNotification() {
		if rec.Code != http.StatusAccepted || rec.Body.Len() != 0 {
			t.Fatalf("notification answered: HTTP %d %q\nfor %q", rec.Code, rec.Body, body)
		}
		return
	}
	if !utf8.Valid(rec.Body.Bytes()) {
		t.Fatalf("response is not valid UTF-8: %q\nfor %q", rec.Body, body)
	}
	var resp struct {
		JSONRPC string             `json:"jsonrpc"`
		ID      json.RawMessage    `json:"id"`
		Result  json.RawMessage    `json:"result"`
		Error   *protocol.RPCError `json:"error"`
	}
	if err := json.Unmarshal(rec.Body.Bytes(), &resp); err != nil || resp.JSONRPC != "2.0" {
		t.Fatalf("HTTP %d, not a JSON-RPC response (%v): %q\nfor %q", rec.Code, err, rec.Body, body)
	}
	if (resp.Error == nil) == (len(resp.Result) == 0) {
		t.Fatalf("want exactly one of result and error: %s\nfor %q", rec.Body, body)
	}
	switch {
	case rec.Code == http.StatusRequestEntityTooLarge:
		if len(body) <= rpc.MaxBodyBytes || resp.Error == nil || resp.Error.Code != protocol.CodeInvalidRequest {
			t.Fatalf("413 for a body of %d bytes: %s", len(body), rec.Body)
		}
		return
	case rec.Code != http.StatusOK && rec.Code != http.StatusBadRequest:
		t.Fatalf("HTTP %d: %s\nfor %q", rec.Code, rec.Body, body)
	}
	if rpcErr != nil && (resp.Error == nil || resp.Error.Code != rpcErr.Code) {
		t.Fatalf("framing error %v, answered %s\nfor %q", rpcErr, rec.Body, body)
	}
	if want := wantID(parsed); !sameID(resp.ID, want) {
		t.Fatalf("id %s, want %s\nfor %q", resp.ID, want, body)
	}
}

// sameID: the answer's id is the request's, as a JSON value (a string's
// "&" may be written "\u0026", as encoding/json writes it).
func sameID(got, want json.RawMessage) bool {
	if bytes.Equal(got, want) {
		return true
	}
	var g, w any
	decode := func(raw json.RawMessage, v *any) bool {
		d := json.NewDecoder(bytes.NewReader(raw))
		d.UseNumber() // 1e400 or a long integer stays as it was written
		return d.Decode(v) == nil
	}
	return decode(got, &g) && decode(want, &w) && g == w
}

func wantID(parsed *protocol.Request) json.RawMessage {
	if parsed == nil || len(parsed.ID) == 0 {
		return json.RawMessage("null")
	}
	return parsed.ID
}

// checkActionable: a state-changing handler acted, so the request must have
// been valid JSON-RPC with a league.v2 message (or none stated).
func checkActionable(t *testing.T, body []byte, parsed *protocol.Request, rpcErr *protocol.RPCError) {
	t.Helper()
	if rpcErr != nil || !json.Valid(body) {
		t.Fatalf("a handler acted on a request with bad framing (%v): %q", rpcErr, body)
	}
	in, ok := protocol.Route(parsed.Method, parsed.Params)
	if !ok || (in.Protocol != "" && in.Protocol != protocol.Version) {
		t.Fatalf("a handler acted on %q (routed %+v)", body, in)
	}
}
