package protocol

import (
	"strings"
	"testing"
)

// A reply shaped like a request, as players of another implementation
// answer, is read as the message in its params; a request-shaped body
// without a league message is still no reply.
func TestParseReplyRequestShaped(t *testing.T) {
	got, err := ParseReply([]byte(`{"jsonrpc":"2.0","method":"game_join_ack","params":{"protocol":"league.v2","message_type":"GAME_JOIN_ACK","match_id":"R1M1","player_id":"P01","accept":true},"id":2}`))
	if err != nil || !strings.Contains(string(got), `"message_type":"GAME_JOIN_ACK"`) || strings.Contains(string(got), "jsonrpc") {
		t.Fatalf("ParseReply = %s, %v; want the params", got, err)
	}
	if got, err := ParseReply([]byte(`{"jsonrpc":"2.0","method":"ping","params":{"x":1},"id":2}`)); err == nil {
		t.Fatalf("ParseReply of a request without a league message = %s, want an error", got)
	}
}
