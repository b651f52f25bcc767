package player_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"path/filepath"
	"regexp"
	"testing"
	"time"

	"github.com/leaguetui/leaguetui/agents/player"
	"github.com/leaguetui/leaguetui/agents/protocol"
	"github.com/leaguetui/leaguetui/agents/store"
	"github.com/leaguetui/leaguetui/config"
	"github.com/leaguetui/leaguetui/internal/leaguetest"
)

const (
	playerID = "P07"
	token    = "tok-p07-test"
)

var specTimestamp = regexp.MustCompile(`^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$`)

// startPlayer runs a player in this process against a fake manager that
// accepts it as P07, and returns its /mcp URL and data folder.
func startPlayer(t *testing.T) (url, dataDir string) {
	t.Helper()
	return startPlayerWith(t, nil, 3)
}

// startPlayerWith is startPlayer with more fields in the manager's
// registration answer, and the strategy's seed.
func startPlayerWith(t *testing.T, registered map[string]any, seed int64) (url, dataDir string) {
	t.Helper()
	dataDir = t.TempDir()
	p := runPlayer(t, player.Options{Config: config.Default(), DataDir: dataDir, Port: 0, Name: "tester", Strategy: "random", Seed: seed},
		registered)
	return p.Endpoint(), dataDir
}

// runPlayer runs a player of opts in this process against a fake manager
// that accepts it as P07, with registered's fields in its answer; it is
// shut down when the test ends.
func runPlayer(t *testing.T, opts player.Options, registered map[string]any) *player.Player {
	t.Helper()
	manager := leaguetest.NewPeer(t, func(req leaguetest.PeerRequest) (int, []byte) {
		if req.Method == "register_player" {
			return http.StatusOK, leaguetest.ResultReply(req.ID, leaguetest.With(map[string]any{"protocol": "league.v2",
				"message_type": "LEAGUE_REGISTER_RESPONSE", "sender": "league_manager", "status": "ACCEPTED",
				"player_id": playerID, "auth_token": token, "league_id": "league_test"}, registered))
		}
		return http.StatusOK, leaguetest.ResultReply(req.ID, map[string]any{"status": "ok"})
	})
	opts.ManagerURL = manager.Endpoint
	p, err := player.New(opts)
	if err != nil {
		t.Fatal(err)
	}
	p.Stdout = io.Discard
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := p.Start(ctx); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		if err := p.Shutdown(ctx); err != nil {
			t.Errorf("shutdown: %v", err)
		}
	})
	return p
}

func gameMessage(messageType, matchID string, extra map[string]any) map[string]any {
	msg := leaguetest.With(leaguetest.Envelope(messageType, "referee:REF01"), map[string]any{
		"conversation_id": "conv-" + matchID, "league_id": "league_test", "round_id": 1, "match_id": matchID,
		"game_type": "even_odd", "auth_token": "tok-ref01"})
	return leaguetest.With(msg, extra)
}

// wrap puts a message in one of the forms peers send it in.
func wrap(form, method string, msg map[string]any) (string, any) {
	switch form {
	case "tools/call":
		return "tools/call", map[string]any{"name": method, "arguments": msg}
	case "mcp_message", "protocol/message", "handle_message":
		return form, map[string]any{"message": msg}
	case "league.handle":
		envelope, payload := map[string]any{}, map[string]any{}
		for k, v := range msg {
			switch k {
			case "protocol", "message_type", "sender", "timestamp", "conversation_id", "auth_token":
				envelope[k] = v
			default:
				payload[k] = v
			}
		}
		return form, map[string]any{"envelope": envelope, "payload": payload}
	}
	return method, msg
}

// replyMessage is the league message in a reply, unwrapping MCP content.
func replyMessage(t *testing.T, reply leaguetest.Reply) map[string]any {
	t.Helper()
	if reply.Error != nil {
		t.Fatalf("error reply: %s", reply.Body)
	}
	content, isTool := reply.Result["content"].([]any)
	if !isTool {
		return reply.Result
	}
	if reply.Result["isError"] != false || len(content) != 1 {
		t.Fatalf("MCP reply %s, want one content block and isError false", reply.Body)
	}
	text, _ := content[0].(map[string]any)["text"].(string)
	var msg map[string]any
	if err := json.Unmarshal([]byte(text), &msg); err != nil {
		t.Fatalf("content[0].text %q: %v", text, err)
	}
	return msg
}

// checkEnvelope requires the full envelope of a reply from P07.
func checkEnvelope(t *testing.T, msg map[string]any, messageType, conversation string) {
	t.Helper()
	want := map[string]any{"protocol": "league.v2", "message_type": messageType, "sender": "player:" + playerID,
		"conversation_id": conversation}
	for k, v := range want {
		if msg[k] != v {
			t.Errorf("reply %s = %v, want %v", k, msg[k], v)
		}
	}
	// Whoever asks may be posing as a referee: the token goes to the manager only.
	if got, present := msg["auth_token"]; present {
		t.Errorf("reply carries auth_token %v; a player's token must go to the manager only", got)
	}
	if ts, _ := msg["timestamp"].(string); !specTimestamp.MatchString(ts) {
		t.Errorf("reply timestamp %q, want %s", ts, specTimestamp)
	}
}

// TestPlayerServesEveryForm: a player joins and moves whatever method name
// or wrapper the referee uses (protocol.md §9 #1).
func TestPlayerServesEveryForm(t *testing.T) {
	url, _ := startPlayer(t)
	forms := []struct {
		form                 string // wrapper, or "" for the plain method
		inviteMethod, moveAs string
	}{
		{"", "handle_game_invitation", "choose_parity"},
		{"", "GAME_INVITATION", "CHOOSE_PARITY_CALL"},
		{"", "game_invitation", "parity_choose"},
		{"", "receive_game_invitation", "make_move"},
		{"tools/call", "handle_game_invitation", "choose_parity"},
		{"mcp_message", "mcp_message", "mcp_message"},
		{"protocol/message", "protocol/message", "protocol/message"},
		{"handle_message", "handle_message", "handle_message"},
		{"league.handle", "league.handle", "league.handle"},
	}
	for i, f := range forms {
		name := f.form
		if name == "" {
			name = f.inviteMethod + "+" + f.moveAs
		}
		t.Run(name, func(t *testing.T) {
			matchID := fmt.Sprintf("R1M%d", i+1)
			invitation := gameMessage("GAME_INVITATION", matchID, map[string]any{"role_in_match": "PLAYER_A", "opponent_id": "P08"})
			if f.form == "" && f.inviteMethod != "handle_game_invitation" {
				delete(invitation, "message_type") // the method alone must identify it
			}
			method, params := wrap(f.form, f.inviteMethod, invitation)
			ack := replyMessage(t, leaguetest.Call(t, url, method, params))
			checkEnvelope(t, ack, "GAME_JOIN_ACK", "conv-"+matchID)
			if ack["accept"] != true || ack["match_id"] != matchID || ack["player_id"] != playerID {
				t.Errorf("GAME_JOIN_ACK %v, want accept true for %s from %s", ack, matchID, playerID)
			}
			if ts, _ := ack["arrival_timestamp"].(string); !specTimestamp.MatchString(ts) {
				t.Errorf("arrival_timestamp %q", ts)
			}

			call := gameMessage("CHOOSE_PARITY_CALL", matchID, map[string]any{"player_id": playerID,
				"context":  map[string]any{"opponent_id": "P08", "round_id": 1, "your_standings": map[string]int{"wins": 0, "losses": 0, "draws": 0}},
				"deadline": time.Now().Add(30 * time.Second).UTC().Format("2006-01-02T15:04:05Z")})
			if f.form == "" && f.moveAs != "choose_parity" {
				delete(call, "message_type")
			}
			method, params = wrap(f.form, f.moveAs, call)
			first := replyMessage(t, leaguetest.Call(t, url, method, params))
			checkEnvelope(t, first, "CHOOSE_PARITY_RESPONSE", "conv-"+matchID)
			choice := first["parity_choice"]
			if choice != "even" && choice != "odd" || first["match_id"] != matchID {
				t.Errorf("CHOOSE_PARITY_RESPONSE %v, want even or odd for %s", first, matchID)
			}
			// A retried call gets the same move.
			again := replyMessage(t, leaguetest.Call(t, url, method, params))
			if again["parity_choice"] != choice {
				t.Errorf("asked again, the player changed its move from %v to %v", choice, again["parity_choice"])
			}
		})
	}

	t.Run("generic GAME_MOVE_CALL", func(t *testing.T) {
		call := gameMessage("GAME_MOVE_CALL", "R2M1", map[string]any{"player_id": playerID,
			"move_request": map[string]any{"move_type": "choose_parity", "valid_options": []string{"even", "odd"}}})
		resp := replyMessage(t, leaguetest.Call(t, url, "make_move", call))
		if c := resp["parity_choice"]; c != "even" && c != "odd" {
			t.Errorf("reply %v, want a parity", resp)
		}
	})
	t.Run("unknown method", func(t *testing.T) {
		if reply := leaguetest.Call(t, url, "frobnicate", map[string]any{}); reply.Error == nil || reply.Error.Code != -32601 {
			t.Errorf("reply %s, want -32601", reply.Body)
		}
	})
}

// TestPlayerHistory: GAME_OVER lands in history.json once, seen from the
// player's side.
func TestPlayerHistory(t *testing.T) {
	url, dir := startPlayer(t)
	leagueID := any("league_test")
	over := func(method, matchID, status string, winner any, choices map[string]string) {
		t.Helper()
		invitation := gameMessage("GAME_INVITATION", matchID, map[string]any{"role_in_match": "PLAYER_B", "opponent_id": "P02"})
		replyMessage(t, leaguetest.Call(t, url, "handle_game_invitation", invitation))
		msg := gameMessage("GAME_OVER", matchID, map[string]any{"game_result": map[string]any{"status": status,
			"winner_player_id": winner, "drawn_number": 8, "number_parity": "even", "choices": choices, "reason": "test"},
			"league_id": leagueID})
		ack := replyMessage(t, leaguetest.Call(t, url, method, msg))
		if ack["status"] != "ok" {
			t.Errorf("GAME_OVER ack %v, want status ok", ack)
		}
	}
	over("notify_match_result", "R1M1", "WIN", playerID, map[string]string{playerID: "even", "P02": "odd"})
	over("GAME_OVER", "R2M1", "WIN", "P02", map[string]string{playerID: "odd", "P02": "even"})
	over("game_over", "R3M1", "DRAW", nil, map[string]string{playerID: "even", "P02": "even"})
	over("notify_match_result", "R4M1", "TECHNICAL_LOSS", "P02", map[string]string{"P02": "even"})
	over("notify_match_result", "R1M1", "WIN", playerID, map[string]string{playerID: "even", "P02": "odd"}) // resent
	leagueID = nil                                                                                          // a GAME_OVER without league_id: the player records the league it registered with
	over("notify_match_result", "R5M1", "DRAW", nil, map[string]string{playerID: "odd", "P02": "odd"})
	// history.json is written at a bounded rate; LEAGUE_COMPLETED writes it before its ack.
	replyMessage(t, leaguetest.Call(t, url, "notify_league_completed", leaguetest.Envelope("LEAGUE_COMPLETED", "league_manager")))

	var h player.History
	if err := store.ReadJSON(filepath.Join(dir, "players", playerID, "history.json"), &h); err != nil {
		t.Fatal(err)
	}
	want := []struct{ match, result, mine, theirs string }{
		{"R1M1", "WIN", "even", "odd"},
		{"R2M1", "LOSS", "odd", "even"},
		{"R3M1", "DRAW", "even", "even"},
		{"R4M1", "TECHNICAL_LOSS", "", "even"},
		{"R5M1", "DRAW", "odd", "odd"},
	}
	if h.PlayerID != playerID || len(h.Matches) != len(want) {
		t.Fatalf("history of %q has %d matches, want %d for %s: %+v", h.PlayerID, len(h.Matches), len(want), playerID, h)
	}
	for i, w := range want {
		m := h.Matches[i]
		if m.MatchID != w.match || m.Result != w.result || m.MyChoice != w.mine || m.OpponentChoice != w.theirs || m.OpponentID != "P02" ||
			m.LeagueID != "league_test" {
			t.Errorf("history entry %d = %+v, want %s %s (mine %q, theirs %q) against P02", i, m, w.match, w.result, w.mine, w.theirs)
		}
	}
	if h.Stats.TotalMatches != 5 || h.Stats.Wins != 1 || h.Stats.Losses != 2 || h.Stats.Draws != 2 {
		t.Errorf("stats %+v, want 5 matches: 1 win, 2 losses (one technical), 2 draws", h.Stats)
	}
}

// TestPlayerNotifications: notifications are acknowledged, and
// LEAGUE_COMPLETED moves the player to SHUTDOWN.
func TestPlayerNotifications(t *testing.T) {
	url, _ := startPlayer(t)
	for _, method := range []string{"notify_round", "ROUND_ANNOUNCEMENT", "update_standings", "notify_round_completed",
		"notify_game_error", "GAME_ERROR", "notify_league_completed"} {
		msg := leaguetest.Envelope("", "league_manager")
		delete(msg, "message_type")
		reply := leaguetest.Call(t, url, method, msg)
		if ack := replyMessage(t, reply); ack["status"] != "ok" || ack["sender"] != "player:"+playerID {
			t.Errorf("%s: reply %s, want an ack with status ok from the player", method, reply.Body)
		}
	}
	resp, err := http.Get(url[:len(url)-len("/mcp")] + "/health")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var health protocol.Health
	if err := json.NewDecoder(resp.Body).Decode(&health); err != nil {
		t.Fatal(err)
	}
	if health.ID != playerID || health.State != protocol.StateShutdown {
		t.Errorf("health %+v, want %s in SHUTDOWN after LEAGUE_COMPLETED", health, playerID)
	}
}
