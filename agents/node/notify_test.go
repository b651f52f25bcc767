package node

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"sync/atomic"
	"testing"

	"github.com/leaguetui/leaguetui/agents/protocol"
)

// TestAcknowledgeNotifications posts broadcasts to a listening node, as
// the manager does, before and after it registers: each is acknowledged
// with its own _ACK type, its conversation, and the node's sender as it
// is then. LEAGUE_COMPLETED, with the key its manager gave it and only
// with it, runs the hook and moves the node to SHUTDOWN.
func TestAcknowledgeNotifications(t *testing.T) {
	n := listeningNode(t, "127.0.0.1", "")
	var completed atomic.Int32
	n.LeagueCompleted = func() { completed.Add(1) }
	n.AcknowledgeNotifications(protocol.TypeRoundAnnouncement, protocol.TypeStandingsUpdate)
	tests := []struct {
		register            string // the id to register as first, if any
		messageType, sender string
	}{
		{"", protocol.TypeRoundAnnouncement, "player:alpha"},
		{"P07", protocol.TypeStandingsUpdate, "player:P07"},
		{"", protocol.TypeRoundAnnouncement, "player:P07"},
	}
	for i, tt := range tests {
		if tt.register != "" {
			n.SetIdentity(tt.register, "token")
		}
		conversation := fmt.Sprintf("conv-%d", i)
		ack := post(t, n.Endpoint(), tt.messageType, conversation)
		if ack.MessageType != tt.messageType+"_ACK" || ack.ConversationID != conversation || ack.Sender != tt.sender ||
			ack.Status != "ok" || ack.Protocol != protocol.Version {
			t.Errorf("%s got %+v, want %s_ACK from %s in %s", tt.messageType, ack, tt.messageType, tt.sender, conversation)
		}
	}
	// LEAGUE_COMPLETED changes the node: it is taken with the key its
	// manager gave it, and refused without it, before anything changes.
	n.manager.set("mk-test-key")
	n.SetState(protocol.StateRegistered)
	for token, code := range map[string]string{"": protocol.CodeAuthTokenMissing, "mk-guessed": protocol.CodeAuthTokenInvalid} {
		reply := postWith(t, n.Endpoint(), protocol.TypeLeagueCompleted, "conv-forged", token)
		if reply.ErrorCode != code || completed.Load() != 0 || n.State() != protocol.StateRegistered {
			t.Errorf("LEAGUE_COMPLETED with auth_token %q: %+v, hook ran %d times, state %s; want refused with %s, nothing changed",
				token, reply, completed.Load(), n.State(), code)
		}
	}
	if ack := postWith(t, n.Endpoint(), protocol.TypeLeagueCompleted, "conv-done", "mk-test-key"); ack.MessageType != "LEAGUE_COMPLETED_ACK" {
		t.Errorf("LEAGUE_COMPLETED with the manager's key: %+v, want its ack", ack)
	}
	if completed.Load() != 1 || n.State() != protocol.StateShutdown {
		t.Errorf("after LEAGUE_COMPLETED: hook ran %d times, state %s; want once, %s", completed.Load(), n.State(), protocol.StateShutdown)
	}
}

// post sends one notification as a JSON-RPC request and decodes the Ack.
func post(t *testing.T, endpoint, messageType, conversation string) protocol.Ack {
	t.Helper()
	return postWith(t, endpoint, messageType, conversation, "").Ack
}

// reply is an Ack or a league error, as the result of a notification.
type reply struct {
	protocol.Ack
	ErrorCode string `json:"error_code"`
}

// postWith sends one notification with authToken, if any, and decodes
// its result.
func postWith(t *testing.T, endpoint, messageType, conversation, authToken string) reply {
	t.Helper()
	body := fmt.Appendf(nil, `{"jsonrpc":"2.0","method":"notify","id":1,"params":{"protocol":"league.v2",`+
		`"message_type":%q,"sender":"league_manager","timestamp":"2025-01-15T10:00:00Z","conversation_id":%q,"round_id":1,"auth_token":%q}}`,
		messageType, conversation, authToken)
	resp, err := http.Post(endpoint, "application/json", bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var out struct {
		Result reply `json:"result"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&out); err != nil {
		t.Fatal(err)
	}
	return out.Result
}
