package engine

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// BenchmarkFitRatings fits tables of the sizes a league reaches: a
// 100-player round robin (4,950 games), 1,000 players after 11 Swiss-like
// rounds of random pairs (5,500 games) and a 1,000-player round robin
// (499,500 games). Stronger players (by index) win more often, so the
// ratings spread as a real league's do. It reports milliseconds per fit.
//
//	go test -run '^$' -bench FitRatings ./engine
func BenchmarkFitRatings(b *testing.B) {
	for _, tc := range []struct {
		name    string
		players int
		rounds  int // 0: a whole round robin
	}{{"rr100", 100, 0}, {"swiss1000x11", 1000, 11}, {"rr1000", 1000, 0}} {
		b.Run(tc.name, func(b *testing.B) {
			ids, res := syntheticLeague(tc.players, tc.rounds)
			b.ResetTimer()
			for b.Loop() {
				FitRatings(ids, res, RatingOptions{})
			}
			b.ReportMetric(float64(b.Elapsed().Milliseconds())/float64(b.N), "ms/fit")
			b.ReportMetric(float64(len(res)), "games")
		})
	}
}

// syntheticLeague plays either every pair once (rounds 0) or rounds of
// random pairs, player i beating player j with the Elo expectation of a
// 2-Elo-per-index gap.
func syntheticLeague(players, rounds int) ([]string, []Result) {
	ids := make([]string, players)
	for i := range ids {
		ids[i] = fmt.Sprintf("P%04d", i+1)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	var res []Result
	play := func(i, j int) {
		r := Result{MatchID: fmt.Sprint(len(res)), PlayerA: ids[i], PlayerB: ids[j], Status: StatusWin, Winner: ids[j]}
		if x := rng.Float64(); x < EloExpected(float64(2*(i-j)))-0.1 {
			r.Winner = ids[i]
		} else if x < EloExpected(float64(2*(i-j)))+0.1 {
			r.Status, r.Winner = StatusDraw, ""
		}
		res = append(res, r)
	}
	if rounds == 0 {
		for i := range players {
			for j := i + 1; j < players; j++ {
				play(i, j)
			}
		}
		return ids, res
	}
	for range rounds {
		order := rng.Perm(players)
		for k := 0; k+1 < players; k += 2 {
			play(order[k], order[k+1])
		}
	}
	return ids, res
}

// BenchmarkFitRecorded is the manager's fit of a 1,000-player round robin
// with all its 499,500 results: the league's packed results snapshot
// (RecordedResults) and the fit over it, as the manager runs them. -benchmem
// gives what the two allocate together.
//
//	go test -run '^$' -bench FitRecorded -benchmem ./engine
func BenchmarkFitRecorded(b *testing.B) {
	ids, res := syntheticLeague(1000, 0)
	l := NewLeague("bench", DefaultScoring())
	for _, id := range ids {
		if err := l.Apply(Event{Kind: EventAgentRegistered, Agent: &AgentInfo{ID: id, Role: RolePlayer}}); err != nil {
			b.Fatal(err)
		}
	}
	if err := l.Apply(Event{Kind: EventLeagueStarted, Start: &StartInfo{Seed: 1, Players: ids}}); err != nil {
		b.Fatal(err)
	}
	outcome := make(map[[2]string]Result, len(res))
	for _, r := range res {
		outcome[[2]string{r.PlayerA, r.PlayerB}] = r
	}
	for _, round := range l.Rounds() {
		for _, p := range round.Matches {
			r := outcome[[2]string{p.PlayerA, p.PlayerB}]
			r.MatchID, r.Round = p.MatchID, p.Round
			if err := l.Apply(Event{Kind: EventMatchResult, Result: &r}); err != nil {
				b.Fatal(err)
			}
		}
	}
	clear(outcome)
	b.ResetTimer()
	for b.Loop() {
		FitRecorded(l.PlayerIDs(), l.RecordedResults(), RatingOptions{})
	}
	b.ReportMetric(float64(b.Elapsed().Milliseconds())/float64(b.N), "ms/fit")
}
