package rpc_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/leaguetui/leaguetui/agents/protocol"
	"github.com/leaguetui/leaguetui/agents/rpc"
)

// newTestServer is a player-like server: it joins invitations, panics on
// a move call for match "boom", and refuses league queries with E012.
func newTestServer() *rpc.Server {
	s := rpc.NewServer(slog.New(slog.DiscardHandler), func() string { return "player:P01" })
	s.Handle(protocol.TypeGameInvitation, func(_ context.Context, in protocol.Inbound) (any, error) {
		var inv protocol.GameInvitation
		if err := rpc.DecodeParams(in, &inv); err != nil {
			return nil, err
		}
		ack := &protocol.GameJoinAck{Envelope: protocol.NewEnvelope(protocol.TypeGameJoinAck, "player:P01", inv.ConversationID),
			PlayerID: "P01", Accept: true}
		ack.MatchID = inv.MatchID
		return ack, nil
	})
	s.Handle(protocol.TypeChooseParityCall, func(_ context.Context, in protocol.Inbound) (any, error) {
		var call protocol.MoveCall
		if err := rpc.DecodeParams(in, &call); err != nil {
			return nil, err
		}
		if call.MatchID == "boom" {
			panic("strategy exploded")
		}
		resp := &protocol.MoveAnswer{Envelope: protocol.NewEnvelope(protocol.TypeChooseParityResponse, "player:P01", call.ConversationID),
			PlayerID: "P01", Choice: "even"}
		resp.MatchID = call.MatchID
		return resp, nil
	})
	s.Handle(protocol.TypeLeagueQuery, func(context.Context, protocol.Inbound) (any, error) {
		return nil, protocol.Reject(protocol.CodeAuthTokenInvalid, "auth_token is not valid")
	})
	return s
}

type response struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Result  map[string]any  `json:"result"`
	Error   *struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
}

func decodeResponse(t *testing.T, body []byte) response {
	t.Helper()
	var r response
	if err := json.Unmarshal(body, &r); err != nil {
		t.Fatalf("response is not JSON: %v\n%s", err, body)
	}
	if r.JSONRPC != "2.0" {
		t.Errorf("response jsonrpc = %q, want 2.0: %s", r.JSONRPC, body)
	}
	return r
}

const invitation = `{"protocol":"league.v2","message_type":"GAME_INVITATION","sender":"referee:REF01","timestamp":"2025-01-15T10:00:00Z","conversation_id":"conv-r1m1-001","match_id":"R1M1","round_id":1,"game_type":"even_odd","role_in_match":"PLAYER_A","opponent_id":"P02"}`

// TestDispatchFraming checks the JSON-RPC error codes and that the id comes
// back exactly as it was sent.
func TestDispatchFraming(t *testing.T) {
	tests := []struct {
		name     string
		body     string
		wantCode int    // 0: a result
		wantID   string // the raw id in the response
	}{
		{name: "invalid JSON", body: `{"jsonrpc":"2.0","method":"handle_game_invitation",`, wantCode: -32700, wantID: `null`},
		{name: "wrong jsonrpc", body: `{"jsonrpc":"1.0","method":"handle_game_invitation","params":` + invitation + `,"id":5}`,
			wantCode: -32600, wantID: `5`},
		{name: "missing method", body: `{"jsonrpc":"2.0","params":` + invitation + `,"id":6}`, wantCode: -32600, wantID: `6`},
		{name: "unknown method", body: `{"jsonrpc":"2.0","method":"frobnicate","params":{},"id":7}`, wantCode: -32601, wantID: `7`},
		{name: "known message without a handler", body: `{"jsonrpc":"2.0","method":"report_match_result","params":{},"id":8}`,
			wantCode: -32601, wantID: `8`},
		{name: "params an array", body: `{"jsonrpc":"2.0","method":"handle_game_invitation","params":[1],"id":9}`, wantCode: -32602, wantID: `9`},
		{name: "params a string", body: `{"jsonrpc":"2.0","method":"handle_game_invitation","params":"x","id":10}`, wantCode: -32602, wantID: `10`},
		{name: "params of the wrong shape", body: `{"jsonrpc":"2.0","method":"handle_game_invitation","params":{"round_id":"three"},"id":11}`,
			wantCode: -32602, wantID: `11`},
		{name: "batch array rejected", body: `[{"jsonrpc":"2.0","method":"ping","id":1},{"jsonrpc":"2.0","method":"ping","id":2}]`,
			wantCode: -32600, wantID: `null`},
		{name: "id an object", body: `{"jsonrpc":"2.0","method":"ping","id":{"x":1}}`, wantCode: -32600, wantID: `null`},
		{name: "jsonrpc a number keeps the id", body: `{"jsonrpc":2.0,"method":"ping","id":12}`, wantCode: -32600, wantID: `12`},
		{name: "100k nested arrays", body: strings.Repeat("[", 100_000) + strings.Repeat("]", 100_000), wantCode: -32700, wantID: `null`},
		{name: "integer id", body: `{"jsonrpc":"2.0","method":"handle_game_invitation","params":` + invitation + `,"id":1001}`, wantID: `1001`},
		{name: "string id", body: `{"jsonrpc":"2.0","method":"handle_game_invitation","params":` + invitation + `,"id":"req-7f3a"}`, wantID: `"req-7f3a"`},
		{name: "numeric-looking string id", body: `{"jsonrpc":"2.0","method":"handle_game_invitation","params":` + invitation + `,"id":"42"}`, wantID: `"42"`},
		{name: "large integer id", body: `{"jsonrpc":"2.0","method":"handle_game_invitation","params":` + invitation + `,"id":9007199254740993}`,
			wantID: `9007199254740993`},
		{name: "null id", body: `{"jsonrpc":"2.0","method":"handle_game_invitation","params":` + invitation + `,"id":null}`, wantID: `null`},
		{name: "string id of invalid UTF-8", body: `{"jsonrpc":"2.0","method":"ping","id":"a` + "\xff\xfe" + `b"}`, wantCode: -32600, wantID: `null`},
		{name: "string id escaping a lone surrogate", body: `{"jsonrpc":"2.0","method":"ping","id":"\ud800"}`, wantID: `"\ud800"`},
		{name: "id true", body: `{"jsonrpc":"2.0","method":"ping","id":true}`, wantCode: -32600, wantID: `null`},
		{name: "id an array", body: `{"jsonrpc":"2.0","method":"ping","id":[1]}`, wantCode: -32600, wantID: `null`},
		{name: "notification with bad framing is answered", body: `{"jsonrpc":"1.0","method":"ping"}`, wantCode: -32600, wantID: `null`},
		{name: "missing jsonrpc tolerated", body: `{"method":"ping","id":3}`, wantID: `3`},
	}
	s := newTestServer()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out := s.Dispatch(context.Background(), []byte(tt.body))
			r := decodeResponse(t, out)
			if string(r.ID) != tt.wantID {
				t.Errorf("id = %s, want %s exactly: %s", r.ID, tt.wantID, out)
			}
			switch {
			case tt.wantCode == 0 && r.Error != nil:
				t.Errorf("error %d %q, want a result: %s", r.Error.Code, r.Error.Message, out)
			case tt.wantCode == 0 && r.Result == nil:
				t.Errorf("no result: %s", out)
			case tt.wantCode != 0 && (r.Error == nil || r.Error.Code != tt.wantCode):
				t.Errorf("got %s, want error %d", out, tt.wantCode)
			case tt.wantCode != 0 && r.Result != nil:
				t.Errorf("both result and error: %s", out)
			}
		})
	}
}

func TestDispatchReplies(t *testing.T) {
	s := newTestServer()
	call := func(method, params string) response {
		t.Helper()
		return decodeResponse(t, s.Dispatch(context.Background(),
			[]byte(`{"jsonrpc":"2.0","method":"`+method+`","params":`+params+`,"id":1}`)))
	}

	t.Run("reply in result", func(t *testing.T) {
		r := call("handle_game_invitation", invitation)
		if r.Result["message_type"] != "GAME_JOIN_ACK" || r.Result["match_id"] != "R1M1" || r.Result["accept"] != true ||
			r.Result["conversation_id"] != "conv-r1m1-001" {
			t.Errorf("result = %v, want the GAME_JOIN_ACK for R1M1 echoing the conversation", r.Result)
		}
	})
	t.Run("ping", func(t *testing.T) {
		if r := call("ping", `{}`); r.Result["status"] != "ok" {
			t.Errorf("ping result = %v", r.Result)
		}
	})
	t.Run("league error as result", func(t *testing.T) {
		r := call("league_query", `{"message_type":"LEAGUE_QUERY","conversation_id":"conv-q-1","sender":"player:P09"}`)
		want := map[string]any{"message_type": "LEAGUE_ERROR", "error_code": "E012", "error_name": "AUTH_TOKEN_INVALID",
			"original_message_type": "LEAGUE_QUERY", "conversation_id": "conv-q-1", "sender": "player:P01", "protocol": "league.v2"}
		for k, v := range want {
			if r.Result[k] != v {
				t.Errorf("LEAGUE_ERROR %s = %v, want %v (result %v)", k, r.Result[k], v, r.Result)
			}
		}
		if r.Error != nil {
			t.Errorf("a league rejection must be a result, got error %+v", r.Error)
		}
	})
	t.Run("tools/call answered in MCP form", func(t *testing.T) {
		r := call("tools/call", `{"name":"handle_game_invitation","arguments":`+invitation+`}`)
		content, _ := r.Result["content"].([]any)
		if len(content) != 1 || r.Result["isError"] != false {
			t.Fatalf("result = %v, want one content block and isError false", r.Result)
		}
		text, _ := content[0].(map[string]any)["text"].(string)
		var inner map[string]any
		if err := json.Unmarshal([]byte(text), &inner); err != nil || inner["message_type"] != "GAME_JOIN_ACK" {
			t.Errorf("content[0].text = %q, want the GAME_JOIN_ACK as JSON", text)
		}
		if sc, _ := r.Result["structuredContent"].(map[string]any); sc["match_id"] != "R1M1" {
			t.Errorf("structuredContent = %v", r.Result["structuredContent"])
		}
	})
	t.Run("tools/call league error", func(t *testing.T) {
		r := call("tools/call", `{"name":"league_query","arguments":{"message_type":"LEAGUE_QUERY"}}`)
		if r.Result["isError"] != true {
			t.Errorf("result = %v, want isError true", r.Result)
		}
		raw, _ := json.Marshal(map[string]any{"result": r.Result})
		if _, err := protocol.ParseReply(raw); err == nil || !strings.Contains(err.Error(), "E012") {
			t.Errorf("ParseReply of the tool error = %v, want the E012 LEAGUE_ERROR", err)
		}
	})
}

// TestNotifications: a request without an id is acted on and answered with
// nothing, even when it fails; over HTTP that is 202 with an empty body.
func TestNotifications(t *testing.T) {
	s := newTestServer()
	var joined []string
	s.Handle(protocol.TypeGameJoinAck, func(_ context.Context, in protocol.Inbound) (any, error) {
		var ack protocol.GameJoinAck
		if err := rpc.DecodeParams(in, &ack); err != nil {
			return nil, err
		}
		joined = append(joined, ack.MatchID)
		return map[string]string{"status": "ok"}, nil
	})
	notifications := []string{
		`{"jsonrpc":"2.0","method":"ping"}`,
		`{"method":"ping"}`,
		`{"jsonrpc":"2.0","method":"frobnicate","params":{}}`,
		`{"jsonrpc":"2.0","method":"handle_game_invitation","params":{"round_id":"three"}}`,
		`{"jsonrpc":"2.0","method":"league_query","params":{"message_type":"LEAGUE_QUERY"}}`,
		`{"jsonrpc":"2.0","method":"choose_parity","params":{"message_type":"CHOOSE_PARITY_CALL","match_id":"boom"}}`,
		`{"jsonrpc":"2.0","method":"game_join_ack","params":{"message_type":"GAME_JOIN_ACK","match_id":"R1M1","accept":true}}`,
	}
	for _, body := range notifications {
		if out := s.Dispatch(context.Background(), []byte(body)); out != nil {
			t.Errorf("notification %s answered: %s", body, out)
		}
	}
	if len(joined) != 1 || joined[0] != "R1M1" {
		t.Errorf("the GAME_JOIN_ACK notification reached its handler with %v, want [R1M1]", joined)
	}

	srv := httptest.NewServer(s)
	defer srv.Close()
	resp, err := http.Post(srv.URL+"/mcp", "application/json", strings.NewReader(notifications[0]))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	out, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusAccepted || len(out) != 0 {
		t.Errorf("notification over HTTP: status %d, body %q; want 202 and no body", resp.StatusCode, out)
	}
}

// TestDispatchPanic: a handler that panics gives -32603 and the server goes on.
func TestDispatchPanic(t *testing.T) {
	s := newTestServer()
	for i, match := range []string{"boom", "R1M1", "boom", "R1M2"} {
		body := `{"jsonrpc":"2.0","method":"choose_parity","params":{"message_type":"CHOOSE_PARITY_CALL","match_id":"` + match + `"},"id":` + fmt.Sprint(i+1) + `}`
		r := decodeResponse(t, s.Dispatch(context.Background(), []byte(body)))
		if match == "boom" {
			if r.Error == nil || r.Error.Code != -32603 {
				t.Errorf("call %d: panic gave %+v, want -32603", i+1, r)
			}
			if r.Error != nil && strings.Contains(r.Error.Message, "exploded") {
				t.Errorf("the panic value leaks to the peer: %q", r.Error.Message)
			}
			continue
		}
		if r.Error != nil || r.Result["parity_choice"] != "even" {
			t.Errorf("call %d after a panic: %+v, want the move", i+1, r)
		}
	}
	if got := s.Served(); got != 4 {
		t.Errorf("Served() = %d, want 4", got)
	}
}

// TestServeHTTP checks what only the HTTP layer does.
func TestServeHTTP(t *testing.T) {
	srv := httptest.NewServer(newTestServer()) // 127.0.0.1
	defer srv.Close()
	post := func(body []byte) (*http.Response, []byte) {
		t.Helper()
		resp, err := http.Post(srv.URL+"/mcp", "application/json", bytes.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		out, _ := io.ReadAll(resp.Body)
		return resp, out
	}

	t.Run("body over 1 MiB", func(t *testing.T) {
		big := []byte(`{"jsonrpc":"2.0","method":"handle_game_invitation","id":1,"params":{"pad":"` +
			strings.Repeat("x", rpc.MaxBodyBytes) + `"}}`)
		resp, out := post(big)
		if resp.StatusCode != http.StatusRequestEntityTooLarge {
			t.Errorf("status %d, want 413", resp.StatusCode)
		}
		if r := decodeResponse(t, out); r.Error == nil || r.Error.Code != -32600 {
			t.Errorf("body %s, want a -32600 error", out)
		}
	})
	t.Run("body just under the limit is read", func(t *testing.T) {
		prefix := `{"jsonrpc":"2.0","method":"ping","id":1,"params":{"pad":"`
		body := []byte(prefix + strings.Repeat("x", rpc.MaxBodyBytes-len(prefix)-3) + `"}}`)
		resp, out := post(body)
		if resp.StatusCode != http.StatusOK || decodeResponse(t, out).Result["status"] != "ok" {
			t.Errorf("status %d, body %.100s; want 200 and the ping result", resp.StatusCode, out)
		}
	})
	t.Run("panic then keeps serving", func(t *testing.T) {
		_, out := post([]byte(`{"jsonrpc":"2.0","method":"choose_parity","params":{"match_id":"boom"},"id":1}`))
		if r := decodeResponse(t, out); r.Error == nil || r.Error.Code != -32603 {
			t.Errorf("panic gave %s, want -32603", out)
		}
		resp, out := post([]byte(`{"jsonrpc":"2.0","method":"handle_game_invitation","params":` + invitation + `,"id":"after"}`))
		if r := decodeResponse(t, out); resp.StatusCode != 200 || r.Result["message_type"] != "GAME_JOIN_ACK" || string(r.ID) != `"after"` {
			t.Errorf("after a panic: status %d, %s", resp.StatusCode, out)
		}
		if ct := resp.Header.Get("Content-Type"); ct != "application/json" {
			t.Errorf("Content-Type = %q", ct)
		}
	})
	t.Run("a reply states its length, whatever its size", func(t *testing.T) {
		for _, method := range []string{"short", strings.Repeat("m", 3000)} { // "method not found" quotes it
			resp, out := post([]byte(`{"jsonrpc":"2.0","method":"` + method + `","id":1}`))
			if resp.ContentLength != int64(len(out)) || len(resp.TransferEncoding) != 0 {
				t.Errorf("a reply of %d bytes: Content-Length %d, Transfer-Encoding %v; want its length, not chunks",
					len(out), resp.ContentLength, resp.TransferEncoding)
			}
		}
	})
	t.Run("GET is not allowed", func(t *testing.T) {
		resp, err := http.Get(srv.URL + "/mcp")
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusMethodNotAllowed || resp.Header.Get("Allow") != http.MethodPost {
			t.Errorf("GET /mcp: status %d, Allow %q; want 405, POST", resp.StatusCode, resp.Header.Get("Allow"))
		}
	})
}

// A message type has one handler: registering a second panics, as
// net/http's ServeMux does, rather than silently replacing the first.
func TestSecondHandlerPanics(t *testing.T) {
	s := newTestServer()
	defer func() {
		if r := recover(); r == nil || !strings.Contains(fmt.Sprint(r), protocol.TypeGameInvitation) {
			t.Errorf("a second GAME_INVITATION handler: recovered %v, want a panic naming the type", r)
		}
	}()
	s.Handle(protocol.TypeGameInvitation, func(context.Context, protocol.Inbound) (any, error) { return nil, nil })
}
