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
//     the next group. A pairing that would be a rematch is skipped, and a
//     dead end backtracks (depth first), so a pairing without a rematch is
//     found whenever one exists within the search bound. Should none exist
//     (a small league with many rounds) rematches are allowed.
//   - Seats: the player who sat first less often sits first; if equal, the
//     one who sat second last time; if equal too, boards alternate, the top
//     board's seat drawn by lot from the seed.
//
// The same players, rounds, results and seed always give the same round.

// swissSearchBound caps the depth-first search, in pairings tried.
const swissSearchBound = 200000

// swissEntrant is what pairing needs to know of one player.
type swissEntrant struct {
	id        string
	number    int // pairing number: index in players
	score     float64
	balance   int // first seats minus second seats
	last      int // +1 sat first last game, -1 second, 0 none yet
	hadBye    bool
	opponents map[string]bool
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
	pairs, ok := pairWithBye(order, false)
	if !ok {
		pairs, _ = pairWithBye(order, true)
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
			a.balance, a.last = a.balance+1, 1
			b.balance, b.last = b.balance-1, -1
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
func pairWithBye(order []*swissEntrant, rematches bool) ([][2]*swissEntrant, bool) {
	if len(order)%2 == 0 {
		return pairSwiss(order, rematches)
	}
	for i := len(order) - 1; i >= 0; i-- {
		if order[i].hadBye {
			continue
		}
		rest := slices.Delete(slices.Clone(order), i, i+1)
		if pairs, ok := pairSwiss(rest, rematches); ok {
			return pairs, true
		}
		if rematches {
			break
		}
	}
	return nil, false
}

// pairSwiss pairs ranked players top down, depth first.
func pairSwiss(order []*swissEntrant, rematches bool) ([][2]*swissEntrant, bool) {
	budget := swissSearchBound
	pairs := make([][2]*swissEntrant, 0, len(order)/2)
	var search func(rest []*swissEntrant) bool
	search = func(rest []*swissEntrant) bool {
		if len(rest) == 0 {
			return true
		}
		top := rest[0]
		for _, k := range candidates(rest) {
			other := rest[k]
			if top.opponents[other.id] && !rematches {
				continue
			}
			if budget--; budget < 0 {
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

// seat orders a pair (a ranked above b) as first and second seat.
func seat(a, b *swissEntrant, aByLot bool) [2]string {
	aFirst := aByLot
	switch {
	case a.balance != b.balance:
		aFirst = a.balance < b.balance
	case a.last != b.last:
		aFirst = a.last < b.last
	}
	if aFirst {
		return [2]string{a.id, b.id}
	}
	return [2]string{b.id, a.id}
}
