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
// is then; LEAGUE_COMPLETED runs the hook and moves the node to SHUTDOWN.
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
		{"", protocol.TypeLeagueCompleted, "player:P07"},
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
	if completed.Load() != 1 || n.State() != protocol.StateShutdown {
		t.Errorf("after LEAGUE_COMPLETED: hook ran %d times, state %s; want once, %s", completed.Load(), n.State(), protocol.StateShutdown)
	}
}

// post sends one notification as a JSON-RPC request and decodes the Ack.
func post(t *testing.T, endpoint, messageType, conversation string) protocol.Ack {
	t.Helper()
	body := fmt.Appendf(nil, `{"jsonrpc":"2.0","method":"notify","id":1,"params":{"protocol":"league.v2",`+
		`"message_type":%q,"sender":"league_manager","timestamp":"2025-01-15T10:00:00Z","conversation_id":%q,"round_id":1}}`,
		messageType, conversation)
	resp, err := http.Post(endpoint, "application/json", bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var reply struct {
		Result protocol.Ack `json:"result"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&reply); err != nil {
		t.Fatal(err)
	}
	return reply.Result
}
