package manager_test

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/leaguetui/leaguetui/engine"
	"github.com/leaguetui/leaguetui/internal/leaguetest"
	"github.com/leaguetui/leaguetui/league/control"
)

// TestSuspendedPlayersForfeit runs a real manager with --suspend-after 1, a
// fake referee and four fake players. The referee reports both matches of
// round 1 as technical losses of their player A: those two are suspended,
// and every later match of theirs is scored at once without a referee, the
// one between the two of them as a double technical loss.
func TestSuspendedPlayersForfeit(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	mgr := leaguetest.StartManager(t, dir, adminToken, "--seed", "3", "--suspend-after", "1", "--retry-delay", "50ms")
	url := mgr.Endpoint
	started := make(chan string, 16)
	completed := make(chan struct{}, 5)
	ref := register(t, url, "referee", ackingPeer(t, started, completed).Endpoint)
	for range 4 {
		register(t, url, "player", ackingPeer(t, nil, completed).Endpoint)
	}
	ctl := control.New(url, adminToken)
	if err := ctl.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	events, cursor := leaguetest.NextEvents(t, ctl, 0, 30*time.Second, engine.EventLeagueStarted)
	rounds, err := events[len(events)-1].Start.Schedule()
	if err != nil {
		t.Fatal(err)
	}

	// Round 1: both matches are technical losses of player A. Of the four
	// later matches only the one between the other two players is played.
	var suspended []string
	for range len(rounds[0].Matches) + 1 {
		var id string
		select {
		case id = <-started:
		case <-time.After(30 * time.Second):
			t.Fatal("a match was not handed to the referee")
		}
		p := pairingOf(t, rounds, id)
		result := map[string]any{"winner": p.PlayerA, "status": "WIN", "score": map[string]int{p.PlayerA: 3, p.PlayerB: 0}}
		if p.Round == 1 {
			result = map[string]any{"winner": p.PlayerB, "status": "TECHNICAL_LOSS",
				"details": map[string]any{"technical_loss": true, "offending_player": p.PlayerA}}
			suspended = append(suspended, p.PlayerA)
		} else if slices.Contains(suspended, p.PlayerA) || slices.Contains(suspended, p.PlayerB) {
			t.Errorf("%s (%s vs %s) was handed to the referee with a suspended player", id, p.PlayerA, p.PlayerB)
		}
		msg := leaguetest.With(leaguetest.Envelope("MATCH_RESULT_REPORT", ref.sender), map[string]any{
			"auth_token": ref.token, "league_id": "league_2025_even_odd", "round_id": p.Round, "match_id": id,
			"game_type": "even_odd", "result": result,
		})
		if reply := leaguetest.Call(t, url, "report_match_result", msg); reply.String("message_type") != "MATCH_RESULT_ACK" {
			t.Fatalf("report of %s: %s", id, reply.Body)
		}
	}
	rest, _ := leaguetest.NextEvents(t, ctl, cursor, 60*time.Second, engine.EventLeagueCompleted)
	// LEAGUE_COMPLETED reaches every agent: the manager has nothing left
	// to deliver when the test ends and the fake agents close.
	for range 5 {
		select {
		case <-completed:
		case <-time.After(30 * time.Second):
			t.Fatal("LEAGUE_COMPLETED did not reach every agent")
		}
	}
	select {
	case id := <-started:
		t.Errorf("%s was handed to the referee too", id)
	default:
	}

	var gotSuspended []string
	forfeits := 0
	for _, ev := range rest {
		switch {
		case ev.Kind == engine.EventPlayerSuspended:
			gotSuspended = append(gotSuspended, ev.AgentID)
		case ev.Kind == engine.EventMatchResult && ev.Referee == "":
			forfeits++
			checkForfeit(t, *ev.Result, suspended)
		}
	}
	slices.Sort(suspended)
	slices.Sort(gotSuspended)
	if !slices.Equal(gotSuspended, suspended) || forfeits != 3 {
		t.Errorf("suspended %v, %d matches scored without a referee; want %v and 3", gotSuspended, forfeits, suspended)
	}
	doc, err := ctl.Standings(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range doc.Standings {
		isSuspended := slices.Contains(suspended, r.PlayerID)
		switch {
		case isSuspended && (r.Status != engine.PlayerSuspended || r.Played != 3 || r.TechnicalLosses != 3 || r.Points != 0):
			t.Errorf("suspended %s: %+v, want SUSPENDED, 3 played, 3 technical losses, 0 points", r.PlayerID, r)
		case !isSuspended && (r.Status != "" || r.Played != 3 || r.TechnicalLosses != 0 || r.Losses+r.Wins != 3):
			t.Errorf("%s: %+v, want 3 played, no technical loss, no status", r.PlayerID, r)
		}
	}
}

// checkForfeit checks a match scored because of suspensions: a technical
// loss of each suspended player in it, won by the other if there is one.
func checkForfeit(t *testing.T, r engine.Result, suspended []string) {
	t.Helper()
	var offenders []string
	winner := ""
	for _, p := range []string{r.PlayerA, r.PlayerB} {
		if slices.Contains(suspended, p) {
			offenders = append(offenders, p)
		} else {
			winner = p
		}
	}
	if len(offenders) == 2 {
		winner = ""
	}
	if r.Status != engine.StatusTechnicalLoss || !slices.Equal(r.Offenders, offenders) || r.Winner != winner {
		t.Errorf("%s (%s vs %s): %s, offenders %v, winner %q; want TECHNICAL_LOSS of %v, winner %q",
			r.MatchID, r.PlayerA, r.PlayerB, r.Status, r.Offenders, r.Winner, offenders, winner)
	}
}

func pairingOf(t *testing.T, rounds []engine.Round, matchID string) engine.Pairing {
	t.Helper()
	for _, r := range rounds {
		for _, p := range r.Matches {
			if p.MatchID == matchID {
				return p
			}
		}
	}
	t.Fatalf("no match %s in the schedule", matchID)
	return engine.Pairing{}
}
