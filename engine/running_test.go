package engine

import (
	"errors"
	"fmt"
	"testing"
)

// startedLeague is a league of n players, started, nothing played yet.
func startedLeague(t *testing.T, n int) (*League, []Round) {
	t.Helper()
	var ids []string
	l := NewLeague("L", DefaultScoring())
	for i := 1; i <= n; i++ {
		id := fmt.Sprintf("P%02d", i)
		ids = append(ids, id)
		mustApply(t, l, Event{Kind: EventAgentRegistered, Agent: &AgentInfo{ID: id, Role: RolePlayer, Endpoint: id}})
	}
	mustApply(t, l, Event{Kind: EventAgentRegistered, Agent: &AgentInfo{ID: "REF01", Role: RoleReferee, Endpoint: "r"}})
	rounds, err := RoundRobin(ids)
	if err != nil {
		t.Fatal(err)
	}
	mustApply(t, l, Event{Kind: EventLeagueStarted, Start: &StartInfo{Players: ids, LegacyRounds: rounds}})
	return l, rounds
}

func mustApply(t *testing.T, l *League, ev Event) {
	t.Helper()
	if err := l.Apply(ev); err != nil {
		t.Fatal(err)
	}
}

func assigned(p Pairing) Event {
	return Event{Kind: EventMatchAssigned, Round: p.Round, MatchID: p.MatchID, Referee: "REF01"}
}

func drawn(p Pairing) Event {
	r := Result{MatchID: p.MatchID, Round: p.Round, PlayerA: p.PlayerA, PlayerB: p.PlayerB, Status: StatusDraw}
	return Event{Kind: EventMatchResult, Round: p.Round, MatchID: p.MatchID, Referee: "REF01", Result: &r}
}

// TestRunningFollowsAssignmentsAndResults: a match runs from its assignment
// to its result, and a round counts its running matches.
func TestRunningFollowsAssignmentsAndResults(t *testing.T) {
	l, rounds := startedLeague(t, 4)
	a, b := rounds[0].Matches[0], rounds[0].Matches[1]
	mustApply(t, l, assigned(a))
	mustApply(t, l, assigned(b))
	mustApply(t, l, assigned(b)) // given again: still one running match
	if !l.Running(a.MatchID) || l.RunningCount() != 2 {
		t.Fatalf("running %v, want %s and %s", l.RunningIDs(), a.MatchID, b.MatchID)
	}
	mustApply(t, l, drawn(a))
	done, running, total := l.RoundProgress(1)
	if l.Running(a.MatchID) || done != 1 || running != 1 || total != 2 {
		t.Errorf("after a result: running %v, round 1 %d done %d running of %d", l.RunningIDs(), done, running, total)
	}
	if l.CurrentRound() != 1 {
		t.Errorf("current round %d, want 1", l.CurrentRound())
	}
	mustApply(t, l, drawn(b))
	if l.CurrentRound() != 2 || !l.RoundDone(1) {
		t.Errorf("current round %d, round 1 done %v; want 2, true", l.CurrentRound(), l.RoundDone(1))
	}
}

// TestStopAbandonsRunningMatches: the stop ends the running matches, and
// nothing is assigned, stepped or reported after it.
func TestStopAbandonsRunningMatches(t *testing.T) {
	l, rounds := startedLeague(t, 4)
	a, b := rounds[0].Matches[0], rounds[0].Matches[1]
	mustApply(t, l, assigned(a))
	mustApply(t, l, Event{Kind: EventStopped})
	if l.RunningCount() != 0 {
		t.Fatalf("running after the stop: %v", l.RunningIDs())
	}
	if rec, _ := l.Match(a.MatchID); rec.Step != StepAbandoned {
		t.Errorf("step after the stop %q, want %q", rec.Step, StepAbandoned)
	}
	for _, ev := range []Event{drawn(a), assigned(b), {Kind: EventMatchStep, MatchID: a.MatchID, Step: "joined"}} {
		if err := l.Apply(ev); !errors.Is(err, ErrLeagueStopped) {
			t.Errorf("%s after the stop: %v, want ErrLeagueStopped", ev.Kind, err)
		}
	}
	if done, _ := l.Progress(); done != 0 {
		t.Errorf("%d results after the stop, want 0", done)
	}
}

// TestRestartEndsRunningMatches: after the manager restarts, matches that
// were running are not; assigned again, they run again.
func TestRestartEndsRunningMatches(t *testing.T) {
	l, rounds := startedLeague(t, 4)
	a := rounds[0].Matches[0]
	mustApply(t, l, assigned(a))
	mustApply(t, l, Event{Kind: EventRestarted})
	rec, _ := l.Match(a.MatchID)
	if l.Running(a.MatchID) || rec.Step != StepInterrupted {
		t.Fatalf("after the restart: running %v, step %q", l.RunningIDs(), rec.Step)
	}
	if _, running, _ := l.RoundProgress(1); running != 0 {
		t.Errorf("round 1 counts %d running after the restart", running)
	}
	mustApply(t, l, assigned(a))
	mustApply(t, l, drawn(a))
	if done, _ := l.Progress(); done != 1 || l.RunningCount() != 0 {
		t.Errorf("after replaying: %d done, running %v", done, l.RunningIDs())
	}
}
