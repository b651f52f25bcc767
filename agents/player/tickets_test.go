package player_test

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/leaguetui/leaguetui/agents/player"
	"github.com/leaguetui/leaguetui/agents/store"
	"github.com/leaguetui/leaguetui/agents/ticket"
	"github.com/leaguetui/leaguetui/internal/leaguetest"
)

const ticketKey = "tk-test-key"

// ticketed is gameMessage from sender with the ticket the manager holding
// ticketKey gives the referee ticketFor of matchFor.
func ticketed(messageType, matchID, sender, ticketFor, matchFor string, extra map[string]any) map[string]any {
	msg := gameMessage(messageType, matchID, extra)
	msg["sender"] = sender
	msg["auth_token"] = ticket.Mint(ticketKey, "league_test", matchFor, ticketFor)
	return msg
}

// TestPlayerTakesMatchCallsOnlyWithItsTicket: a player whose manager gave
// it a ticket key answers an invitation, a move call or a result only with
// the ticket of that match and of the referee sending it, in every form a
// referee may use; anything else is refused (E011, E012) and changes
// neither its history nor its strategy.
func TestPlayerTakesMatchCallsOnlyWithItsTicket(t *testing.T) {
	url, dir := startPlayerWith(t, map[string]any{"match_ticket_key": ticketKey}, 5)
	twin, _ := startPlayerWith(t, nil, 5) // the same strategy and seed, never attacked

	draw := map[string]any{"game_result": map[string]any{"status": "DRAW", "winner_player_id": nil,
		"choices": map[string]string{playerID: "even", "P02": "even"}}}
	move := map[string]any{"context": map[string]any{"opponent_id": "P02", "round_id": 1}}
	forgeries := map[string]map[string]any{
		"no ticket":                     gameMessage("CHOOSE_PARITY_CALL", "R1M1", move),
		"the referee's token":           leaguetest.With(gameMessage("CHOOSE_PARITY_CALL", "R1M1", move), map[string]any{"auth_token": "tok-ref01"}),
		"another referee's ticket":      ticketed("CHOOSE_PARITY_CALL", "R1M1", "referee:REF02", "REF01", "R1M1", move),
		"another match's ticket":        ticketed("CHOOSE_PARITY_CALL", "R1M1", "referee:REF01", "REF01", "R1M2", move),
		"a ticket from a player":        ticketed("CHOOSE_PARITY_CALL", "R1M1", "player:P02", "P02", "R1M1", move),
		"a forged invitation":           ticketed("GAME_INVITATION", "R1M1", "referee:REF02", "REF01", "R1M1", nil),
		"a forged result":               ticketed("GAME_OVER", "R1M1", "referee:REF02", "REF01", "R1M1", draw),
		"a forged result without any":   gameMessage("GAME_OVER", "R1M1", draw),
		"a ticket of another league":    leaguetest.With(ticketed("GAME_OVER", "R1M1", "referee:REF01", "REF01", "R1M1", draw), map[string]any{"league_id": "league_other"}),
		"a forged result, as MCP tools": ticketed("GAME_OVER", "R1M1", "referee:REF03", "REF01", "R1M1", draw),
	}
	methods := map[string]string{"CHOOSE_PARITY_CALL": "choose_parity", "GAME_INVITATION": "handle_game_invitation", "GAME_OVER": "notify_match_result"}
	refuseForgeries := func(when string) {
		t.Helper()
		for name, msg := range forgeries {
			form := ""
			if name == "a forged result, as MCP tools" {
				form = "tools/call"
			}
			method, params := wrap(form, methods[msg["message_type"].(string)], msg)
			reply := leaguetest.Call(t, url, method, params)
			code := reply.String("error_code")
			if content, ok := reply.Result["structuredContent"].(map[string]any); ok {
				code, _ = content["error_code"].(string)
			}
			want := "E012"
			if _, has := msg["auth_token"]; !has {
				want = "E011"
			}
			if code != want {
				t.Errorf("%s, %s: %s, want refused with %s", when, name, reply.Body, want)
			}
		}
	}
	refuseForgeries("before any real call")
	history := filepath.Join(dir, "players", playerID, "history.json")
	if _, err := os.Stat(history); !os.IsNotExist(err) {
		t.Errorf("history.json after refused calls only: %v, want none", err)
	}

	// The real referee of each match is answered in every form, and the
	// moves are the untouched twin's: the refused calls drew nothing.
	for i := 1; i <= 6; i++ {
		match := fmt.Sprintf("R%dM1", i)
		inv := ticketed("GAME_INVITATION", match, "referee:REF01", "REF01", match, map[string]any{"role_in_match": "PLAYER_A", "opponent_id": "P02"})
		form := []string{"", "tools/call", "handle_message"}[i%3]
		method, params := wrap(form, "handle_game_invitation", inv)
		if ack := replyMessage(t, leaguetest.Call(t, url, method, params)); ack["accept"] != true {
			t.Errorf("%s: invitation %v, want accepted", match, ack)
		}
		call := ticketed("CHOOSE_PARITY_CALL", match, "referee:REF01", "REF01", match, move)
		method, params = wrap(form, "choose_parity", call)
		got := replyMessage(t, leaguetest.Call(t, url, method, params))["parity_choice"]
		want := replyMessage(t, leaguetest.Call(t, twin, "choose_parity", gameMessage("CHOOSE_PARITY_CALL", match, move)))["parity_choice"]
		if got != want || got == nil {
			t.Errorf("%s: moved %v, the untouched twin %v", match, got, want)
		}
	}
	// R1M1's real ticket has been taken (the player remembers it, so as not
	// to recompute it for each call): the forgeries about R1M1 are no
	// closer to passing.
	refuseForgeries("after the real calls")
	over := ticketed("GAME_OVER", "R1M1", "referee:REF01", "REF01", "R1M1", draw)
	if ack := replyMessage(t, leaguetest.Call(t, url, "notify_match_result", over)); ack["status"] != "ok" {
		t.Errorf("the real result: %v", ack)
	}
	replyMessage(t, leaguetest.Call(t, url, "notify_league_completed", leaguetest.Envelope("LEAGUE_COMPLETED", "league_manager")))
	var h player.History
	if err := store.ReadJSON(history, &h); err != nil {
		t.Fatal(err)
	}
	if len(h.Matches) != 1 || h.Matches[0].MatchID != "R1M1" || h.Matches[0].Result != "DRAW" {
		t.Errorf("history %+v, want the one real result: R1M1 a draw", h.Matches)
	}
}
