package engine

import (
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// TestPackedResults: every result a match can have comes back from the
// league as it was given (after compactResult), packed or, for the
// unusual ones, kept whole; RecordedResults lists them in schedule order.
func TestPackedResults(t *testing.T) {
	l, rounds := startedLeague(t, 4)
	p := func(r, k int) Pairing { return rounds[r].Matches[k] }
	res := func(p Pairing, status Status, winner string, offenders ...string) Result {
		return Result{MatchID: p.MatchID, Round: p.Round, PlayerA: p.PlayerA, PlayerB: p.PlayerB, Status: status, Winner: winner, Offenders: offenders}
	}
	given := []Result{
		res(p(0, 0), StatusWin, p(0, 0).PlayerA),
		res(p(0, 1), StatusWin, p(0, 1).PlayerB),
		res(p(1, 0), StatusDraw, ""),
		res(p(1, 1), StatusTechnicalLoss, p(1, 1).PlayerA, p(1, 1).PlayerB),
		res(p(2, 0), StatusTechnicalLoss, "", p(2, 0).PlayerA, p(2, 0).PlayerB),
		res(p(2, 1), "FORFEIT", p(2, 1).PlayerA), // unusual: kept whole
	}
	for _, r := range given {
		mustApply(t, l, Event{Kind: EventMatchAssigned, MatchID: r.MatchID, Referee: "REF01"})
		mustApply(t, l, Event{Kind: EventMatchResult, Result: &r})
	}
	listed := l.RecordedResults()
	all := slices.Collect(listed.All())
	if listed.Len() != len(given) || len(all) != len(given) {
		t.Fatalf("%d results listed (%d counted), want %d", len(all), listed.Len(), len(given))
	}
	for i, want := range given {
		rec, ok := l.Match(want.MatchID)
		if !ok || rec.Result == nil || !reflect.DeepEqual(*rec.Result, want) || rec.Referee != "REF01" || rec.Step != "finished" {
			t.Errorf("match %s: %+v (result %+v), want %+v by REF01", want.MatchID, rec, rec.Result, want)
		}
		if got := all[i]; !reflect.DeepEqual(got, want) {
			t.Errorf("result %d listed as %+v, want %+v", i, got, want)
		}
	}
	for _, odd := range []Result{
		res(p(0, 0), StatusWin, "P99"),                                          // a winner not in the match
		res(p(0, 0), StatusTechnicalLoss, "", p(0, 0).PlayerB, p(0, 0).PlayerA), // offenders out of seat order
		res(p(0, 0), StatusTechnicalLoss, "", p(0, 0).PlayerA, p(0, 0).PlayerA), // twice
		{MatchID: p(0, 0).MatchID, Round: 7, PlayerA: p(0, 0).PlayerA, PlayerB: p(0, 0).PlayerB, Status: StatusDraw},
	} {
		if _, ok := packResult(odd, rounds[0].Matches[0]); ok {
			t.Errorf("%+v packed: it would not come back as given", odd)
		}
	}
}

// TestMatchIDsOfAnotherForm: a schedule whose match ids do not name their
// place (R<round>M<k>) is found all the same, and an id that names a place
// holding another match is not that match.
func TestMatchIDsOfAnotherForm(t *testing.T) {
	l := NewLeague("L", DefaultScoring())
	for _, id := range []string{"A", "B", "C", "D"} {
		mustApply(t, l, Event{Kind: EventAgentRegistered, Agent: &AgentInfo{ID: id, Role: RolePlayer, Endpoint: id}})
	}
	rounds := []Round{{Number: 1, Matches: []Pairing{
		{MatchID: "first", Round: 1, PlayerA: "A", PlayerB: "B"},
		{MatchID: "R1M1", Round: 1, PlayerA: "C", PlayerB: "D"}, // names the place of "first"
	}}}
	mustApply(t, l, Event{Kind: EventLeagueStarted, Start: &StartInfo{Players: []string{"A", "B", "C", "D"}, LegacyRounds: rounds}})
	for _, want := range rounds[0].Matches {
		rec, ok := l.Match(want.MatchID)
		if !ok || rec.Pairing != want {
			t.Errorf("match %s found as %+v (%v)", want.MatchID, rec.Pairing, ok)
		}
	}
	if _, ok := l.Match("R1M2"); ok {
		t.Error("R1M2 found in a schedule without it")
	}
	mustApply(t, l, Event{Kind: EventMatchAssigned, MatchID: "R1M1", Referee: "X"})
	if ids := l.RunningIDs(); len(ids) != 1 || ids[0] != "R1M1" || !l.Running("R1M1") || l.Running("first") {
		t.Errorf("running %v after assigning R1M1", ids)
	}
}

// TestStartRebuildsTheSchedule: a league_started without its rounds (as
// journals are written now) gives the same league as one carrying them (as
// older journals do), in every format.
func TestStartRebuildsTheSchedule(t *testing.T) {
	ids := players(7)
	for _, spec := range []*FormatSpec{nil, {Format: FormatDoubleRoundRobin}, {Format: FormatSwiss, Rounds: 3},
		{Format: FormatGauntlet, Challengers: []string{"P02"}, GamesPerPair: 2}} {
		var specValue FormatSpec
		if spec != nil {
			specValue = *spec
		}
		carried, planned, err := Schedule(specValue, ids, 42)
		if err != nil {
			t.Fatal(err)
		}
		leagues := [2]*League{}
		for i, start := range []StartInfo{
			{Seed: 42, Players: ids, Format: spec, LegacyRounds: carried, RoundsPlanned: planned},
			{Seed: 42, Players: ids, Format: spec, RoundsPlanned: planned},
		} {
			l := NewLeague("L", DefaultScoring())
			for _, id := range ids {
				mustApply(t, l, Event{Kind: EventAgentRegistered, Agent: &AgentInfo{ID: id, Role: RolePlayer, Endpoint: id}})
			}
			mustApply(t, l, Event{Kind: EventLeagueStarted, Start: &start})
			leagues[i] = l
		}
		name := fmt.Sprintf("%+v", spec)
		if !reflect.DeepEqual(leagues[0].Rounds(), leagues[1].Rounds()) || !reflect.DeepEqual(leagues[1].Rounds(), carried) {
			t.Errorf("%s: rebuilt %v, carried %v", name, leagues[1].Rounds(), leagues[0].Rounds())
		}
		if leagues[0].PlannedRounds() != leagues[1].PlannedRounds() {
			t.Errorf("%s: %d rounds planned rebuilt, %d carried", name, leagues[1].PlannedRounds(), leagues[0].PlannedRounds())
		}
	}
}

// TestNewStartInfo: the start a manager journals carries no rounds in its
// JSON, and the league read back from that JSON has the rounds it was
// made with; a start whose schedule cannot be made leaves the league as
// it was.
func TestNewStartInfo(t *testing.T) {
	ids := players(6)
	for i, spec := range []FormatSpec{{Format: FormatRoundRobin}, {Format: FormatSwiss, Rounds: 3}, {Format: FormatRoundRobin, GamesPerPair: 2}} {
		start, err := NewStartInfo(spec, "even_odd", ids, 5)
		if err != nil {
			t.Fatal(err)
		}
		made, _ := start.Schedule()
		line, err := json.Marshal(Event{Kind: EventLeagueStarted, Start: start})
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(string(line), `"rounds":[`) || (start.Format == nil) != (i == 0) {
			t.Errorf("%+v journaled as %s", spec, line)
		}
		var ev Event
		if err := json.Unmarshal(line, &ev); err != nil {
			t.Fatal(err)
		}
		l := NewLeague("L", DefaultScoring())
		mustApply(t, l, ev)
		if !reflect.DeepEqual(l.Rounds(), made) {
			t.Errorf("%+v: read back with rounds %v, made with %v", spec, l.Rounds(), made)
		}
	}
	if _, err := NewStartInfo(FormatSpec{Format: FormatGauntlet, Challengers: []string{"P99"}}, "even_odd", ids, 5); err == nil {
		t.Error("a gauntlet of an unknown challenger was started")
	}
	l := NewLeague("L", DefaultScoring())
	bad := &StartInfo{Players: ids, Format: &FormatSpec{Format: FormatGauntlet, Challengers: []string{"P99"}}}
	if err := l.Apply(Event{Kind: EventLeagueStarted, Start: bad}); err == nil || l.State != LeagueWaiting {
		t.Errorf("a start without a schedule applied (%v), the league %s", err, l.State)
	}
}
