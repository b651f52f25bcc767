package hostile_test

import (
	"testing"
	"time"

	"github.com/leaguetui/leaguetui/agents/protocol"
	"github.com/leaguetui/leaguetui/internal/leaguetest"
	"github.com/leaguetui/leaguetui/league/process"
)

// TestUnauthenticatedLeagueCompleted: notify_league_completed changes an
// agent (it says SHUTDOWN on /health and a player saves its history), so
// each player and referee takes it from its own manager only, proved by
// the manager_key it was given at registration. Without it, with a
// made-up key or with the admin token it is refused (E011, E012), /health
// still says REGISTERED and nothing in the data folder changes; the
// manager's own, at the end of the league, is taken and every agent says
// SHUTDOWN.
func TestUnauthenticatedLeagueCompleted(t *testing.T) {
	t.Parallel()
	l := startLeague(t)
	agents := append(append([]*process.Child{}, l.players...), l.referees...)
	before := l.state(t)
	for _, a := range agents {
		for token, code := range map[string]string{"": "E011", "mk-guessed": "E012", adminToken: "E012"} {
			msg := leaguetest.With(leaguetest.Envelope("LEAGUE_COMPLETED", protocol.SenderManager), map[string]any{
				"league_id": leagueID, "total_rounds": 1, "total_matches": 1, "final_standings": []any{}})
			if token != "" {
				msg["auth_token"] = token
			}
			wantRefusal(t, leaguetest.Call(t, a.Endpoint, "notify_league_completed", msg), code, "notify_league_completed")
		}
		if state := health(t, a.Endpoint)["state"]; state != protocol.StateRegistered {
			t.Errorf("%s says %v on /health after the forged completions, want %s", a.ID, state, protocol.StateRegistered)
		}
	}
	before.unchanged(t, l)

	l.playsToTheEnd(t)
	for _, a := range agents {
		var state any
		for range 100 {
			if state = health(t, a.Endpoint)["state"]; state == protocol.StateShutdown {
				break
			}
			time.Sleep(100 * time.Millisecond) // the completion is posted after the journal says so
		}
		if state != protocol.StateShutdown {
			t.Errorf("%s says %v on /health after its manager's league completion, want %s", a.ID, state, protocol.StateShutdown)
		}
	}
}
