package engine

import (
	"fmt"
	"testing"
)

// silentRefereeLeague is the journal of a four-player league with three
// referees, started, to which the test adds assignments and results.
func silentRefereeLeague(t *testing.T) (*League, []Round) {
	t.Helper()
	players := []string{"P01", "P02", "P03", "P04"}
	var events []Event
	for _, id := range players {
		events = append(events, Event{Kind: EventAgentRegistered, Agent: &AgentInfo{ID: id, Role: RolePlayer, Endpoint: "http://p/" + id}})
	}
	for _, id := range []string{"REF01", "REF02", "REF03"} {
		events = append(events, Event{Kind: EventAgentRegistered, Agent: &AgentInfo{ID: id, Role: RoleReferee, Endpoint: "http://r/" + id}})
	}
	rounds, err := RoundRobin(players)
	if err != nil {
		t.Fatal(err)
	}
	events = append(events, Event{Kind: EventLeagueStarted, Start: &StartInfo{Seed: 1, GameType: "even_odd", Players: players, LegacyRounds: rounds}})
	return applyAll(t, events), rounds
}

func applyEach(t *testing.T, l *League, events ...Event) {
	t.Helper()
	for _, ev := range events {
		if err := l.Apply(ev); err != nil {
			t.Fatalf("%s %s: %v", ev.Kind, ev.MatchID, err)
		}
	}
}

// TestSilentReferee: a match assigned again while it runs is a miss of the
// referee it ran on; a report clears the referee's misses; a restart's
// interrupted matches are nobody's miss. After enough misses in a row the
// referee is to be suspended, and once it is, it is out of
// RefereesInPlay, until it registers again. The last referee in play is
// never suspended.
func TestSilentReferee(t *testing.T) {
	l, rounds := silentRefereeLeague(t)
	m1, m2, m3 := rounds[0].Matches[0], rounds[0].Matches[1], rounds[1].Matches[0]
	assign := func(p Pairing, ref string) Event {
		return Event{Kind: EventMatchAssigned, MatchID: p.MatchID, Round: p.Round, Referee: ref}
	}
	result := func(p Pairing) Event {
		return Event{Kind: EventMatchResult, MatchID: p.MatchID, Result: failedBy(p, "")}
	}

	applyEach(t, l, assign(m1, "REF01"), assign(m1, "REF02"))
	if got := l.MissedReports("REF01"); got != 1 || l.SilentReferee("REF01", 2) || !l.SilentReferee("REF01", 1) {
		t.Fatalf("after one miss: %d misses, silent at 2: %v", got, l.SilentReferee("REF01", 2))
	}
	applyEach(t, l, result(m1)) // REF02 reports
	applyEach(t, l, assign(m2, "REF01"), Event{Kind: EventRestarted}, assign(m2, "REF01"))
	if got := l.MissedReports("REF01"); got != 1 {
		t.Errorf("a match interrupted by a restart counted as a miss: %d misses, want 1", got)
	}
	applyEach(t, l, assign(m2, "REF03"))
	if got := l.MissedReports("REF01"); got != 2 || !l.SilentReferee("REF01", 2) || l.SilentReferee("REF01", 0) {
		t.Fatalf("after two misses in a row: %d misses, silent at 2: %v", got, l.SilentReferee("REF01", 2))
	}
	applyEach(t, l, Event{Kind: EventRefereeSuspended, AgentID: "REF01", Detail: "REF01 suspended"})
	if !l.Suspended("REF01") || l.SilentReferee("REF01", 2) || fmt.Sprint(ids(l.RefereesInPlay())) != "[REF02 REF03]" {
		t.Errorf("suspended %v, in play %v; want REF01 out", l.Suspended("REF01"), ids(l.RefereesInPlay()))
	}
	if _, row := l.Table.Row("REF01"); row {
		t.Error("a suspended referee got a standings row")
	}

	// REF03 reports and keeps no miss; REF02 misses twice but is the
	// last in play once REF03 is suspended too.
	applyEach(t, l, result(m2), assign(m3, "REF02"), assign(m3, "REF03"), assign(m3, "REF02"), assign(m3, "REF03"))
	if l.MissedReports("REF03") != 1 || l.MissedReports("REF02") != 2 {
		t.Fatalf("misses REF02 %d, REF03 %d; want 2 and 1", l.MissedReports("REF02"), l.MissedReports("REF03"))
	}
	applyEach(t, l, assign(m3, "REF02"))
	applyEach(t, l, Event{Kind: EventRefereeSuspended, AgentID: "REF03"})
	if l.SilentReferee("REF02", 2) {
		t.Error("the last referee in play is to be suspended")
	}
	if err := l.Apply(Event{Kind: EventRefereeSuspended, AgentID: "REF02"}); err == nil {
		t.Error("the last referee in play was suspended")
	}
	for _, bad := range []string{"REF01", "P01", "REF99", ""} {
		if err := l.Apply(Event{Kind: EventRefereeSuspended, AgentID: bad}); err == nil {
			t.Errorf("referee_suspended of %q applied", bad)
		}
	}

	// Registering again reinstates it with a clean record.
	applyEach(t, l, Event{Kind: EventAgentRegistered, Agent: &AgentInfo{ID: "REF01", Role: RoleReferee, Endpoint: "http://r/REF01b"}})
	if l.Suspended("REF01") || l.MissedReports("REF01") != 0 || len(l.RefereesInPlay()) != 2 {
		t.Errorf("after registering again: suspended %v, %d misses, in play %v", l.Suspended("REF01"), l.MissedReports("REF01"), ids(l.RefereesInPlay()))
	}
	if _, row := l.Table.Row("REF01"); row {
		t.Error("a reinstated referee got a standings row")
	}
}

func ids(agents []AgentInfo) []string {
	out := make([]string, len(agents))
	for i, a := range agents {
		out[i] = a.ID
	}
	return out
}
