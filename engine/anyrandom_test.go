package engine

import (
	"slices"
	"testing"
)

// TestAnyRandomIsEvenOddsRandomOnTheFirstTurn: on a match's first turn
// the random strategy of any game draws as even/odd's random does, so a
// game program of even/odd is played exactly as the built-in game; later
// turns draw from streams of their own, always a legal move, the same
// one when asked again.
func TestAnyRandomIsEvenOddsRandomOnTheFirstTurn(t *testing.T) {
	builtin, err := NewStrategy("random", 11)
	if err != nil {
		t.Fatal(err)
	}
	r := NewAnyRandom(11)
	for _, id := range []string{"R1M1", "R1M2", "R2M1", "R7M3"} {
		ctx := MoveContext{Self: "P01", MatchID: id, Turn: 1, Options: []string{Even, Odd}}
		if got, want := r.Choose(ctx), builtin.Choose(ctx); got != want {
			t.Errorf("%s: %q, even/odd's random plays %q", id, got, want)
		}
	}
	options := []string{"1", "2", "3", "4", "5", "6", "7", "8", "9"}
	seen := map[string]bool{}
	for turn := 2; turn < 40; turn++ {
		ctx := MoveContext{Self: "P01", MatchID: "R1M1", Turn: turn, Options: options}
		move := r.Choose(ctx)
		if !slices.Contains(options, move) || r.Choose(ctx) != move {
			t.Fatalf("turn %d: %q, then %q", turn, move, r.Choose(ctx))
		}
		seen[move] = true
	}
	if len(seen) < 5 {
		t.Errorf("38 turns drew only %v", seen)
	}
	if move := r.Choose(MoveContext{MatchID: "R1M1"}); move != "" {
		t.Errorf("no options: %q", move)
	}
}
