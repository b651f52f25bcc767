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
	if l.sprtDecided() || l.State == LeagueCompleted {
		return l.RoundCount()
	}
	return max(l.planned, l.RoundCount())
}

// NextRound pairs the league's next round when it is due: a Swiss league
// whose scheduled rounds all have results and that has rounds left, or a
// separating match of --until-separated. ok is false when no round is due.
// The round comes from the seed and the results so far only, so a manager
// restarted from the journal pairs it the same way.
func (l *League) NextRound() (r Round, ok bool, err error) {
	r, _, ok, err = l.NextRoundWhy()
	return r, ok, err
}

// NextRoundWhy is NextRound with the sentence the journal keeps for the
// round (empty for a Swiss or SPRT round): why a separating match was
// chosen.
func (l *League) NextRoundWhy() (r Round, why string, ok bool, err error) {
	dynamic := l.format.Format == FormatSwiss || l.format.SPRT != nil || l.format.UntilSeparated > 0
	if !dynamic || l.RoundCount() >= l.planned || l.roundsDone < l.RoundCount() || l.State == LeagueWaiting || l.sprtDecided() {
		return Round{}, "", false, nil
	}
	if l.format.UntilSeparated > 0 && l.RoundCount() >= l.scheduledRounds() {
		return l.separatingRound()
	}
	if l.format.SPRT != nil {
		r, err = sprtRound(l.format, l.entrants, l.RoundCount()+1)
		return r, "", err == nil, err
	}
	results := slices.Collect(l.RecordedResults().All())
	r, err = SwissRound(l.RoundCount()+1, l.entrants, l.Rounds(), results, l.Seed)
	return r, "", err == nil, err
}

// scheduledRounds is how many rounds the league's format plays before any
// separating match.
func (l *League) scheduledRounds() int { return l.planned - l.format.UntilSeparated }

// Separation is the ranking's adjacent pairs by the fit the separating
// matches are chosen by: the league's results (and the prior games of a
// --place league), technical losses counted as losses.
func (l *League) Separation() []AdjacentPair {
	if l.sepFor == l.finished && l.sepPairs != nil {
		return l.sepPairs
	}
	results := append(priorResults(l.format.Prior), slices.Collect(l.RecordedResults().All())...)
	players := slices.Clone(l.entrants)
	SortIDs(players)
	l.sepPairs, l.sepFor = AdjacentPairs(FitRatings(players, results, RatingOptions{})), l.finished
	return l.sepPairs
}

// separatingRound is the next separating match, one match a round: the
// most unsure adjacent pair (of those involving the --place player), the
// one ranked higher seated first in their odd games together.
func (l *League) separatingRound() (Round, string, bool, error) {
	pairs := l.Separation()
	n := l.RoundCount() + 1
	p, ok := MostUnsure(pairs, l.format.Place, l.Seed, n)
	if !ok {
		return Round{}, "", false, nil
	}
	seats := [2]string{p.Above, p.Below}
	if l.gamesBetween(p.Above, p.Below)%2 == 1 {
		seats = [2]string{p.Below, p.Above}
	}
	return namedRound(n, [][2]string{seats}), p.Why(CountUnsure(pairs), len(pairs)), true, nil
}

// gamesBetween counts the league's scheduled matches of a and b.
func (l *League) gamesBetween(a, b string) int {
	n := 0
	for _, r := range l.Rounds() {
		for _, m := range r.Matches {
			if m.PlayerA == a && m.PlayerB == b || m.PlayerA == b && m.PlayerB == a {
				n++
			}
		}
	}
	return n
}

// separated reports whether a league that plays until separated has
// nothing left to separate: its schedule played, and every adjacent pair
// (involving the --place player) separated.
func (l *League) separated() bool {
	if l.format.UntilSeparated == 0 || l.RoundCount() < l.scheduledRounds() || l.roundsDone < l.RoundCount() {
		return false
	}
	_, unsure := MostUnsure(l.Separation(), l.format.Place, l.Seed, l.RoundCount()+1)
	return !unsure
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

// SeparationStatus is where a league's --until-separated stands.
type SeparationStatus struct {
	Limit  int  `json:"limit"`  // separating matches it may play
	Played int  `json:"played"` // separating matches scheduled so far
	Known  bool `json:"known"`  // the schedule is played: Unsure and Pairs are counted
	Unsure int  `json:"unsure"` // adjacent pairs not separated (AdjacentPair.Unsure)
	Pairs  int  `json:"pairs"`  // adjacent pairs
}

// SeparationStatus reports the league's --until-separated; ok is false in a
// league without one. The pairs are counted once the schedule is played
// (a fit per result before then would hold up a large league).
func (l *League) SeparationStatus() (st SeparationStatus, ok bool) {
	if l.format.UntilSeparated == 0 {
		return st, false
	}
	st = SeparationStatus{Limit: l.format.UntilSeparated, Played: max(l.RoundCount()-l.scheduledRounds(), 0)}
	if l.State != LeagueWaiting && l.RoundCount() >= l.scheduledRounds() && l.roundsDone == l.RoundCount() {
		pairs := involving(l.Separation(), l.format.Place)
		st.Known, st.Unsure, st.Pairs = true, CountUnsure(pairs), len(pairs)
	}
	return st, true
}
