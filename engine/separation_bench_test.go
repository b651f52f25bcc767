package engine

import (
	"fmt"
	"testing"
)

// fourGroups is 16 players in 4 groups of 4 of equal strength, 200 Elo
// between groups: P01–P04 the strongest.
func fourGroups() map[string]float64 {
	s := map[string]float64{}
	for i, id := range players(16) {
		s[id] = float64(3-i/4) * 200
	}
	return s
}

// groupsSeparated reports whether the league's ranking puts every group in
// its block of four and separates (AdjacentPair.Unsure) the three pairs
// across groups.
func groupsSeparated(l *League) bool {
	fit := FitRecorded(l.PlayerIDs(), l.RecordedResults(), RatingOptions{})
	strengths := fourGroups()
	pairs := AdjacentPairs(fit)
	ranked := RankByRating(fit)
	for i, p := range ranked {
		if strengths[p.PlayerID] != float64(3-i/4)*200 {
			return false
		}
	}
	for _, p := range pairs {
		if p.Rank%4 == 0 && p.Unsure() {
			return false
		}
	}
	return true
}

// BenchmarkSeparatingFourGroups measures, for 16 players of 4 known
// strengths, the matches a plain double round robin played over and over
// needs before the four groups are separated, against a double round
// robin followed by --until-separated, and by the rule it does not use
// (the pair whose interval reaches furthest past 0). It reports the
// median over seeds (matches_plain, matches_until_separated,
// matches_largest_overlap) and prints each seed's.
//
//	go test ./engine -run '^$' -bench SeparatingFourGroups -benchtime 1x
func BenchmarkSeparatingFourGroups(b *testing.B) {
	const limit = 10 // double round robins at most: 2,400 matches
	for range b.N {
		var plain, sep, overlap []int
		for seed := int64(1); seed <= 9; seed++ {
			p := simulate(b, FormatSpec{Format: FormatDoubleRoundRobin, GamesPerPair: limit}, fourGroups(), seed, func(l *League) bool { return l.finished%8 == 0 && groupsSeparated(l) })
			s := simulate(b, FormatSpec{Format: FormatDoubleRoundRobin, UntilSeparated: 240 * (limit - 1)}, fourGroups(), seed,
				func(l *League) bool { return l.RoundCount() > 30 && l.finished%8 == 0 && groupsSeparated(l) })
			separationKey = func(p AdjacentPair) float64 { return p.Overlap }
			o := simulate(b, FormatSpec{Format: FormatDoubleRoundRobin, UntilSeparated: 240 * (limit - 1)}, fourGroups(), seed,
				func(l *League) bool { return l.RoundCount() > 30 && l.finished%8 == 0 && groupsSeparated(l) })
			separationKey = func(p AdjacentPair) float64 { return p.Width }
			plain, sep, overlap = append(plain, p.matches), append(sep, s.matches), append(overlap, o.matches)
			fmt.Printf("seed %d: plain double round robins %s; double round robin + until-separated %s; by the largest overlap %s\n",
				seed, needed(p), needed(s), needed(o))
		}
		b.ReportMetric(float64(median(overlap)), "matches_largest_overlap")
		b.ReportMetric(float64(median(plain)), "matches_plain")
		b.ReportMetric(float64(median(sep)), "matches_until_separated")
	}
}

// needed says how many matches a run took to separate the groups, or that
// it did not within its limit.
func needed(s simulated) string {
	if groupsSeparated(s.l) {
		return fmt.Sprintf("%d matches", s.matches)
	}
	return fmt.Sprintf("not within %d matches", s.matches)
}

func median(xs []int) int {
	s := append([]int(nil), xs...)
	for i := range s {
		for j := i + 1; j < len(s); j++ {
			if s[j] < s[i] {
				s[i], s[j] = s[j], s[i]
			}
		}
	}
	return s[len(s)/2]
}
