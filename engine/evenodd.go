package engine

import (
	"fmt"
	"math/rand/v2"
	"strings"
)

// EvenOddType is the wire name of the even/odd game.
const EvenOddType = "even_odd"

// The even/odd moves, which are also the parities of the drawn number.
const (
	Even = "even"
	Odd  = "odd"
)

// EvenOdd is the league's game: both players choose "even" or "odd", then
// the referee draws a uniform integer in [1,10]. Exactly one right player
// wins; both right or both wrong is a draw, so identical choices always draw.
type EvenOdd struct{}

func init() { Register(EvenOdd{}) }

// Type returns EvenOddType.
func (EvenOdd) Type() string { return EvenOddType }

// Start plays a match as one simultaneous move.
func (g EvenOdd) Start(setup MatchSetup) Play { return OneMove(g, setup) }

// MoveType returns "choose_parity", the protocol's name for the move call.
func (EvenOdd) MoveType() string { return "choose_parity" }

// Options returns a fresh ["even", "odd"] that the caller may modify.
func (EvenOdd) Options() []string { return []string{Even, Odd} }

// Normalize trims space and lowercases raw, and accepts only "even" or "odd".
func (EvenOdd) Normalize(raw string) (string, bool) {
	m := strings.ToLower(strings.TrimSpace(raw))
	if m != Even && m != Odd {
		return "", false
	}
	return m, true
}

// Decide draws the number (after both moves are known, as the rules demand)
// and settles the match. Right is the drawn number's parity.
func (EvenOdd) Decide(moveA, moveB string, rng *rand.Rand) Decision {
	return decideEvenOdd(moveA, moveB, rng.IntN(10)+1)
}

// decideEvenOdd settles a match for a known drawn number n.
func decideEvenOdd(moveA, moveB string, n int) Decision {
	p := parity(n)
	return Decision{
		Winner:  evenOddWinner(moveA == p, moveB == p),
		Details: map[string]any{"drawn_number": n, "number_parity": p},
		Right:   p,
		Reason:  fmt.Sprintf("A chose %s, B chose %s, drawn %d is %s", moveA, moveB, n, p),
		Step:    fmt.Sprintf("drawn %d", n),
	}
}

// parity names the parity of n.
func parity(n int) string {
	if n%2 == 0 {
		return Even
	}
	return Odd
}

// evenOddWinner applies "exactly one right player wins".
func evenOddWinner(aRight, bRight bool) Side {
	switch {
	case aRight && !bRight:
		return SideA
	case bRight && !aRight:
		return SideB
	default:
		return NoSide
	}
}
