package engine

import (
	"reflect"
	"testing"
)

// suspensionLeague is the journal of a four-player league in which P04
// fails three matches in a row and is suspended.
func suspensionLeague(t *testing.T) []Event {
	t.Helper()
	var events []Event
	for _, id := range []string{"P01", "P02", "P03", "P04"} {
		events = append(events, Event{Kind: EventAgentRegistered,
			Agent: &AgentInfo{ID: id, Role: RolePlayer, Endpoint: "http://127.0.0.1:1/" + id}})
	}
	rounds, err := RoundRobin([]string{"P01", "P02", "P03", "P04"})
	if err != nil {
		t.Fatal(err)
	}
	events = append(events, Event{Kind: EventLeagueStarted,
		Start: &StartInfo{Seed: 1, GameType: "even_odd", Players: []string{"P01", "P02", "P03", "P04"}, LegacyRounds: rounds}})
	for _, r := range rounds {
		for _, p := range r.Matches {
			events = append(events, Event{Kind: EventMatchResult, MatchID: p.MatchID, Result: failedBy(p, "P04")})
		}
	}
	return append(events, Event{Kind: EventPlayerSuspended, AgentID: "P04", Detail: "3 technical losses in a row"})
}

// failedBy is a technical loss of offender if it plays p, else a win of A.
func failedBy(p Pairing, offender string) *Result {
	r := &Result{MatchID: p.MatchID, Round: p.Round, PlayerA: p.PlayerA, PlayerB: p.PlayerB, Status: StatusWin, Winner: p.PlayerA}
	switch offender {
	case p.PlayerA:
		r.Status, r.Winner, r.Offenders = StatusTechnicalLoss, p.PlayerB, []string{offender}
	case p.PlayerB:
		r.Status, r.Winner, r.Offenders = StatusTechnicalLoss, p.PlayerA, []string{offender}
	}
	return r
}

func applyAll(t *testing.T, events []Event) *League {
	t.Helper()
	l := NewLeague("test", DefaultScoring())
	for i, ev := range events {
		ev.Seq = int64(i + 1)
		if err := l.Apply(ev); err != nil {
			t.Fatalf("event %d (%s): %v", i+1, ev.Kind, err)
		}
	}
	return l
}

func TestSuspensionTracksStreakAndStatus(t *testing.T) {
	l := applyAll(t, suspensionLeague(t))
	if !l.Suspended("P04") || l.FailureStreak("P04") != 3 {
		t.Errorf("P04: suspended %v, streak %d; want suspended after a streak of 3", l.Suspended("P04"), l.FailureStreak("P04"))
	}
	for _, id := range []string{"P01", "P02", "P03"} {
		if l.Suspended(id) || l.FailureStreak(id) != 0 {
			t.Errorf("%s: suspended %v, streak %d; want neither", id, l.Suspended(id), l.FailureStreak(id))
		}
	}
	row, _ := l.Table.Row("P04")
	if row.Status != PlayerSuspended || row.TechnicalLosses != 3 || row.Points != 0 {
		t.Errorf("P04's row = %+v, want SUSPENDED with 3 technical losses and 0 points", row)
	}
	if other, _ := l.Table.Row("P01"); other.Status != "" {
		t.Errorf("P01's row status = %q, want none", other.Status)
	}
}

func TestSuspensionReplaysToTheSameState(t *testing.T) {
	events := suspensionLeague(t)
	a, b := applyAll(t, events), applyAll(t, events)
	for _, id := range []string{"P01", "P02", "P03", "P04"} {
		if a.Suspended(id) != b.Suspended(id) || a.FailureStreak(id) != b.FailureStreak(id) {
			t.Errorf("%s differs between two replays", id)
		}
	}
	if !reflect.DeepEqual(a.Table.Rows(), b.Table.Rows()) {
		t.Errorf("standings differ between two replays:\n%+v\n%+v", a.Table.Rows(), b.Table.Rows())
	}
}

func TestRegisteringAgainReinstates(t *testing.T) {
	events := append(suspensionLeague(t), Event{Kind: EventAgentRegistered,
		Agent: &AgentInfo{ID: "P04", Role: RolePlayer, Endpoint: "http://127.0.0.1:1/P04"}})
	l := applyAll(t, events)
	if l.Suspended("P04") || l.FailureStreak("P04") != 0 {
		t.Errorf("P04 after registering again: suspended %v, streak %d; want reinstated with no streak",
			l.Suspended("P04"), l.FailureStreak("P04"))
	}
	if row, _ := l.Table.Row("P04"); row.Status != "" || row.TechnicalLosses != 3 {
		t.Errorf("P04's row = %+v, want no status and its 3 technical losses kept", row)
	}
	// Suspended again later: the event applies once more.
	if err := l.Apply(Event{Kind: EventPlayerSuspended, AgentID: "P04"}); err != nil || !l.Suspended("P04") {
		t.Errorf("second suspension: %v, suspended %v", err, l.Suspended("P04"))
	}
}

func TestStreakResetsOnAnyOtherResult(t *testing.T) {
	events := suspensionLeague(t)
	last := -1 // P04's last match
	for i, ev := range events {
		if ev.Kind == EventMatchResult && (ev.Result.PlayerA == "P04" || ev.Result.PlayerB == "P04") {
			last = i
		}
	}
	l := applyAll(t, events[:last])
	if got := l.FailureStreak("P04"); got != 2 {
		t.Fatalf("streak after two failures = %d, want 2", got)
	}
	ev := events[last]
	won := *ev.Result
	won.Status, won.Winner, won.Offenders = StatusWin, "P04", nil
	ev.Result = &won
	if err := l.Apply(ev); err != nil {
		t.Fatal(err)
	}
	if got := l.FailureStreak("P04"); got != 0 {
		t.Errorf("streak after a win = %d, want 0", got)
	}
}

func TestSuspensionRefused(t *testing.T) {
	l := applyAll(t, suspensionLeague(t))
	for _, ev := range []Event{
		{Kind: EventPlayerSuspended, AgentID: "P04"}, // already suspended
		{Kind: EventPlayerSuspended, AgentID: "P99"}, // not registered
		{Kind: EventPlayerSuspended, AgentID: ""},    // no id
	} {
		if err := l.Apply(ev); err == nil {
			t.Errorf("suspending %q applied, want an error", ev.AgentID)
		}
	}
}

// TestEndpointTakenOverKeepsItsNewHolder: an agent registering again from
// a new endpoint does not unmap its old one when another agent has taken
// it over meanwhile (restarted agents get free ports, reused).
func TestEndpointTakenOverKeepsItsNewHolder(t *testing.T) {
	l := NewLeague("l", DefaultScoring())
	register := func(id, endpoint string) {
		t.Helper()
		if err := l.Apply(Event{Kind: EventAgentRegistered, Agent: &AgentInfo{ID: id, Role: RolePlayer, Endpoint: endpoint}}); err != nil {
			t.Fatal(err)
		}
	}
	register("P01", "http://127.0.0.1:1/mcp")
	register("P02", "http://127.0.0.1:2/mcp")
	register("P02", "http://127.0.0.1:1/mcp") // P02 restarted on P01's old port
	register("P01", "http://127.0.0.1:3/mcp") // then P01 on a new one
	if a, ok := l.AgentAt("http://127.0.0.1:1/mcp"); !ok || a.ID != "P02" {
		t.Errorf("port 1 is %+v (found %v), want P02", a, ok)
	}
	if a, ok := l.AgentAt("http://127.0.0.1:3/mcp"); !ok || a.ID != "P01" {
		t.Errorf("port 3 is %+v (found %v), want P01", a, ok)
	}
	if _, ok := l.AgentAt("http://127.0.0.1:2/mcp"); ok {
		t.Error("port 2, which nobody has any more, is still mapped")
	}
}
