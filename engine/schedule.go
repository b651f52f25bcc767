package engine

import (
	"fmt"
	"strconv"
)

// Pairing is one scheduled match.
type Pairing struct {
	MatchID string // "R<round>M<k>", both 1-based, e.g. "R1M1"
	Round   int    // 1-based
	PlayerA string
	PlayerB string
}

// Round is one round of the schedule. Every player appears at most once in a
// round, so all its matches may run in parallel.
type Round struct {
	Number  int
	Matches []Pairing
}

// bye marks the empty seat added for an odd number of players. It is an
// index, not an id, so no player id can collide with it.
const bye = -1

// RoundRobin builds a single round robin over players, given in seeding
// order, so that every pair meets exactly once.
//
// It uses the circle method: position 0 stays fixed, position i plays
// position n-1-i, and between rounds the last position moves to position 1.
// The generated rounds are then played in reverse order, which reproduces
// the protocol's reference table for four players:
// R1 {P01-P02, P03-P04}, R2 {P01-P03, P02-P04}, R3 {P01-P04, P02-P03}.
// In each pairing the better-seeded player is PlayerA. Within a round,
// matches keep the circle order (pairs from the outside in).
//
// With an odd number of players a bye is added; the player drawn against it
// sits out that round. The result has n(n-1)/2 matches in n-1 rounds (even
// n) or n rounds (odd n), floor(n/2) matches per round.
//
// It fails for fewer than two players, an empty id or a duplicate id.
func RoundRobin(players []string) ([]Round, error) {
	if err := validatePlayers(players); err != nil {
		return nil, err
	}
	s := newSchedule(players)
	s.addCycles(1)
	return s.all(), nil
}

// circleRounds is the round robin of n players by seeding index, in the
// order the rounds are played (see RoundRobin).
func circleRounds(n int) [][]seats {
	circle := make([]int, n)
	for i := range circle {
		circle[i] = i
	}
	if len(circle)%2 == 1 {
		circle = append(circle, bye)
	}
	rounds := make([][]seats, len(circle)-1)
	for i := range rounds {
		rounds[len(rounds)-1-i] = circlePairs(circle)
		rotate(circle)
	}
	return rounds
}

// addCycles adds the round robin of the schedule's players played n times,
// seats swapped in every other cycle and the rounds numbered on. The
// cycles that keep the seats share their rounds' seats.
func (s *schedule) addCycles(n int) {
	single := circleRounds(len(s.players))
	for c := range n {
		for _, r := range single {
			if c%2 == 1 {
				swapped := make([]seats, len(r))
				for k, p := range r {
					swapped[k] = seats{a: p.b, b: p.a}
				}
				r = swapped
			}
			s.addSeats(len(s.rounds)+1, r)
		}
	}
}

// validatePlayers reports why players cannot be scheduled, if they cannot.
func validatePlayers(players []string) error {
	if len(players) < 2 {
		return fmt.Errorf("round robin needs at least 2 players, got %d", len(players))
	}
	seen := make(map[string]bool, len(players))
	for i, p := range players {
		if p == "" {
			return fmt.Errorf("player %d has an empty id", i+1)
		}
		if seen[p] {
			return fmt.Errorf("duplicate player id %q", p)
		}
		seen[p] = true
	}
	return nil
}

// circlePairs pairs position i with position n-1-i, as seeding indexes with
// the better seed first, leaving out the pair that holds the bye.
func circlePairs(circle []int) []seats {
	n := len(circle)
	pairs := make([]seats, 0, n/2)
	for i := range n / 2 {
		a, b := circle[i], circle[n-1-i]
		if a == bye || b == bye {
			continue
		}
		pairs = append(pairs, seats{a: int32(min(a, b)), b: int32(max(a, b))})
	}
	return pairs
}

// rotate keeps position 0 fixed and moves the last element to position 1,
// shifting the others one place to the right.
func rotate(circle []int) {
	last := circle[len(circle)-1]
	copy(circle[2:], circle[1:len(circle)-1])
	circle[1] = last
}

// MatchID formats the wire id of match k (1-based) in round r (1-based),
// e.g. "R1M1".
func MatchID(round, k int) string {
	return "R" + strconv.Itoa(round) + "M" + strconv.Itoa(k)
}
