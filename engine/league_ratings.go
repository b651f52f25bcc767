package engine

// RecordedResults lists every result the league has, in schedule order,
// packed (16 bytes each). The list is the caller's, so it may be read after
// releasing whatever guards the league: a ratings fit takes a second at
// 1,000 players and must not hold up the league meanwhile.
func (l *League) RecordedResults() ResultList {
	out := ResultList{sched: l.sched.snapshot(), keys: make([]matchKey, 0, l.finished), states: make([]matchState, 0, l.finished),
		unusual: map[int]*Result{}}
	for r, round := range l.states {
		for k, st := range round {
			if st.status == noResult {
				continue
			}
			key := matchKey{round: int32(r), board: int32(k)}
			if st.status == resultUnusual {
				out.unusual[len(out.states)] = l.unusual[key]
			}
			out.keys = append(out.keys, key)
			out.states = append(out.states, st)
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
