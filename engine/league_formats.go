package engine

import (
	"fmt"
	"math"
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
	dynamic := l.format.Format == FormatSwiss || l.format.SPRT != nil || l.format.extraMatches() > 0
	if !dynamic || l.RoundCount() >= l.planned || l.roundsDone < l.RoundCount() || l.State == LeagueWaiting || l.sprtDecided() {
		return Round{}, "", false, nil
	}
	if l.format.extraMatches() > 0 && l.RoundCount() >= l.scheduledRounds() {
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
func (l *League) scheduledRounds() int { return l.planned - l.format.extraMatches() }

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
	l.sepPairs, l.sepFor = AdjacentPairsWithin(FitRatings(players, results, RatingOptions{}), l.format.margin()), l.finished
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
	if l.format.extraMatches() == 0 || l.RoundCount() < l.scheduledRounds() || l.roundsDone < l.RoundCount() {
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
	return l.format.SPRT.StatusPaired(c[won], c[drew], c[lost]+c[lostTechnically], l.sprtPairs), true
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
			l.countPair(r.Round, map[outcomeKind]int{won: 2, drew: 1}[o.kind])
		}
	}
}

// countPair adds the challenger's score (×2: a loss 0, a draw 1, a win 2)
// in game round, one game a round, to its seat-swapped pair: games 1 and
// 2, 3 and 4, … (sprtRound alternates the seats). A pair counts once both
// games have a counted result; a game of a technical loss of both leaves
// its pair out.
func (l *League) countPair(round, score int) {
	if round%2 == 1 {
		if l.sprtOdd == nil {
			l.sprtOdd = map[int]int{}
		}
		l.sprtOdd[round] = score
		return
	}
	if first, ok := l.sprtOdd[round-1]; ok {
		delete(l.sprtOdd, round-1)
		l.sprtPairs[first+score]++ // the pair's score ×2: 0 (LL) to 4 (WW)
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

// SeparationStatus is where a league's --until-separated or
// --until-decided stands.
type SeparationStatus struct {
	Rule   string `json:"rule,omitempty"` // "until-separated" or "until-decided"
	Limit  int    `json:"limit"`          // separating matches it may play
	Played int    `json:"played"`         // separating matches scheduled so far
	Known  bool   `json:"known"`          // the schedule is played: the pairs are counted and judged
	Unsure int    `json:"unsure"`         // adjacent pairs neither separated nor equivalent (AdjacentPair.Unsure)
	Pairs  int    `json:"pairs"`          // adjacent pairs
	// Margin is --until-decided's equivalence margin in Elo; Separated and
	// Equivalent count the pairs of each verdict, Verdicts judges each
	// adjacent pair of the ranking by rating, best first.
	Margin     float64       `json:"equivalence_margin,omitempty"`
	Separated  int           `json:"separated,omitempty"`
	Equivalent int           `json:"equivalent,omitempty"`
	Verdicts   []PairVerdict `json:"verdicts,omitempty"`
}

// PairVerdict is one adjacent pair of the ranking by rating and its
// verdict (VerdictSeparated, VerdictEquivalent or VerdictUnsure).
type PairVerdict struct {
	Above   string `json:"above"`
	Below   string `json:"below"`
	Rank    int    `json:"rank"` // Above's rank by rating, 1-based
	Verdict string `json:"verdict"`
	// Difference ± CI95 is the 95 % interval of elo(Above) − elo(Below),
	// rounded to hundredths; absent when one of them is unrated.
	Difference *float64 `json:"elo_difference,omitempty"`
	CI95       *float64 `json:"ci95,omitempty"`
	// LLR is --until-decided's log-likelihood ratio of Δ = margin against
	// Δ = 0 (AdjacentPair.LLR), rounded to hundredths: separated at
	// DecidedUpper or more, equivalent at DecidedLower or less; absent
	// for --until-separated and while one of them is unrated.
	LLR *float64 `json:"llr,omitempty"`
}

// ruleName is the flag that made the league play on.
func (s FormatSpec) ruleName() string {
	if s.UntilDecided > 0 {
		return "until-decided"
	}
	return "until-separated"
}

// SeparationStatus reports the league's --until-separated or
// --until-decided; ok is false in a league without either. The pairs are
// counted once the schedule is played (a fit per result before then would
// hold up a large league).
func (l *League) SeparationStatus() (st SeparationStatus, ok bool) {
	if l.format.extraMatches() == 0 {
		return st, false
	}
	st = SeparationStatus{Rule: l.format.ruleName(), Limit: l.format.extraMatches(),
		Played: max(l.RoundCount()-l.scheduledRounds(), 0), Margin: l.format.margin()}
	if l.State != LeagueWaiting && l.RoundCount() >= l.scheduledRounds() && l.roundsDone == l.RoundCount() {
		pairs := involving(l.Separation(), l.format.Place)
		st.Known, st.Unsure, st.Pairs = true, CountUnsure(pairs), len(pairs)
		for _, p := range pairs {
			v := p.judged()
			st.Verdicts = append(st.Verdicts, v)
			st.Separated += b2i(v.Verdict == VerdictSeparated)
			st.Equivalent += b2i(v.Verdict == VerdictEquivalent)
		}
	}
	return st, true
}

// judged is the pair as SeparationStatus reports it.
func (p AdjacentPair) judged() PairVerdict {
	v := PairVerdict{Above: p.Above, Below: p.Below, Rank: p.Rank, Verdict: p.Verdict()}
	if d := p.Difference(); !math.IsNaN(d) {
		diff, width := math.Round(d*100)/100, math.Round(p.Width*100)/100
		v.Difference, v.CI95 = &diff, &width
	}
	if llr := p.LLR(); !math.IsNaN(llr) {
		llr = math.Round(llr*100) / 100
		v.LLR = &llr
	}
	return v
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// StopWhy is the sentence the journal keeps with league_completed for a
// league that played on after its schedule: whether every adjacent pair
// was decided or the limit was reached. "" for any other league.
func (l *League) StopWhy() string {
	st, ok := l.SeparationStatus()
	if !ok {
		return ""
	}
	return st.StopWhy()
}

// StopWhy is League.StopWhy from the status at the league's end; "" while
// the pairs are not judged yet.
func (st SeparationStatus) StopWhy() string {
	if !st.Known {
		return ""
	}
	counts := fmt.Sprintf("%d separated", st.Separated)
	if st.Margin > 0 {
		counts += fmt.Sprintf(", %d equivalent within ±%g Elo", st.Equivalent, st.Margin)
	}
	if st.Unsure == 0 {
		return fmt.Sprintf("%s: stopped with every adjacent pair decided after %d of %d extra matches: %s of %d",
			st.Rule, st.Played, st.Limit, counts, st.Pairs)
	}
	return fmt.Sprintf("%s: stopped at the limit of %d extra matches with %d of %d adjacent pairs unsure (%s)",
		st.Rule, st.Limit, st.Unsure, st.Pairs, counts)
}
