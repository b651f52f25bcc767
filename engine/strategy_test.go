package engine

import (
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"
)

var evenOdd = []string{Even, Odd}

// ctxFor is the context of match id against opponent, with even/odd moves.
func ctxFor(matchID, opponent string) MoveContext {
	return MoveContext{Self: "P01", OpponentID: opponent, MatchID: matchID, Round: 1, Options: evenOdd}
}

// mustStrategy builds a strategy or fails the test.
func mustStrategy(t *testing.T, name string, seed int64) Strategy {
	t.Helper()
	s, err := NewStrategy(name, seed)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// feedOpponent makes s observe opponent playing moves in order. The match
// ids restart with every call, so feed a strategy once per opponent.
func feedOpponent(s Strategy, opponent string, moves ...string) {
	for i, m := range moves {
		s.Observe(Observation{
			MatchID:      fmt.Sprintf("old-%s-%d", opponent, i),
			OpponentID:   opponent,
			MyMove:       Even,
			OpponentMove: m,
			Right:        Odd,
		})
	}
}

// share counts how often s chooses want over n fresh match ids.
func share(s Strategy, opponent, want string, n int) float64 {
	hits := 0
	for i := range n {
		if s.Choose(ctxFor(fmt.Sprintf("M%d", i), opponent)) == want {
			hits++
		}
	}
	return float64(hits) / float64(n)
}

func TestStrategyNames(t *testing.T) {
	want := []string{"random", "frequency", "pattern", "counter", "adaptive"}
	if got := StrategyNames(); !reflect.DeepEqual(got, want) {
		t.Fatalf("StrategyNames() = %v, want %v", got, want)
	}
	StrategyNames()[0] = "changed"
	if StrategyNames()[0] != "random" {
		t.Error("StrategyNames shares its slice with callers")
	}
	for _, name := range want {
		if got := mustStrategy(t, name, 1).Name(); got != name {
			t.Errorf("NewStrategy(%q).Name() = %q", name, got)
		}
	}
}

func TestNewStrategyUnknownName(t *testing.T) {
	for _, name := range []string{"", "Random", "llm"} {
		s, err := NewStrategy(name, 1)
		if err == nil {
			t.Errorf("NewStrategy(%q) = %v, want an error", name, s)
			continue
		}
		for _, valid := range StrategyNames() {
			if !strings.Contains(err.Error(), valid) {
				t.Errorf("error %q does not list %q", err, valid)
			}
		}
	}
}

func TestStrategiesAlwaysChooseAValidOption(t *testing.T) {
	optionSets := [][]string{evenOdd, {"a", "b", "c"}, {"only"}}
	histories := map[string][]string{
		"none":        nil,
		"streak":      {Even, Even, Even},
		"alternating": {Even, Odd, Even},
		"mixed":       {Odd, "a", Even, "c", "zzz"},
	}
	for _, name := range StrategyNames() {
		for hname, history := range histories {
			t.Run(name+"/"+hname, func(t *testing.T) {
				s := mustStrategy(t, name, 3)
				feedOpponent(s, "P02", history...)
				s.Observe(Observation{MatchID: "x", Right: "b"})
				for _, opts := range optionSets {
					for i := range 200 {
						ctx := MoveContext{Self: "P01", OpponentID: "P02", MatchID: fmt.Sprintf("M%d", i), Options: opts}
						if got := s.Choose(ctx); !slices.Contains(opts, got) {
							t.Fatalf("Choose with options %v = %q", opts, got)
						}
					}
				}
			})
		}
	}
}

func TestStrategiesWithoutOptions(t *testing.T) {
	for _, name := range StrategyNames() {
		if got := mustStrategy(t, name, 1).Choose(MoveContext{MatchID: "M1"}); got != "" {
			t.Errorf("%s: Choose with no options = %q, want empty", name, got)
		}
	}
}

func TestStrategiesAreDeterministic(t *testing.T) {
	for _, name := range StrategyNames() {
		t.Run(name, func(t *testing.T) {
			a, b := mustStrategy(t, name, 11), mustStrategy(t, name, 11)
			for _, s := range []Strategy{a, b} {
				feedOpponent(s, "P02", Odd, Even, Odd, Odd)
			}
			for i := range 100 {
				ctx := ctxFor(fmt.Sprintf("R%dM1", i), "P02")
				first := a.Choose(ctx)
				if again := a.Choose(ctx); again != first {
					t.Fatalf("%s: retry gave %q then %q", ctx.MatchID, first, again)
				}
				if other := b.Choose(ctx); other != first {
					t.Fatalf("%s: same seed gave %q and %q", ctx.MatchID, first, other)
				}
			}
		})
	}
}

func TestRandomStrategyIsUniformAndSeeded(t *testing.T) {
	s := mustStrategy(t, "random", 5)
	if got := share(s, "P02", Even, 2000); got < 0.45 || got > 0.55 {
		t.Errorf("random chose even %.2f of the time, want about 0.5", got)
	}
	a, b := mustStrategy(t, "random", 5), mustStrategy(t, "random", 6)
	same := 0
	for i := range 100 {
		ctx := ctxFor(fmt.Sprintf("M%d", i), "P02")
		if a.Choose(ctx) == b.Choose(ctx) {
			same++
		}
	}
	if same == 100 {
		t.Error("different seeds gave the same 100 moves")
	}
}

func TestFrequencyLeansTowardFrequentRight(t *testing.T) {
	s := mustStrategy(t, "frequency", 8)
	if got := share(s, "P02", Even, 2000); got < 0.45 || got > 0.55 {
		t.Errorf("with no history frequency chose even %.2f of the time, want about 0.5", got)
	}
	for i := range 10 {
		right := Even
		if i%4 == 0 {
			right = Odd
		}
		s.Observe(Observation{MatchID: fmt.Sprintf("old%d", i), OpponentID: "P02", Right: right})
	}
	if got := share(s, "P02", Even, 2000); got <= 0.6 || got >= 0.8 {
		t.Errorf("frequency chose the frequent right move %.2f of the time, want about 0.7", got)
	}
}

func TestCounterPicksTheOppositeOfAPredictableOpponent(t *testing.T) {
	tests := []struct {
		name    string
		history []string
		want    string
	}{
		{"always even", []string{Even, Even, Even, Even}, Odd},
		{"always odd", []string{Odd, Odd}, Even},
		{"mostly even", []string{Even, Odd, Even, Even, Odd, Even}, Odd},
		{"tie broken by last move", []string{Even, Odd, Odd, Even}, Odd},
		{"tie broken by last move, other way", []string{Even, Odd}, Even},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := mustStrategy(t, "counter", 2)
			feedOpponent(s, "P02", tt.history...)
			if got := share(s, "P02", tt.want, 100); got != 1 {
				t.Errorf("counter chose %q %.2f of the time, want always", tt.want, got)
			}
			// Another opponent is still unknown: random.
			if got := share(s, "P03", tt.want, 1000); got > 0.6 {
				t.Errorf("against an unknown opponent counter chose %q %.2f of the time", tt.want, got)
			}
		})
	}
}

func TestCounterWithThreeOptionsPicksFirstOther(t *testing.T) {
	s := mustStrategy(t, "counter", 2)
	feedOpponent(s, "P02", "a", "a", "b")
	ctx := MoveContext{Self: "P01", OpponentID: "P02", MatchID: "M1", Options: []string{"a", "b", "c"}}
	if got := s.Choose(ctx); got != "b" {
		t.Errorf("Choose = %q, want %q (first option other than the predicted a)", got, "b")
	}
}

func TestPatternStrategy(t *testing.T) {
	tests := []struct {
		name    string
		history []string
		want    string // "" means no pattern: random
	}{
		{"no history", nil, ""},
		{"one move", []string{Even}, ""},
		{"streak of even", []string{Odd, Even, Even}, Odd},
		{"streak of odd", []string{Odd, Odd}, Even},
		{"alternation expects odd", []string{Even, Odd, Even}, Even},
		{"alternation expects even", []string{Even, Odd, Even, Odd}, Odd},
		{"two different moves are not yet a pattern", []string{Even, Odd}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := mustStrategy(t, "pattern", 4)
			feedOpponent(s, "P02", tt.history...)
			got := share(s, "P02", Even, 1000)
			switch tt.want {
			case "":
				if got < 0.4 || got > 0.6 {
					t.Errorf("without a pattern chose even %.2f of the time, want about 0.5", got)
				}
			case Even:
				if got != 1 {
					t.Errorf("chose even %.2f of the time, want always", got)
				}
			default:
				if got != 0 {
					t.Errorf("chose even %.2f of the time, want never", got)
				}
			}
		})
	}
}

func TestAdaptiveStrategy(t *testing.T) {
	s := mustStrategy(t, "adaptive", 6)
	if got := share(s, "P02", Even, 2000); got < 0.45 || got > 0.55 {
		t.Errorf("with no history adaptive chose even %.2f of the time, want about 0.5", got)
	}
	// Two observations: not enough to model P02, so it follows frequency
	// (Right was odd both times): odd about 0.8*0.7 + 0.2*0.5 = 0.66.
	feedOpponent(s, "P02", Odd, Odd)
	if got := share(s, "P02", Odd, 2000); got < 0.58 || got > 0.74 {
		t.Errorf("following frequency adaptive chose odd %.2f of the time, want about 0.66", got)
	}
	// From three observations on, it counters P02's odd: even about
	// 0.8 + 0.2*0.5 = 0.9.
	s = mustStrategy(t, "adaptive", 6)
	feedOpponent(s, "P02", Odd, Odd, Odd)
	if got := share(s, "P02", Even, 2000); got < 0.85 || got > 0.95 {
		t.Errorf("countering adaptive chose even %.2f of the time, want about 0.9", got)
	}
}

func TestObserveIgnoresRepeatedMatch(t *testing.T) {
	s := mustStrategy(t, "counter", 1)
	o := Observation{MatchID: "R1M1", OpponentID: "P02", OpponentMove: Even}
	s.Observe(o)
	s.Observe(Observation{MatchID: "R2M1", OpponentID: "P02", OpponentMove: Odd})
	s.Observe(o) // a repeated GAME_OVER must not count twice
	// One even, one odd, last odd: the tie goes to odd, so counter picks even.
	if got := s.Choose(ctxFor("R3M1", "P02")); got != Even {
		t.Errorf("Choose = %q, want %q", got, Even)
	}
}

func TestFrequencyWithoutAFavouriteIsRandom(t *testing.T) {
	s := mustStrategy(t, "frequency", 8)
	for i, right := range []string{Even, Odd, Odd, Even} {
		s.Observe(Observation{MatchID: fmt.Sprintf("old%d", i), Right: right})
	}
	if got := share(s, "P02", Even, 2000); got < 0.45 || got > 0.55 {
		t.Errorf("with tied history frequency chose even %.2f of the time, want about 0.5", got)
	}
}
