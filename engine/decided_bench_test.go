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
// unequal ones equivalent). It then prints the same for the rules it is
// measured against: the sequential test with the next match chosen by the
// widest interval (--until-separated's choice), and the 95 % interval
// looked at after every result, uncorrected.
//
//	go test ./engine -run '^$' -bench DecidingFourGroups -benchtime 1x
func BenchmarkDecidingFourGroups(b *testing.B) {
	for range b.N {
		median, stopped, wrong := decideFourGroups(b, true)
		b.ReportMetric(float64(median), "matches_until_decided")
		b.ReportMetric(float64(stopped), "stopped_seeds")
		b.ReportMetric(float64(wrong), "wrong_verdicts")
	}
	furthest := decidedKey
	decidedKey = func(p AdjacentPair) float64 { return p.Width }
	median, stopped, wrong := decideFourGroups(b, false)
	fmt.Printf("sequential test, the widest interval chosen: median %d matches, %d seeds stopped, %d wrong verdicts\n", median, stopped, wrong)
	decidedKey, decidedSequentially = furthest, false
	median, stopped, wrong = decideFourGroups(b, false)
	fmt.Printf("the 95 %% interval at every look, uncorrected: median %d matches, %d seeds stopped, %d wrong verdicts\n", median, stopped, wrong)
	decidedSequentially = true
}

// decideFourGroups plays the 9 seeds, printing each when told to: the
// median matches, the seeds that stopped by themselves, the wrong
// verdicts.
func decideFourGroups(b *testing.B, print bool) (med, stopped, wrong int) {
	const limit = 240 * 9
	strengths := fourGroups()
	var matches []int
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
		stopped += b2i(st.Unsure == 0)
		matches, wrong = append(matches, s.matches), wrong+bad
		if print {
			fmt.Printf("seed %d: %d matches; %s; %d wrong verdicts\n", seed, s.matches, s.l.StopWhy(), bad)
		}
	}
	return median(matches), stopped, wrong
}
