package engine

import (
	"fmt"
	"testing"
)

// BenchmarkDecidingFourGroups measures --until-decided on the 16 players
// of BenchmarkSeparatingFourGroups (4 groups of 4 equal players, 200 Elo
// apart), after one double round robin (240 matches), margin 100 Elo and
// a limit of 2,160 extra matches: the matches until the league stops by
// itself, in each of 9 seeds, and the verdicts it stopped with (a pair
// within a group should be equivalent, one across groups separated). It
// reports the median matches (matches_until_decided), the seeds that
// stopped before the limit (stopped_seeds) and the wrong verdicts over
// all seeds (wrong_verdicts: a pair of equal players separated, or of
// unequal ones equivalent).
//
//	go test ./engine -run '^$' -bench DecidingFourGroups -benchtime 1x
func BenchmarkDecidingFourGroups(b *testing.B) {
	const limit = 240 * 9
	strengths := fourGroups()
	for range b.N {
		var matches []int
		stopped, wrong := 0, 0
		for seed := int64(1); seed <= 9; seed++ {
			s := simulate(b, FormatSpec{Format: FormatDoubleRoundRobin, UntilDecided: limit}, strengths, seed, nil)
			st, _ := s.l.SeparationStatus()
			bad := 0
			for _, v := range st.Verdicts {
				equal := strengths[v.Above] == strengths[v.Below]
				if equal && v.Verdict == VerdictSeparated || !equal && v.Verdict == VerdictEquivalent {
					bad++
				}
			}
			if st.Unsure == 0 {
				stopped++
			}
			matches, wrong = append(matches, s.matches), wrong+bad
			fmt.Printf("seed %d: %d matches; %s; %d wrong verdicts\n", seed, s.matches, s.l.StopWhy(), bad)
		}
		b.ReportMetric(float64(median(matches)), "matches_until_decided")
		b.ReportMetric(float64(stopped), "stopped_seeds")
		b.ReportMetric(float64(wrong), "wrong_verdicts")
	}
}
