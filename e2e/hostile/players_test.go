package hostile_test

import (
	"context"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/leaguetui/leaguetui/engine"
	"github.com/leaguetui/leaguetui/internal/leaguetest"
	"github.com/leaguetui/leaguetui/league/control"
)

// startFullLeague is a real league waiting to start with two referees and
// four players whose strategies draw from seeded random numbers: a move
// call that reached a strategy would change every later move, and so the
// standings.
func startFullLeague(t *testing.T) *league {
	t.Helper()
	l := &league{dir: t.TempDir()}
	l.manager = leaguetest.StartManager(t, l.dir, adminToken, "--seed", "33", "--retry-delay", "50ms")
	l.ctl = control.New(l.manager.Endpoint, adminToken)
	for _, name := range []string{"REF01", "REF02"} {
		l.referees = append(l.referees, leaguetest.StartReferee(t, l.dir, l.manager.Endpoint, name))
	}
	for i, name := range []string{"P01", "P02", "P03", "P04"} {
		l.players = append(l.players, leaguetest.StartPlayer(t, l.dir, l.manager.Endpoint, name,
			"--strategy", "random", "--seed", fmt.Sprint(i+1)))
	}
	return l
}

// results are a finished league's matches by id, and its standings.
func finish(t *testing.T, l *league, after int64) (map[string]engine.Result, []string) {
	t.Helper()
	leaguetest.UntilCompleted(t, l.ctl, after, 3*time.Minute)
	all, _ := leaguetest.NextEvents(t, l.ctl, 0, time.Minute, engine.EventLeagueCompleted)
	results := map[string]engine.Result{}
	for _, ev := range all {
		if ev.Kind == engine.EventMatchResult {
			results[ev.MatchID] = *ev.Result
		}
	}
	standings, err := l.ctl.Standings(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	var rows []string
	for _, r := range standings.Standings {
		rows = append(rows, fmt.Sprintf("%d %s %dW %dD %dL %dTL %d", r.Rank, r.PlayerID, r.Wins, r.Draws, r.Losses, r.TechnicalLosses, r.Points))
	}
	return results, rows
}

// TestPlayersDefendThemselves: in the middle of a league, a stranger that
// calls a player's move tool is refused and learns no move; a forged
// invitation and a forged result (a technical loss for a match the
// player played) are refused; a referee of the league calling a player
// about a match it was not given is refused, with its own ticket or with
// the real referee's. Each leaves history.json, the match files, the
// standings and the feed as they were, and the league then completes with
// every match and the standings of the same seed's league nobody attacked.
func TestPlayersDefendThemselves(t *testing.T) {
	t.Parallel()
	quiet := startFullLeague(t)
	if err := quiet.ctl.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	l := startFullLeague(t)
	if err := l.ctl.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	played, cursor := leaguetest.NextEvents(t, l.ctl, 0, 2*time.Minute, engine.EventMatchResult)
	if err := l.ctl.Pause(context.Background()); err != nil {
		t.Fatal(err)
	}
	more, cursor := leaguetest.NextEvents(t, l.ctl, cursor, time.Minute, engine.EventPaused)
	played = append(played, more...)
	l.settled(t) // a match under way when the pause came finishes
	done := played[len(played)-1]
	for _, ev := range played {
		if ev.Kind == engine.EventMatchResult {
			done = ev
			break
		}
	}
	var referee string // the referee that ran the played match
	for _, ev := range played {
		if ev.Kind == engine.EventMatchAssigned && ev.MatchID == done.MatchID {
			referee = ev.Referee
		}
	}
	other := map[string]string{"REF01": "REF02", "REF02": "REF01"}[referee]
	victim, opponent := done.Result.PlayerA, done.Result.PlayerB
	if other == "" || victim == "" {
		t.Fatalf("no played match to attack: %+v", played)
	}
	endpoint := l.players[map[string]int{"P01": 0, "P02": 1, "P03": 2, "P04": 3}[victim]].Endpoint
	realTicket := leaguetest.MatchTicket(t, l.dir, leagueID, victim, done.MatchID, referee)
	before := l.state(t)

	call := func(messageType, sender, match, ticket string, extra map[string]any) map[string]any {
		msg := leaguetest.With(leaguetest.Envelope(messageType, "referee:"+sender), map[string]any{
			"league_id": leagueID, "round_id": done.Round, "match_id": match, "game_type": "even_odd", "player_id": victim})
		if ticket != "" {
			msg["auth_token"] = ticket
		}
		return leaguetest.With(msg, extra)
	}
	move := map[string]any{"context": map[string]any{"opponent_id": opponent, "round_id": done.Round}}
	invitation := map[string]any{"role_in_match": "PLAYER_A", "opponent_id": opponent}
	forgedLoss := map[string]any{"game_result": map[string]any{"status": "TECHNICAL_LOSS", "winner_player_id": opponent,
		"choices": map[string]string{opponent: "even"}, "reason": victim + " did not answer"}}
	attacks := []struct {
		name, method, code string
		msg                map[string]any
	}{
		{"a stranger asks for the next move", "choose_parity", "E011", call("CHOOSE_PARITY_CALL", referee, "R9M9", "", move)},
		{"a stranger asks with a made-up ticket", "choose_parity", "E012", call("CHOOSE_PARITY_CALL", referee, "R9M9", "mt-00", move)},
		{"a forged invitation", "handle_game_invitation", "E011", call("GAME_INVITATION", referee, "R9M9", "", invitation)},
		{"a forged result", "notify_match_result", "E011", call("GAME_OVER", referee, done.MatchID, "", forgedLoss)},
		{"a forged result with a made-up token", "notify_match_result", "E012",
			call("GAME_OVER", referee, done.MatchID, "tok-"+strings.Repeat("0", 64), forgedLoss)},
		{"another referee about the match, with its ticket of another match", "notify_match_result", "E012",
			call("GAME_OVER", other, done.MatchID, leaguetest.MatchTicket(t, l.dir, leagueID, victim, "R9M9", other), forgedLoss)},
		{"another referee about the match, with the real referee's ticket", "choose_parity", "E012",
			call("CHOOSE_PARITY_CALL", other, done.MatchID, realTicket, move)},
		{"the real ticket for another match", "choose_parity", "E012", call("CHOOSE_PARITY_CALL", referee, "R9M9", realTicket, move)},
	}
	for _, a := range attacks {
		reply := leaguetest.Call(t, endpoint, a.method, a.msg)
		t.Run(a.name, func(t *testing.T) { wantRefusal(t, reply, a.code, "ticket") })
		if strings.Contains(string(reply.Body), "parity_choice") || strings.Contains(string(reply.Body), `"accept"`) {
			t.Errorf("%s: the reply tells something: %s", a.name, reply.Body)
		}
	}
	// The same over MCP: the tool call is refused as a tool error.
	reply := leaguetest.Call(t, endpoint, "tools/call", map[string]any{"name": "choose_parity",
		"arguments": call("CHOOSE_PARITY_CALL", referee, "R9M9", "", move)})
	if content, _ := reply.Result["structuredContent"].(map[string]any); reply.Result["isError"] != true || content["error_code"] != "E011" {
		t.Errorf("choose_parity over MCP without a ticket: %s", reply.Body)
	}
	before.unchanged(t, l)

	if err := l.ctl.Resume(context.Background()); err != nil {
		t.Fatal(err)
	}
	results, standings := finish(t, l, cursor)
	quietResults, quietStandings := finish(t, quiet, 0)
	if !reflect.DeepEqual(results, quietResults) {
		t.Errorf("results differ from the same seed's league nobody attacked:\nattacked %+v\nquiet    %+v", results, quietResults)
	}
	if !reflect.DeepEqual(standings, quietStandings) {
		t.Errorf("standings differ from the same seed's league nobody attacked:\nattacked %v\nquiet    %v", standings, quietStandings)
	}
	for _, r := range results {
		if r.Status == engine.StatusTechnicalLoss {
			t.Errorf("match %s was a technical loss: %+v", r.MatchID, r)
		}
	}
	t.Logf("after %d refused attacks the league ended as the quiet one: %v", len(attacks)+1, standings)
}
