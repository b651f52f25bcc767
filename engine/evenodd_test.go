package engine

import (
	"fmt"
	"reflect"
	"slices"
	"testing"
)

func TestEvenOddDecideForEveryChoiceAndNumber(t *testing.T) {
	for _, a := range []string{Even, Odd} {
		for _, b := range []string{Even, Odd} {
			for n := 1; n <= 10; n++ {
				t.Run(fmt.Sprintf("%s-%s-%d", a, b, n), func(t *testing.T) {
					p := Odd
					if n%2 == 0 {
						p = Even
					}
					want := NoSide
					switch {
					case a == p && b != p:
						want = SideA
					case b == p && a != p:
						want = SideB
					}
					d := decideEvenOdd(a, b, n)
					if d.Winner != want {
						t.Errorf("Winner = %v, want %v", d.Winner, want)
					}
					wantDetails := map[string]any{"drawn_number": n, "number_parity": p}
					if !reflect.DeepEqual(d.Details, wantDetails) {
						t.Errorf("Details = %v, want %v", d.Details, wantDetails)
					}
					if d.Right != p {
						t.Errorf("Right = %q, want %q", d.Right, p)
					}
					if wantReason := fmt.Sprintf("A chose %s, B chose %s, drawn %d is %s", a, b, n, p); d.Reason != wantReason {
						t.Errorf("Reason = %q, want %q", d.Reason, wantReason)
					}
				})
			}
		}
	}
}

func TestEvenOddSpecExamples(t *testing.T) {
	tests := []struct {
		a, b string
		n    int
		want Side
	}{
		{Even, Odd, 8, SideA},
		{Even, Odd, 7, SideB},
		{Odd, Odd, 4, NoSide},
	}
	for _, tt := range tests {
		if got := decideEvenOdd(tt.a, tt.b, tt.n).Winner; got != tt.want {
			t.Errorf("%s/%s with %d: winner %v, want %v", tt.a, tt.b, tt.n, got, tt.want)
		}
	}
}

func TestEvenOddDecideDrawsEveryNumberFromRNG(t *testing.T) {
	seen := map[int]int{}
	for i := range 2000 {
		id := fmt.Sprintf("R%dM1", i)
		d := EvenOdd{}.Decide(Even, Odd, MatchRand(7, id, "draw"))
		n, ok := d.Details["drawn_number"].(int)
		if !ok || n < 1 || n > 10 {
			t.Fatalf("%s: drawn_number %v not an int in [1,10]", id, d.Details["drawn_number"])
		}
		if want := MatchRand(7, id, "draw").IntN(10) + 1; n != want {
			t.Fatalf("%s: drawn %d, want rng.IntN(10)+1 = %d", id, n, want)
		}
		seen[n]++
	}
	for n := 1; n <= 10; n++ {
		if seen[n] < 100 { // expected 200 each
			t.Errorf("number %d drawn %d times in 2000, want about 200", n, seen[n])
		}
	}
}

func TestEvenOddNormalize(t *testing.T) {
	tests := []struct {
		raw    string
		want   string
		wantOK bool
	}{
		{" Even ", Even, true},
		{"ODD", Odd, true},
		{"even", Even, true},
		{"\todd\n", Odd, true},
		{"x", "", false},
		{"", "", false},
		{"evens", "", false},
		{"e ven", "", false},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("%q", tt.raw), func(t *testing.T) {
			got, ok := EvenOdd{}.Normalize(tt.raw)
			if got != tt.want || ok != tt.wantOK {
				t.Errorf("Normalize(%q) = %q, %v; want %q, %v", tt.raw, got, ok, tt.want, tt.wantOK)
			}
		})
	}
}

func TestEvenOddDescription(t *testing.T) {
	g := EvenOdd{}
	if g.Type() != "even_odd" || g.MoveType() != "choose_parity" {
		t.Errorf("Type, MoveType = %q, %q", g.Type(), g.MoveType())
	}
	opts := g.Options()
	if !reflect.DeepEqual(opts, []string{"even", "odd"}) {
		t.Errorf("Options() = %v", opts)
	}
	opts[0] = "changed"
	if g.Options()[0] != "even" {
		t.Error("Options shares its slice with callers")
	}
}

func TestRegistry(t *testing.T) {
	g, ok := LookupGame(EvenOddType)
	if !ok || g.Type() != EvenOddType {
		t.Fatalf("LookupGame(%q) = %v, %v", EvenOddType, g, ok)
	}
	if _, ok := LookupGame("chess"); ok {
		t.Error("LookupGame found an unregistered game")
	}
	if types := GameTypes(); !slices.Contains(types, EvenOddType) || !slices.IsSorted(types) {
		t.Errorf("GameTypes() = %v", types)
	}
	defer func() {
		if recover() == nil {
			t.Error("Register of a duplicate type did not panic")
		}
	}()
	Register(EvenOdd{})
}

func TestSideString(t *testing.T) {
	tests := []struct {
		side Side
		want string
	}{{NoSide, "none"}, {SideA, "A"}, {SideB, "B"}, {Side(7), "none"}}
	for _, tt := range tests {
		if got := tt.side.String(); got != tt.want {
			t.Errorf("Side(%d).String() = %q, want %q", int(tt.side), got, tt.want)
		}
	}
}
