package engine

import "fmt"

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
	circle := make([]int, len(players))
	for i := range circle {
		circle[i] = i
	}
	if len(circle)%2 == 1 {
		circle = append(circle, bye)
	}
	generated := make([][][2]int, 0, len(circle)-1)
	for range len(circle) - 1 {
		generated = append(generated, circlePairs(circle))
		rotate(circle)
	}
	rounds := make([]Round, 0, len(generated))
	for i := len(generated) - 1; i >= 0; i-- {
		rounds = append(rounds, newRound(len(rounds)+1, generated[i], players))
	}
	return rounds, nil
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
func circlePairs(circle []int) [][2]int {
	n := len(circle)
	pairs := make([][2]int, 0, n/2)
	for i := range n / 2 {
		a, b := circle[i], circle[n-1-i]
		if a == bye || b == bye {
			continue
		}
		pairs = append(pairs, [2]int{min(a, b), max(a, b)})
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

// newRound turns seeding-index pairs into numbered pairings.
func newRound(number int, pairs [][2]int, players []string) Round {
	r := Round{Number: number, Matches: make([]Pairing, 0, len(pairs))}
	for k, p := range pairs {
		r.Matches = append(r.Matches, Pairing{
			MatchID: MatchID(number, k+1),
			Round:   number,
			PlayerA: players[p[0]],
			PlayerB: players[p[1]],
		})
	}
	return r
}

// MatchID formats the wire id of match k (1-based) in round r (1-based),
// e.g. "R1M1".
func MatchID(round, k int) string {
	return fmt.Sprintf("R%dM%d", round, k)
}
