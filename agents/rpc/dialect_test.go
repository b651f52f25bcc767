package rpc_test

import (
	"context"
	"errors"
	"net/http"
	"slices"
	"sync/atomic"
	"testing"
	"time"

	"github.com/leaguetui/leaguetui/agents/protocol"
	"github.com/leaguetui/leaguetui/agents/rpc"
	"github.com/leaguetui/leaguetui/config"
)

const missingFields = `{"jsonrpc":"2.0","id":1,"error":{"code":-32000,"message":"Missing required fields: message_type, sender"}}`

// wrappedOnly answers like a peer that reads the league message only from
// params.message, whatever the method: a flat message is "missing fields"
// (HTTP 500, -32000), as protocol.md §1.2's handle_message peers do.
func wrappedOnly(_ *http.Request, _ string, params map[string]any) (int, string) {
	inner, ok := params["message"].(map[string]any)
	if !ok || inner["message_type"] == nil {
		return http.StatusInternalServerError, missingFields
	}
	return 200, result(`{"message":` + joinAck + `}`)
}

func choiceMsg() *protocol.MoveCall {
	msg := &protocol.MoveCall{Envelope: protocol.NewEnvelope(protocol.TypeChooseParityCall, "referee:REF01", "conv-r1m1-001"),
		PlayerID: "P01", GameType: "even_odd"}
	msg.MatchID = "R1M1"
	return msg
}

// TestClientFindsTheWrappedDialect: a -32000 naming missing fields makes
// the client try the wrapped form (once the flat form is refused, not the
// other flat names), and the peer's dialect is remembered for its other
// messages.
func TestClientFindsTheWrappedDialect(t *testing.T) {
	p := newPeer(t, wrappedOnly)
	c := newClient(fastRetry, config.Breaker{})
	var ack protocol.GameJoinAck
	if err := c.Do(context.Background(), rpc.Call{Endpoint: p.endpoint(), Message: invitationMsg(), Timeout: time.Second}, &ack); err != nil {
		t.Fatalf("Do: %v (peer saw %v)", err, p.seen())
	}
	if !ack.Accept || ack.PlayerID != "P01" {
		t.Errorf("ack = %+v, want the GAME_JOIN_ACK from result.message", ack)
	}
	if got, want := p.seen(), []string{"handle_game_invitation", "handle_message"}; !slices.Equal(got, want) {
		t.Errorf("methods tried = %v, want %v", got, want)
	}
	p.mu.Lock()
	inner, _ := p.params[1]["message"].(map[string]any)
	p.mu.Unlock()
	if inner["message_type"] != "GAME_INVITATION" || inner["match_id"] != "R1M1" {
		t.Errorf("params.message = %v, want the invitation", inner)
	}
	if d, ok := c.DialectOf(p.endpoint()); !ok || d.Wrapper != "handle_message" {
		t.Errorf("dialect remembered: %+v %v", d, ok)
	}
	// Another message type goes wrapped at once.
	if _, err := c.Send(context.Background(), rpc.Call{Endpoint: p.endpoint(), Message: choiceMsg(), Timeout: time.Second}); err != nil {
		t.Fatal(err)
	}
	if got := p.seen()[2:]; !slices.Equal(got, []string{"handle_message"}) {
		t.Errorf("the next message tried %v, want handle_message at once", got)
	}
}

// TestClientSpeaksTheLearnedDialect: a dialect learned from what the peer
// sent us (its registration) frames the very first call to it.
func TestClientSpeaksTheLearnedDialect(t *testing.T) {
	tests := []struct {
		dialect protocol.Dialect
		want    string
	}{
		{protocol.Dialect{Wrapper: "handle_message"}, "handle_message"},
		{protocol.Dialect{Wrapper: "protocol/message"}, "protocol/message"},
		{protocol.Dialect{Names: protocol.UpperNames}, "CHOOSE_PARITY_CALL"},
		{protocol.Dialect{Names: protocol.SnakeNames}, "choose_parity_call"},
		{protocol.Dialect{Wrapper: protocol.MethodToolsCall}, protocol.MethodToolsCall},
		{protocol.Dialect{}, "choose_parity"},
	}
	for _, tt := range tests {
		p := newPeer(t, func(_ *http.Request, method string, params map[string]any) (int, string) {
			if method != tt.want {
				return 200, methodNotFound
			}
			return 200, result(`{"status":"ok"}`)
		})
		c := newClient(fastRetry, config.Breaker{})
		c.Learn(p.endpoint(), tt.dialect)
		if _, err := c.Send(context.Background(), rpc.Call{Endpoint: p.endpoint(), Message: choiceMsg(), Timeout: time.Second}); err != nil {
			t.Errorf("%+v: %v", tt.dialect, err)
		}
		if got := p.seen(); !slices.Equal(got, []string{tt.want}) {
			t.Errorf("%+v: methods tried %v, want %s alone", tt.dialect, got, tt.want)
		}
	}
}

// TestClientFallbackErrors: -32602 naming missing fields moves on like
// -32601; an error that says something else is the peer's answer, and the
// most telling error is returned when no form works.
func TestClientFallbackErrors(t *testing.T) {
	tests := []struct {
		name      string
		reply     string
		wantTries int
	}{
		{"invalid params naming a missing field", `{"jsonrpc":"2.0","id":1,"error":{"code":-32602,"message":"Invalid params","data":{"missing":["message"]}}}`, 3},
		{"missing fields", missingFields, 3},
		{"another -32000", `{"jsonrpc":"2.0","id":1,"error":{"code":-32000,"message":"rate limited"}}`, 1},
		{"internal error", `{"jsonrpc":"2.0","id":1,"error":{"code":-32603,"message":"boom"}}`, 1},
	}
	for _, tt := range tests {
		p := newPeer(t, func(*http.Request, string, map[string]any) (int, string) { return 200, tt.reply })
		c := newClient(fastRetry, config.Breaker{})
		_, err := c.Send(context.Background(), rpc.Call{Endpoint: p.endpoint(), Message: choiceMsg(), Timeout: time.Second})
		var rpcErr *protocol.RPCError
		if !errors.As(err, &rpcErr) || rpcErr.Code == protocol.CodeMethodNotFound {
			t.Errorf("%s: err %v, want the peer's own error", tt.name, err)
		}
		// choose_parity, then (flat refused) handle_message and tools/call.
		if p.hits() != tt.wantTries {
			t.Errorf("%s: %d requests (%v), want %d", tt.name, p.hits(), p.seen(), tt.wantTries)
		}
	}
}

// TestClientDialectFollowsTheLastFormThatWorked: the dialect a client
// frames a peer's messages in first is the last it learned, from the peer
// or from a form that worked, also when that form was already known; and
// what a message was tried in before does not outlive a change of dialect.
func TestClientDialectFollowsTheLastFormThatWorked(t *testing.T) {
	var upperServed atomic.Bool // whether the peer takes CHOOSE_PARITY_CALL yet
	p := newPeer(t, func(_ *http.Request, method string, params map[string]any) (int, string) {
		inner, _ := params["message"].(map[string]any)
		switch {
		case method == "handle_message" && inner["message_type"] == protocol.TypeGameInvitation:
			return 200, result(`{"message":` + joinAck + `}`)
		case method == protocol.TypeChooseParityCall && upperServed.Load():
			return 200, result(`{"status":"ok"}`)
		}
		return 200, methodNotFound
	})
	c := newClient(config.Retry{Attempts: 1}, config.Breaker{})
	send := func(msg protocol.Message) ([]string, error) {
		before := p.hits()
		_, err := c.Send(context.Background(), rpc.Call{Endpoint: p.endpoint(), Message: msg, Timeout: time.Second})
		return p.seen()[before:], err
	}
	dialect := func() protocol.Dialect {
		d, ok := c.DialectOf(p.endpoint())
		if !ok {
			t.Fatal("no dialect known")
		}
		return d
	}
	// Refused in every form: tried in the usual order, and learns nothing.
	if tried, err := send(choiceMsg()); err == nil || tried[0] != "choose_parity" {
		t.Fatalf("a refused call: tried %v, %v; want choose_parity first and an error", tried, err)
	}
	if tried, err := send(invitationMsg()); err != nil || tried[len(tried)-1] != "handle_message" {
		t.Fatalf("invitation: tried %v, %v; want handle_message to work", tried, err)
	}
	if d := dialect(); d.Wrapper != "handle_message" {
		t.Fatalf("dialect after the invitation: %+v", d)
	}
	upperServed.Store(true)
	c.Learn(p.endpoint(), protocol.Dialect{Names: protocol.UpperNames})
	if tried, err := send(choiceMsg()); err != nil || !slices.Equal(tried, []string{protocol.TypeChooseParityCall}) {
		t.Fatalf("after learning upper-case names: tried %v, %v; want CHOOSE_PARITY_CALL at once", tried, err)
	}
	// The invitation's known form works again: its dialect is the peer's again.
	if tried, err := send(invitationMsg()); err != nil || !slices.Equal(tried, []string{"handle_message"}) {
		t.Fatalf("invitation again: tried %v, %v; want handle_message at once", tried, err)
	}
	if d := dialect(); d.Wrapper != "handle_message" {
		t.Errorf("dialect after the invitation's known form worked again: %+v, want handle_message", d)
	}
	if tried, err := send(choiceMsg()); err != nil || !slices.Equal(tried, []string{protocol.TypeChooseParityCall}) {
		t.Errorf("the choice again: tried %v, %v; want its known form at once", tried, err)
	}
	if d := dialect(); d.Names != protocol.UpperNames || d.Wrapper != "" {
		t.Errorf("dialect after the choice's known form worked again: %+v, want upper-case names", d)
	}
}
