package engine

import (
	"encoding/json"
	"fmt"
	"runtime"
	"testing"
)

// BenchmarkLeagueMemoryPerMatch plays the 19,900 results of a 200-player
// league, each event decoded from JSON as the journal and the network give
// them, and reports the heap the league keeps per match (schedule, match
// records, results and table together): 208 B with a map of records and a
// Result each (the schedule not counted), 83 B packed with the schedule
// rebuilt from the seed (its pairings are some 70).
//
//	go test -run '^$' -bench LeagueMemoryPerMatch ./engine
func BenchmarkLeagueMemoryPerMatch(b *testing.B) {
	const players = 200
	ids := make([]string, players)
	for i := range ids {
		ids[i] = fmt.Sprintf("P%03d", i+1)
	}
	rounds, err := RoundRobin(ids)
	if err != nil {
		b.Fatal(err)
	}
	var lines [][]byte // the match events, as JSON
	for _, r := range rounds {
		for _, p := range r.Matches {
			assigned, _ := json.Marshal(Event{Kind: EventMatchAssigned, MatchID: p.MatchID, Referee: "REF01"})
			result, _ := json.Marshal(Event{Kind: EventMatchResult, MatchID: p.MatchID, Result: &Result{MatchID: p.MatchID,
				Round: p.Round, PlayerA: p.PlayerA, PlayerB: p.PlayerB, Status: StatusWin, Winner: p.PlayerA}})
			lines = append(lines, assigned, result)
		}
	}
	matches := len(lines) / 2
	var perMatch float64
	for b.Loop() {
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		l := NewLeague("bench", DefaultScoring())
		for _, id := range ids {
			if err := l.Apply(Event{Kind: EventAgentRegistered, Agent: &AgentInfo{ID: id, Role: RolePlayer}}); err != nil {
				b.Fatal(err)
			}
		}
		_ = l.Apply(Event{Kind: EventAgentRegistered, Agent: &AgentInfo{ID: "REF01", Role: RoleReferee}})
		if err := l.Apply(Event{Kind: EventLeagueStarted, Start: &StartInfo{Seed: 1, Players: ids}}); err != nil {
			b.Fatal(err)
		}
		for _, line := range lines {
			var ev Event
			if err := json.Unmarshal(line, &ev); err != nil {
				b.Fatal(err)
			}
			if err := l.Apply(ev); err != nil {
				b.Fatal(err)
			}
		}
		runtime.GC()
		runtime.ReadMemStats(&after)
		perMatch = float64(after.HeapAlloc-before.HeapAlloc) / float64(matches)
		runtime.KeepAlive(l)
	}
	b.ReportMetric(perMatch, "B/match")
}

// BenchmarkApplyMatch is what a match costs the league as the manager
// drives it: the match looked up when assigned, when each of two steps
// comes and twice when its result comes, and its assignment, steps and
// result applied. Each op is one match of a 64-player round robin; a new
// league takes over, off the clock, when every match has its result.
//
//	go test -run '^$' -bench ApplyMatch -benchmem ./engine
func BenchmarkApplyMatch(b *testing.B) {
	var l *League
	var matches []Pairing
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		if len(matches) == 0 {
			b.StopTimer()
			l, matches = leagueToPlay(b, 64)
			b.StartTimer()
		}
		p := matches[0]
		matches = matches[1:]
		if err := playMatch(l, p); err != nil {
			b.Fatalf("match %d: %v", i, err)
		}
	}
}

// leagueToPlay is a started round robin of n players and one referee,
// and its matches in schedule order.
func leagueToPlay(b *testing.B, n int) (*League, []Pairing) {
	b.Helper()
	l := NewLeague("bench", DefaultScoring())
	ids := make([]string, n)
	for i := range ids {
		ids[i] = fmt.Sprintf("P%03d", i+1)
		if err := l.Apply(Event{Kind: EventAgentRegistered, Agent: &AgentInfo{ID: ids[i], Role: RolePlayer}}); err != nil {
			b.Fatal(err)
		}
	}
	if err := l.Apply(Event{Kind: EventAgentRegistered, Agent: &AgentInfo{ID: "REF01", Role: RoleReferee}}); err != nil {
		b.Fatal(err)
	}
	if err := l.Apply(Event{Kind: EventLeagueStarted, Start: &StartInfo{Seed: 1, Players: ids}}); err != nil {
		b.Fatal(err)
	}
	var matches []Pairing
	for _, r := range l.Rounds() {
		matches = append(matches, r.Matches...)
	}
	return l, matches
}

// playMatch applies a match's events as the manager does, looking the
// match up where the manager does.
func playMatch(l *League, p Pairing) error {
	if _, ok := l.Match(p.MatchID); !ok {
		return fmt.Errorf("no match %s", p.MatchID)
	}
	if err := l.Apply(Event{Seq: l.LastSeq() + 1, Kind: EventMatchAssigned, Round: p.Round, MatchID: p.MatchID, Referee: "REF01"}); err != nil {
		return err
	}
	for _, step := range []string{"choosing", p.PlayerA + " wins"} {
		l.Match(p.MatchID)
		if err := l.Apply(Event{Seq: l.LastSeq() + 1, Kind: EventMatchStep, Round: p.Round, MatchID: p.MatchID, Referee: "REF01", Step: step}); err != nil {
			return err
		}
	}
	l.Match(p.MatchID)
	l.Match(p.MatchID)
	r := Result{MatchID: p.MatchID, Round: p.Round, PlayerA: p.PlayerA, PlayerB: p.PlayerB, Status: StatusWin, Winner: p.PlayerA}
	return l.Apply(Event{Seq: l.LastSeq() + 1, Kind: EventMatchResult, Round: p.Round, MatchID: p.MatchID, Referee: "REF01", Result: &r})
}
