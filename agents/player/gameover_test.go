package player

import (
	"errors"
	"fmt"
	"testing"

	"github.com/leaguetui/leaguetui/agents/protocol"
	"github.com/leaguetui/leaguetui/agents/ticket"
)

// BenchmarkMatchBookkeeping: what a player does for a match besides
// decoding and answering its messages: check the ticket of the
// invitation, the move call and GAME_OVER, and record the result in the
// history (63 matches a history, a player's share of the bench's league).
func BenchmarkMatchBookkeeping(b *testing.B) {
	const key, league, matches = "tk-bench", "league_2025_even_odd", 63
	var door doorman
	door.admitted(&protocol.RegisterResponse{MatchTicketKey: key})
	overs := make([]protocol.GameOver, matches)
	for i := range overs {
		winner := "P01"
		over := protocol.GameOver{Envelope: protocol.NewEnvelope(protocol.TypeGameOver, protocol.RefereeSender("REF01"), "c"),
			GameType: "even_odd", GameResult: protocol.GameResult{Status: "WIN", WinnerPlayerID: &winner,
				Choices: map[string]string{"P01": "even", "P02": "odd"}, Reason: "the drawn number is even",
				Details: map[string]any{"drawn_number": 4.0, "number_parity": "even"}}}
		over.LeagueID, over.MatchID = league, fmt.Sprintf("R%dM1", i+1)
		over.AuthToken = ticket.Mint(key, league, over.MatchID, "REF01")
		overs[i] = over
	}
	b.ReportAllocs()
	var h History
	i := 0
	for b.Loop() {
		if i%matches == 0 {
			h = History{}
		}
		over := overs[i%matches]
		for _, messageType := range []string{protocol.TypeGameInvitation, protocol.TypeChooseParityCall, protocol.TypeGameOver} {
			env := over.Envelope
			env.MessageType = messageType
			if err := door.check(env, league); err != nil {
				b.Fatal(err)
			}
		}
		h.record("P01", "P02", over)
		door.forget(over.MatchID) // as handleGameOver does
		i++
	}
}

// TestDoormanRemembersOnlyWhatItChecked: a ticket the doorman has taken
// for a match passes again for that match, league and referee under the
// same key only; anything else is checked anew, and refused.
func TestDoormanRemembersOnlyWhatItChecked(t *testing.T) {
	const league = "league_test"
	var door doorman
	door.admitted(&protocol.RegisterResponse{MatchTicketKey: "tk-one"})
	call := func(matchID, sender, token, leagueID string) error {
		env := protocol.NewEnvelope(protocol.TypeChooseParityCall, sender, "c")
		env.MatchID, env.AuthToken, env.LeagueID = matchID, token, leagueID
		return door.check(env, league)
	}
	valid := ticket.Mint("tk-one", league, "R1M1", "REF01")
	refused := func(what string, err error) {
		t.Helper()
		if rej := (*protocol.LeagueError)(nil); !errors.As(err, &rej) || rej.ErrorCode != protocol.CodeAuthTokenInvalid {
			t.Errorf("%s: %v, want refused as an invalid ticket", what, err)
		}
	}
	if err := call("R1M1", "referee:REF01", valid, ""); err != nil {
		t.Fatalf("the real ticket: %v", err)
	}
	if err := call("R1M1", "referee:REF01", valid, league); err != nil {
		t.Errorf("the real ticket again: %v", err)
	}
	refused("from another referee", call("R1M1", "referee:REF02", valid, ""))
	refused("for another match", call("R1M2", "referee:REF01", valid, ""))
	refused("in another league", call("R1M1", "referee:REF01", valid, "league_other"))
	refused("another ticket", call("R1M1", "referee:REF01", valid[:len(valid)-1]+"0", ""))
	refused("from a player", call("R1M1", "player:REF01", valid, ""))
	door.forget("R1M1")
	if err := call("R1M1", "referee:REF01", valid, ""); err != nil {
		t.Errorf("the real ticket, once forgotten: %v", err)
	}
	door.admitted(&protocol.RegisterResponse{MatchTicketKey: "tk-two"})
	refused("under another key", call("R1M1", "referee:REF01", valid, ""))
}
