package player

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/leaguetui/leaguetui/agents/protocol"
	"github.com/leaguetui/leaguetui/agents/ticket"
	"github.com/leaguetui/leaguetui/config"
)

// TestMatchHandlersKeepNothingOfTheBody: the match handlers registered
// with rpc.HandleBorrowing only borrow a request's body. What the player
// keeps of an invitation, a move call and a result (the opponent, the
// move, the ticket it checked, the history entry) is the same once the
// body's memory has been written over, as the server does with the next
// request.
func TestMatchHandlersKeepNothingOfTheBody(t *testing.T) {
	p := admittedPlayer(t)
	handlers := map[string]func(context.Context, protocol.Inbound) (any, error){protocol.TypeGameInvitation: p.handleInvitation,
		protocol.TypeChooseParityCall: p.handleMoveCall, protocol.TypeGameOver: p.handleGameOver}
	for _, msg := range matchMessages("R2M3") {
		body, err := json.Marshal(msg)
		if err != nil {
			t.Fatal(err)
		}
		in := protocol.Inbound{MessageType: msg.Header().MessageType, Body: body, Protocol: protocol.Version,
			ConversationID: msg.Header().ConversationID}
		if _, err := handlers[in.MessageType](context.Background(), in); err != nil {
			t.Fatalf("%s: %v", in.MessageType, err)
		}
		kept := keptOf(t, p)
		for i := range body {
			body[i] = '#'
		}
		if after := keptOf(t, p); after != kept {
			t.Fatalf("what the player kept of %s changed with its body:\nbefore %s\nafter  %s", in.MessageType, kept, after)
		}
	}
	if len(p.history.Matches) != 1 {
		t.Fatalf("the history holds %d matches after one GAME_OVER", len(p.history.Matches))
	}
}

// BenchmarkMatchMessagesServed is a match's three messages to a player
// (the invitation, the move call, the result) served over its /mcp route
// as a referee posts them, each op a match of its own.
func BenchmarkMatchMessagesServed(b *testing.B) {
	p := admittedPlayer(b)
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		for _, msg := range matchMessages(fmt.Sprintf("R%dM1", i+1)) {
			body, err := protocol.EncodeRequest(msg.Header().MessageType, msg, 1)
			if err != nil {
				b.Fatal(err)
			}
			w := httptest.NewRecorder()
			p.Server.ServeHTTP(w, httptest.NewRequest(http.MethodPost, "/mcp", bytes.NewReader(body)))
			if w.Code != http.StatusOK || bytes.Contains(w.Body.Bytes(), []byte(`"error"`)) {
				b.Fatalf("%s: %d %s", msg.Header().MessageType, w.Code, w.Body)
			}
		}
	}
}

const borrowKey, borrowLeague = "tk-borrow", "league_borrow"

// admittedPlayer is a player its manager has admitted with a ticket key,
// not listening: its handlers are called directly.
func admittedPlayer(tb testing.TB) *Player {
	tb.Helper()
	p, err := New(Options{Config: config.Default(), DataDir: tb.TempDir(), Name: "borrower", Strategy: "random", Seed: 5})
	if err != nil {
		tb.Fatal(err)
	}
	p.door.admitted(&protocol.RegisterResponse{MatchTicketKey: borrowKey})
	return p
}

// matchMessages are what referee REF01 sends the player about a match it
// plays against P02, with the match's ticket.
func matchMessages(match string) []protocol.Message {
	envelope := func(messageType string) protocol.Envelope {
		env := protocol.NewEnvelope(messageType, protocol.RefereeSender("REF01"), "conv-"+match)
		env.LeagueID, env.RoundID, env.MatchID = borrowLeague, 2, match
		env.AuthToken = ticket.Mint(borrowKey, borrowLeague, match, "REF01")
		return env
	}
	winner := "P02"
	return []protocol.Message{
		&protocol.GameInvitation{Envelope: envelope(protocol.TypeGameInvitation), GameType: "even_odd",
			RoleInMatch: protocol.RolePlayerA, OpponentID: "P02"},
		&protocol.MoveCall{Envelope: envelope(protocol.TypeChooseParityCall), GameType: "even_odd",
			Context: protocol.MoveContext{OpponentID: "P02", RoundID: 2}, Deadline: "2030-01-01T00:00:00Z"},
		&protocol.GameOver{Envelope: envelope(protocol.TypeGameOver), GameType: "even_odd",
			GameResult: protocol.GameResult{Status: "WIN", WinnerPlayerID: &winner, Choices: map[string]string{"P02": "odd"},
				Reason: "7 is odd", Details: map[string]any{"drawn_number": 7.0, "number_parity": "odd"}}},
	}
}

// keptOf is what the player holds of its matches, as text.
func keptOf(t *testing.T, p *Player) string {
	t.Helper()
	p.mu.Lock()
	defer p.mu.Unlock()
	history, err := json.Marshal(p.history)
	if err != nil {
		t.Fatal(err)
	}
	p.door.mu.Lock()
	defer p.door.mu.Unlock()
	return fmt.Sprintf("%s\nmoves %v\nopponents %v\ntickets %+v", history, p.moves, p.opponent, p.door.vouched)
}
