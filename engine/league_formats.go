package engine

import (
	"fmt"
	"slices"
)

// Format is the league's format and its parameters.
func (l *League) Format() FormatSpec {
	if l.format.Format == "" {
		return FormatSpec{Format: FormatRoundRobin}
	}
	return l.format
}

// PlannedRounds is how many rounds the league will have: more than
// len(Rounds) while a Swiss league's later rounds are still to be paired,
// and an SPRT's games are still to be played (until it decides).
func (l *League) PlannedRounds() int {
	if l.sprtDecided() {
		return l.RoundCount()
	}
	return max(l.planned, l.RoundCount())
}

// NextRound pairs the league's next round when it is due: a Swiss league
// whose scheduled rounds all have results and that has rounds left. ok is
// false when no round is due. The round comes from the seed and the
// results so far only, so a manager restarted from the journal pairs it
// the same way.
func (l *League) NextRound() (r Round, ok bool, err error) {
	dynamic := l.format.Format == FormatSwiss || l.format.SPRT != nil
	if !dynamic || l.RoundCount() >= l.planned || l.roundsDone < l.RoundCount() || l.State == LeagueWaiting || l.sprtDecided() {
		return Round{}, false, nil
	}
	if l.format.SPRT != nil {
		r, err = sprtRound(l.format, l.entrants, l.RoundCount()+1)
		return r, err == nil, err
	}
	results := slices.Collect(l.RecordedResults().All())
	r, err = SwissRound(l.RoundCount()+1, l.entrants, l.Rounds(), results, l.Seed)
	return r, err == nil, err
}

// SPRT is the league's sequential test so far, from the challenger's side;
// ok is false in a league without one.
func (l *League) SPRT() (st SPRTStatus, ok bool) {
	if l.format.SPRT == nil {
		return SPRTStatus{}, false
	}
	c := l.sprtCounts
	return l.format.SPRT.Status(c[won], c[drew], c[lost]+c[lostTechnically]), true
}

// sprtDecided reports whether the league's SPRT has accepted a hypothesis:
// the league then ends with the rounds it has.
func (l *League) sprtDecided() bool {
	st, ok := l.SPRT()
	return ok && st.Verdict != VerdictContinue
}

// countSPRT adds a result to the SPRT's counts (the challenger's wins,
// draws and losses; a technical loss of both counts for neither).
func (l *League) countSPRT(r Result) {
	if l.format.SPRT == nil || len(l.format.Challengers) != 1 {
		return
	}
	for _, o := range tally(r) {
		if o.player == l.format.Challengers[0] && !(o.kind == lostTechnically && kindFor(r, otherPlayer(r, o.player)) == lostTechnically) {
			l.sprtCounts[o.kind]++
		}
	}
}

func otherPlayer(r Result, p string) string {
	if p == r.PlayerA {
		return r.PlayerB
	}
	return r.PlayerA
}

// addRound applies round_scheduled: the next round, after every round
// before it has its results, its matches new and each player in it once.
func (l *League) addRound(r *Round) error {
	switch {
	case r == nil:
		return fmt.Errorf("no round")
	case l.State == LeagueWaiting || l.State == LeagueCompleted:
		return fmt.Errorf("league is %s", l.State)
	case r.Number != l.RoundCount()+1 || r.Number > l.planned:
		return fmt.Errorf("round %d does not follow round %d of %d", r.Number, l.RoundCount(), l.planned)
	case l.roundsDone < l.RoundCount():
		return fmt.Errorf("round %d still has matches to play", l.roundsDone+1)
	}
	seen := map[string]bool{}
	for _, p := range r.Matches {
		if _, taken := l.find(p.MatchID); taken || p.Round != r.Number {
			return fmt.Errorf("match %q is not new to round %d", p.MatchID, r.Number)
		}
		for _, id := range []string{p.PlayerA, p.PlayerB} {
			if a, ok := l.byID[id]; !ok || a.Role != RolePlayer || seen[id] {
				return fmt.Errorf("match %s: %q is not a player free in round %d", p.MatchID, id, r.Number)
			}
			seen[id] = true
		}
	}
	l.appendRound(*r)
	return nil
}
