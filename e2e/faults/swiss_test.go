package faults_test

import (
	"reflect"
	"testing"

	"github.com/leaguetui/leaguetui/engine"
)

// swissFormat is a Swiss league of the crash league's 5 players: 4 rounds
// of 2 matches and a bye.
var swissFormat = []string{"--format", "swiss", "--rounds", "4"}

// swissPlay is what two runs of a Swiss league of one seed must agree on:
// every round's pairings, in order, and every match's result.
type swissPlay struct {
	rounds  []engine.Round
	results map[string]engine.Result
}

func swissPlayOf(t *testing.T, events []engine.Event) swissPlay {
	t.Helper()
	play := swissPlay{results: map[string]engine.Result{}}
	for _, ev := range events {
		play.rounds = append(play.rounds, scheduledRounds(ev)...)
		if ev.Kind == engine.EventMatchResult {
			play.results[ev.MatchID] = engine.Result{MatchID: ev.Result.MatchID, Round: ev.Result.Round, PlayerA: ev.Result.PlayerA,
				PlayerB: ev.Result.PlayerB, Status: ev.Result.Status, Winner: ev.Result.Winner, Offenders: ev.Result.Offenders}
		}
	}
	if len(play.rounds) != 4 || len(play.results) != 8 {
		t.Errorf("%d rounds and %d results, want 4 and 8", len(play.rounds), len(play.results))
	}
	return play
}

// TestSwissResumeAfterManagerKill kills the manager with SIGKILL in the
// middle of a Swiss league's second round and starts it again on the same
// data folder: it replays the rounds already paired from its journal,
// pairs the later ones from the seed and the results, and the league gives
// the same pairings and results as an uninterrupted run of the same seed.
func TestSwissResumeAfterManagerKill(t *testing.T) {
	t.Parallel()
	first := startCrashLeague(t, swissFormat...)
	want := swissPlayOf(t, finishFeed(t, first.ctl, 0))
	stopManager(t, first.manager)

	l := startCrashLeague(t, swissFormat...)
	_, _, _ = l.inFlight(t, 0, "", 3) // round 2: paired, journaled, playing
	l.manager.Kill()
	l.manager = l.startManager(t)
	got := swissPlayOf(t, finishFeed(t, l.ctl, 0))
	stopManager(t, l.manager)
	if !reflect.DeepEqual(got.rounds, want.rounds) {
		t.Errorf("pairings after the restart:\n%+v\nuninterrupted:\n%+v", got.rounds, want.rounds)
	}
	if !reflect.DeepEqual(got.results, want.results) {
		t.Errorf("results after the restart differ:\n%+v\nuninterrupted:\n%+v", got.results, want.results)
	}
}
