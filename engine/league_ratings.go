package engine

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

// PlayerIDs lists the registered players' ids in registration order.
func (l *League) PlayerIDs() []string {
	out := make([]string, len(l.players))
	for i, a := range l.players {
		out[i] = a.ID
	}
	return out
}
