package engine

// RecordedResults lists every result the league has, in schedule order.
// Results are never changed once recorded, so the caller may read them
// after releasing whatever guards the league: a ratings fit takes a second
// at 1,000 players and must not hold up the league meanwhile.
func (l *League) RecordedResults() []*Result {
	out := make([]*Result, 0, l.finished)
	for _, r := range l.Rounds {
		for _, p := range r.Matches {
			if res := l.matches[p.MatchID].Result; res != nil {
				out = append(out, res)
			}
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
