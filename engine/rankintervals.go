package engine

import (
	"cmp"
	"slices"
)

// A player's rank interval is the ranks the fit cannot rule out: its best
// rank is 1 plus the players surely above it, its worst the number of
// players less those surely below it, "surely" meaning the 95 % interval
// of the difference of the two ratings excludes 0 (Δ > 1.96·SE(Δ), as
// AdjacentPair.Separated). A player without a rated game is sure of no
// one: its interval is every rank. The tests are pairwise, with no
// correction for their number, as leaderboards that show rank intervals
// from pairwise comparisons do.
//
// Players whose rank intervals overlap are tied; a tie group is a run of
// players joined by overlaps (A overlaps B and B overlaps C puts all three
// in one group, though A and C may not overlap), numbered 1 from the top.

// RankInterval is a player's best (lowest) and worst (highest) rank the
// fit allows, 1-based, and its tie group.
type RankInterval struct {
	PlayerID      string
	Best, Worst   int
	TieGroup      int
	ratingOrdinal int // place in the ranking by rating, to number the groups from the top
}

// RankIntervals is every player's rank interval and tie group, in the
// ranking by rating (RankByRating). It asks the fit for every pair's
// difference, O(players²).
func RankIntervals(r *Ratings) []RankInterval {
	ranked := RankByRating(r)
	ids := make([]string, len(ranked))
	for i, p := range ranked {
		ids[i] = p.PlayerID
	}
	surelyAbove := func(a, b string) bool {
		pa, _ := r.Rating(a)
		pb, _ := r.Rating(b)
		return pa.Rated && pb.Rated && pa.Elo-pb.Elo > z95*r.DifferenceSE(a, b)
	}
	return RankIntervalsFrom(ids, surelyAbove)
}

// RankIntervalsFrom is RankIntervals from the players in rating order and
// which of them is surely above which: what a hand-made case can give.
func RankIntervalsFrom(ids []string, surelyAbove func(a, b string) bool) []RankInterval {
	out := make([]RankInterval, len(ids))
	for i, a := range ids {
		above, below := 0, 0
		for _, b := range ids {
			if a == b {
				continue
			}
			if surelyAbove(b, a) {
				above++
			}
			if surelyAbove(a, b) {
				below++
			}
		}
		out[i] = RankInterval{PlayerID: a, Best: 1 + above, Worst: len(ids) - below, ratingOrdinal: i}
	}
	numberTieGroups(out)
	return out
}

// numberTieGroups sets each interval's tie group: the intervals taken by
// their best rank, a new group begins where one starts past the worst
// rank of all before it (the union of overlapping intervals ends there).
func numberTieGroups(intervals []RankInterval) {
	byBest := make([]*RankInterval, len(intervals))
	for i := range intervals {
		byBest[i] = &intervals[i]
	}
	slices.SortStableFunc(byBest, func(a, b *RankInterval) int {
		return cmp.Or(cmp.Compare(a.Best, b.Best), cmp.Compare(a.ratingOrdinal, b.ratingOrdinal))
	})
	group, reach := 0, 0
	for _, iv := range byBest {
		if iv.Best > reach {
			group++
		}
		iv.TieGroup, reach = group, max(reach, iv.Worst)
	}
}
