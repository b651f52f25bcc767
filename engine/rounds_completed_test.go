package engine

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// TestRoundsCompletedFollowsResults: RoundsCompleted, kept as results
// arrive, always equals the number of leading rounds RoundDone reports,
// whatever order the results come in.
func TestRoundsCompletedFollowsResults(t *testing.T) {
	var ids []string
	for i := 1; i <= 6; i++ {
		ids = append(ids, fmt.Sprintf("P%02d", i))
	}
	rounds, err := RoundRobin(ids)
	if err != nil {
		t.Fatal(err)
	}
	l := NewLeague("L", DefaultScoring())
	for _, id := range ids {
		if err := l.Apply(Event{Kind: EventAgentRegistered, Agent: &AgentInfo{ID: id, Role: RolePlayer, Endpoint: id}}); err != nil {
			t.Fatal(err)
		}
	}
	if err := l.Apply(Event{Kind: EventLeagueStarted, Start: &StartInfo{Players: ids, LegacyRounds: rounds}}); err != nil {
		t.Fatal(err)
	}
	var pairings []Pairing
	for _, r := range rounds {
		pairings = append(pairings, r.Matches...)
	}
	rand.New(rand.NewPCG(1, 2)).Shuffle(len(pairings), func(i, j int) { pairings[i], pairings[j] = pairings[j], pairings[i] })
	for _, p := range pairings {
		r := Result{MatchID: p.MatchID, Round: p.Round, PlayerA: p.PlayerA, PlayerB: p.PlayerB, Status: StatusDraw}
		if err := l.Apply(Event{Kind: EventMatchResult, MatchID: p.MatchID, Result: &r}); err != nil {
			t.Fatal(err)
		}
		want := 0
		for want < len(rounds) && l.RoundDone(want+1) {
			want++
		}
		if got := l.RoundsCompleted(); got != want {
			t.Fatalf("after %s: RoundsCompleted %d, want %d", p.MatchID, got, want)
		}
	}
	if got := l.RoundsCompleted(); got != len(rounds) {
		t.Errorf("RoundsCompleted %d at the end, want %d", got, len(rounds))
	}
}
