package engine

import (
	"cmp"
	"slices"
	"strings"
)

import "maps"

// RecordedResults lists every result the league has, in schedule order,
// packed (a byte for each scheduled match). The list is the caller's, so
// it may be read after releasing whatever guards the league: a ratings fit
// takes a second at 1,000 players and must not hold up the league
// meanwhile.
func (l *League) RecordedResults() ResultList {
	out := ResultList{sched: l.sched.snapshot(), outcomes: make([]uint8, 0, l.total), count: l.finished,
		unusual: maps.Clone(l.unusual)}
	for _, round := range l.states {
		for _, st := range round {
			out.outcomes = append(out.outcomes, st.outcome())
		}
	}
	return out
}

// PlayerIDs lists the registered players' ids in their natural order (SortIDs).
func (l *League) PlayerIDs() []string {
	out := make([]string, len(l.players))
	for i, a := range l.players {
		out[i] = a.ID
	}
	SortIDs(out)
	return out
}

// SortIDs puts ids in their natural order, shorter first (P09 before P10
// before P100), not in the order their agents registered: agents started
// at once register in any order, and a schedule or a ratings fit made from
// the list must be the same seed's whatever that order was (a fit's sums
// in another order differ in the last bits, enough to print -0 for +0).
func SortIDs(ids []string) {
	slices.SortFunc(ids, func(a, b string) int { return cmp.Or(cmp.Compare(len(a), len(b)), strings.Compare(a, b)) })
}
