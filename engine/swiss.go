package engine

import (
	"cmp"
	"fmt"
	"slices"
)

// Swiss pairing, a simple sound form of the Dutch system:
//
//   - Players are ranked by score (win 1, draw ½, loss 0; a technical loss
//     as the non-offender's win), then by pairing number (their order in
//     players).
//   - With an odd count, the lowest-ranked player who has had no bye sits
//     out: the bye. It scores nothing (league.v2 has no bye result).
//   - The rest are paired from the top down: within a score group of g
//     players, its top player meets the one g/2 below (the top half plays
//     the bottom half, S1[k] against S2[k]); an odd one out floats down to
//     the next group. A pairing that breaks a rule is skipped, and a dead
//     end backtracks (depth first), so a pairing within the rules is found
//     whenever one exists within the search bound.
//   - The rules, as FIDE's absolute colour rules with seats for colours: no
//     rematch; a player's first seats minus second seats stays within ±2;
//     nobody sits in the same seat three games in a row (a bye is not a
//     game). Two players whom the seat rules would both send to the same
//     seat do not meet. Where no pairing keeps every rule (a small league
//     with many rounds), the seat rules are dropped first, then rematches
//     allowed (with the seat rules tried again first).
//   - Seats: a player the rules send to a seat gets it; otherwise the one
//     who sat first less often sits first; if equal, the one who sat second
//     last time; if equal too, boards alternate, the top board's seat drawn
//     by lot from the seed.
//
// The same players, rounds, results and seed always give the same round.

// swissSearchBound caps the depth-first search, in pairings tried, at each
// level of the rules (swissLevels).
const swissSearchBound = 200000

// maxSeatBalance is how far a player's first seats may outnumber its
// second seats, or the other way round; maxSeatRun is how many games in a
// row a player may sit in the same seat.
const (
	maxSeatBalance = 2
	maxSeatRun     = 2
)

// swissRules are which rules a pairing keeps.
type swissRules struct {
	rematches bool // rematches allowed
	freeSeats bool // the seat rules dropped
}

// swissLevels are the rules tried in order: all of them, then without the
// seat rules, then with rematches allowed.
var swissLevels = []swissRules{{}, {freeSeats: true}, {rematches: true}, {rematches: true, freeSeats: true}}

// swissEntrant is what pairing needs to know of one player.
type swissEntrant struct {
	id        string
	number    int // pairing number: index in players
	score     float64
	balance   int // first seats minus second seats
	run       int // games in a row in the same seat: +k first, -k second, 0 none yet
	hadBye    bool
	opponents map[string]bool
}

// seatDue is the seat the rules send a player to: +1 first, -1 second, 0
// either. A player with both due (only after a round paired without the
// seat rules) has 2: it can meet nobody within them.
func (e *swissEntrant) seatDue() int {
	mustFirst := e.balance <= -maxSeatBalance || e.run <= -maxSeatRun
	mustSecond := e.balance >= maxSeatBalance || e.run >= maxSeatRun
	switch {
	case mustFirst && mustSecond:
		return 2
	case mustFirst:
		return 1
	case mustSecond:
		return -1
	}
	return 0
}

// sat records one game in a seat (+1 first, -1 second).
func (e *swissEntrant) sat(seat int) {
	e.balance += seat
	if e.run*seat > 0 {
		e.run += seat
	} else {
		e.run = seat
	}
}

// SwissRound pairs round number (1-based) of a Swiss league, given the
// rounds before it and their results.
func SwissRound(number int, players []string, past []Round, results []Result, seed int64) (Round, error) {
	if err := validatePlayers(players); err != nil {
		return Round{}, err
	}
	entrants := swissStandings(players, past, results)
	order := slices.Clone(entrants)
	slices.SortStableFunc(order, func(a, b *swissEntrant) int {
		return cmp.Or(cmp.Compare(b.score, a.score), cmp.Compare(a.number, b.number))
	})
	var pairs [][2]*swissEntrant
	for _, rules := range swissLevels {
		var ok bool
		if pairs, ok = pairWithBye(order, rules); ok {
			break
		}
	}
	lot := int(uint64(seed) % 2)
	out := make([][2]string, len(pairs))
	for k, p := range pairs {
		out[k] = seat(p[0], p[1], (k+lot)%2 == 0)
	}
	if len(out) == 0 {
		return Round{}, fmt.Errorf("round %d: nobody to pair", number)
	}
	return namedRound(number, out), nil
}

// swissStandings tallies scores, opponents, seats and byes from the
// rounds so far.
func swissStandings(players []string, past []Round, results []Result) []*swissEntrant {
	byID := make(map[string]*swissEntrant, len(players))
	entrants := make([]*swissEntrant, len(players))
	for i, id := range players {
		entrants[i] = &swissEntrant{id: id, number: i, opponents: map[string]bool{}}
		byID[id] = entrants[i]
	}
	for _, r := range past {
		played := map[string]bool{}
		for _, p := range r.Matches {
			a, b := byID[p.PlayerA], byID[p.PlayerB]
			if a == nil || b == nil {
				continue
			}
			a.opponents[b.id], b.opponents[a.id] = true, true
			a.sat(1)
			b.sat(-1)
			played[a.id], played[b.id] = true, true
		}
		for _, e := range entrants {
			if !played[e.id] {
				e.hadBye = true
			}
		}
	}
	for _, res := range results {
		for _, o := range tally(res) {
			if e := byID[o.player]; e != nil {
				switch o.kind {
				case won:
					e.score++
				case drew:
					e.score += 0.5
				}
			}
		}
	}
	return entrants
}

// pairWithBye pairs the ranked players, first choosing a bye for an odd
// count: the lowest-ranked without one whose absence leaves a pairing.
// The search bound is shared by every bye tried.
func pairWithBye(order []*swissEntrant, rules swissRules) ([][2]*swissEntrant, bool) {
	budget := swissSearchBound
	if len(order)%2 == 0 {
		return pairSwiss(order, rules, &budget)
	}
	for i := len(order) - 1; i >= 0 && budget > 0; i-- {
		if order[i].hadBye {
			continue
		}
		rest := slices.Delete(slices.Clone(order), i, i+1)
		if pairs, ok := pairSwiss(rest, rules, &budget); ok {
			return pairs, true
		}
	}
	return nil, false
}

// mayMeet reports whether two players may be paired under the rules.
func mayMeet(a, b *swissEntrant, rules swissRules) bool {
	if a.opponents[b.id] && !rules.rematches {
		return false
	}
	if rules.freeSeats {
		return true
	}
	da, db := a.seatDue(), b.seatDue()
	return da != 2 && db != 2 && (da == 0 || da != db)
}

// pairSwiss pairs ranked players top down, depth first, spending budget.
func pairSwiss(order []*swissEntrant, rules swissRules, budget *int) ([][2]*swissEntrant, bool) {
	pairs := make([][2]*swissEntrant, 0, len(order)/2)
	var search func(rest []*swissEntrant) bool
	search = func(rest []*swissEntrant) bool {
		if len(rest) == 0 {
			return true
		}
		top := rest[0]
		for _, k := range candidates(rest) {
			other := rest[k]
			if !mayMeet(top, other, rules) {
				continue
			}
			if *budget--; *budget < 0 {
				return false
			}
			next := make([]*swissEntrant, 0, len(rest)-2)
			next = append(next, rest[1:k]...)
			next = append(next, rest[k+1:]...)
			pairs = append(pairs, [2]*swissEntrant{top, other})
			if search(next) {
				return true
			}
			pairs = pairs[:len(pairs)-1]
		}
		return false
	}
	if !search(order) {
		return nil, false
	}
	return pairs, true
}

// candidates are the indexes in rest of rest[0]'s opponents, best first:
// the top of the other half of its score group, then the rest of that
// half, then the top half's others from the bottom up, then everyone
// below the group in rank order.
func candidates(rest []*swissEntrant) []int {
	g := 1
	for g < len(rest) && rest[g].score == rest[0].score {
		g++
	}
	out := make([]int, 0, len(rest)-1)
	for k := g / 2; k < g; k++ {
		if k > 0 {
			out = append(out, k)
		}
	}
	for k := g/2 - 1; k >= 1; k-- {
		out = append(out, k)
	}
	for k := g; k < len(rest); k++ {
		out = append(out, k)
	}
	return out
}

// seat orders a pair (a ranked above b) as first and second seat: the
// seats the rules send them to, else the preferences.
func seat(a, b *swissEntrant, aByLot bool) [2]string {
	aFirst := aByLot
	switch da, db := a.seatDue(), b.seatDue(); {
	case da == 1 || db == -1:
		aFirst = true
	case da == -1 || db == 1:
		aFirst = false
	case a.balance != b.balance:
		aFirst = a.balance < b.balance
	case sign(a.run) != sign(b.run):
		aFirst = sign(a.run) < sign(b.run)
	}
	if aFirst {
		return [2]string{a.id, b.id}
	}
	return [2]string{b.id, a.id}
}

func sign(x int) int { return cmp.Compare(x, 0) }
