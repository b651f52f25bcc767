package protocol_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/leaguetui/leaguetui/agents/protocol"
)

// TestDialectOf reads the dialect of messages as peers send them, and
// frames a message back in it.
func TestDialectOf(t *testing.T) {
	register := `{"protocol":"league.v2","message_type":"LEAGUE_REGISTER_REQUEST","sender":"player:alpha"}`
	tests := []struct {
		method, params string
		want           protocol.Dialect
		invitation     string // the method a GAME_INVITATION is then sent with
	}{
		{"register_player", register, protocol.Dialect{}, "handle_game_invitation"},
		{"LEAGUE_REGISTER_REQUEST", register, protocol.Dialect{Names: protocol.UpperNames}, "GAME_INVITATION"},
		{"league_register_request", register, protocol.Dialect{Names: protocol.SnakeNames}, "game_invitation"},
		{"handle_message", `{"message":` + register + `}`, protocol.Dialect{Wrapper: "handle_message"}, "handle_message"},
		{"mcp_message", `{"message":` + register + `}`, protocol.Dialect{Wrapper: "mcp_message"}, "mcp_message"},
		{"tools/call", `{"name":"register_player","arguments":` + register + `}`, protocol.Dialect{Wrapper: "tools/call"}, "tools/call"},
		// The specification's name is the spec dialect even where it is
		// also the message type in lower case.
		{"start_match", `{"message_type":"START_MATCH"}`, protocol.Dialect{}, "handle_game_invitation"},
	}
	for _, tt := range tests {
		in, ok := protocol.Route(tt.method, json.RawMessage(tt.params))
		if !ok {
			t.Fatalf("%s: not routed", tt.method)
		}
		got := protocol.DialectOf(in)
		if got != tt.want {
			t.Errorf("%s: dialect %+v, want %+v", tt.method, got, tt.want)
		}
		if form := got.FormIn(protocol.TypeGameInvitation); form.Method != tt.invitation {
			t.Errorf("%s: an invitation goes as %q, want %q", tt.method, form.Method, tt.invitation)
		}
	}
	if d := protocol.DialectIn(protocol.WithMCPTool(context.Background()), protocol.Inbound{Method: "register_player"}); d.Wrapper != "tools/call" {
		t.Errorf("a tool call the MCP SDK unwrapped: dialect %+v, want tools/call", d)
	}
}

// TestWrappedFormParams: the wrapped form carries the message as
// params.message, the MCP form as arguments of the spec's tool.
func TestWrappedFormParams(t *testing.T) {
	msg := map[string]any{"message_type": "CHOOSE_PARITY_CALL"}
	wrapped, _ := json.Marshal(protocol.Dialect{Wrapper: "handle_message"}.FormIn(protocol.TypeChooseParityCall).Params(msg))
	tool, _ := json.Marshal(protocol.Dialect{Wrapper: "tools/call"}.FormIn(protocol.TypeChooseParityCall).Params(msg))
	if string(wrapped) != `{"message":{"message_type":"CHOOSE_PARITY_CALL"}}` {
		t.Errorf("wrapped params %s", wrapped)
	}
	if string(tool) != `{"arguments":{"message_type":"CHOOSE_PARITY_CALL"},"name":"choose_parity"}` {
		t.Errorf("tools/call params %s", tool)
	}
}
