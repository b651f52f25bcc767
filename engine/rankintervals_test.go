package engine

import (
	"slices"
	"testing"
)

// TestRankIntervalsByHand checks rank intervals and tie groups on small
// cases counted by hand.
func TestRankIntervalsByHand(t *testing.T) {
	sure := func(pairs ...[2]string) func(a, b string) bool {
		return func(a, b string) bool { return slices.Contains(pairs, [2]string{a, b}) }
	}
	for _, c := range []struct {
		name string
		sure func(a, b string) bool
		want []RankInterval // Best, Worst, TieGroup of A, B, C, D
	}{
		// A and B equal, C and D equal, every pair across sure: two groups.
		{"two groups", sure([2]string{"A", "C"}, [2]string{"A", "D"}, [2]string{"B", "C"}, [2]string{"B", "D"}),
			[]RankInterval{{"A", 1, 2, 1, 0}, {"B", 1, 2, 1, 1}, {"C", 3, 4, 2, 2}, {"D", 3, 4, 2, 3}}},
		// A is surely above C and D, B above D: A 1-2, B 1-3, C 2-4, D
		// 3-4, each overlapping the next: one group, though A and D do
		// not overlap.
		{"a chain", sure([2]string{"A", "C"}, [2]string{"A", "D"}, [2]string{"B", "D"}),
			[]RankInterval{{"A", 1, 2, 1, 0}, {"B", 1, 3, 1, 1}, {"C", 2, 4, 1, 2}, {"D", 3, 4, 1, 3}}},
		// Every pair sure: each player its own rank and group.
		{"all sure", func(a, b string) bool { return a < b },
			[]RankInterval{{"A", 1, 1, 1, 0}, {"B", 2, 2, 2, 1}, {"C", 3, 3, 3, 2}, {"D", 4, 4, 4, 3}}},
		// Nothing sure: every rank, one group.
		{"nothing sure", sure(),
			[]RankInterval{{"A", 1, 4, 1, 0}, {"B", 1, 4, 1, 1}, {"C", 1, 4, 1, 2}, {"D", 1, 4, 1, 3}}},
		// Only D surely last: A, B, C 1-3 in group 1, D 4 in group 2.
		{"one sure last", sure([2]string{"A", "D"}, [2]string{"B", "D"}, [2]string{"C", "D"}),
			[]RankInterval{{"A", 1, 3, 1, 0}, {"B", 1, 3, 1, 1}, {"C", 1, 3, 1, 2}, {"D", 4, 4, 2, 3}}},
	} {
		if got := RankIntervalsFrom([]string{"A", "B", "C", "D"}, c.sure); !slices.Equal(got, c.want) {
			t.Errorf("%s: got %+v\nwant %+v", c.name, got, c.want)
		}
	}
}

// TestRankIntervalsOfAFit: over a real fit, each player's interval holds
// its rank by rating and counts the players whose likelihood of
// superiority over it (or its over them) reaches 97.5 %.
func TestRankIntervalsOfAFit(t *testing.T) {
	sim := simulate(t, FormatSpec{Format: FormatDoubleRoundRobin, GamesPerPair: 2}, twoPairs(), 4, nil)
	fit := FitRecorded(sim.l.PlayerIDs(), sim.l.RecordedResults(), RatingOptions{})
	intervals := RankIntervals(fit)
	for i, iv := range intervals {
		above, below := 0, 0
		for _, other := range fit.Players {
			if other.PlayerID == iv.PlayerID {
				continue
			}
			if fit.LOS(other.PlayerID, iv.PlayerID) > 0.975 {
				above++
			}
			if fit.LOS(iv.PlayerID, other.PlayerID) > 0.975 {
				below++
			}
		}
		if iv.Best != 1+above || iv.Worst != len(intervals)-below || iv.Best > i+1 || iv.Worst < i+1 {
			t.Errorf("%s, ranked %d: %d-%d, with %d surely above and %d surely below", iv.PlayerID, i+1, iv.Best, iv.Worst, above, below)
		}
	}
	t.Logf("%+v", intervals)
	if intervals[0].TieGroup != 1 || intervals[3].TieGroup != 2 {
		t.Errorf("400 Elo apart after 48 matches, not two tie groups: %+v", intervals)
	}
}

// BenchmarkRankIntervals is the rank intervals and tie groups of a fit of
// 100 and of 1,000 players (BenchmarkFitRatings' tables): every pair's
// difference, beside the fit they are read from. It reports ms per call.
//
//	go test -run '^$' -bench RankIntervals ./engine
func BenchmarkRankIntervals(b *testing.B) {
	for _, tc := range []struct {
		name            string
		players, rounds int
	}{{"rr100", 100, 0}, {"swiss1000x11", 1000, 11}} {
		b.Run(tc.name, func(b *testing.B) {
			ids, res := syntheticLeague(tc.players, tc.rounds)
			fit := FitRatings(ids, res, RatingOptions{})
			b.ResetTimer()
			for b.Loop() {
				RankIntervals(fit)
			}
			b.ReportMetric(float64(b.Elapsed().Microseconds())/1000/float64(b.N), "ms/call")
		})
	}
}
