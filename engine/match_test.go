package engine

import (
	"errors"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
)

// newTestMatch starts an even/odd match R1M1 between P01 and P02.
func newTestMatch() *Match {
	return NewMatch(EvenOdd{}, "R1M1", "P01", "P02", 42)
}

// step is one call the referee makes on a match.
type step func(m *Match) error

func join(p string, ok bool) step {
	return func(m *Match) error { m.Joined(p, ok); return nil }
}

func fail(p, reason string) step {
	return func(m *Match) error { m.Failed(p, reason); return nil }
}

func move(p, raw string) step {
	return func(m *Match) error { return m.Moved(p, raw) }
}

// run applies steps in order and fails the test on an unexpected error.
func run(t *testing.T, m *Match, steps ...step) {
	t.Helper()
	for i, s := range steps {
		if err := s(m); err != nil {
			t.Fatalf("step %d: %v", i, err)
		}
	}
}

func TestMatchNormalFlow(t *testing.T) {
	m := newTestMatch()
	checkState(t, m, StateWaitingForPlayers, []string{"P01", "P02"})
	run(t, m, join("P02", true))
	checkState(t, m, StateWaitingForPlayers, []string{"P01"})
	run(t, m, join("P01", true))
	checkState(t, m, StateCollectingMoves, []string{"P01", "P02"})
	run(t, m, move("P01", " Even "))
	checkState(t, m, StateCollectingMoves, []string{"P02"})
	run(t, m, move("P02", "ODD"))
	checkState(t, m, StateFinished, nil)

	o := m.Outcome()
	d := EvenOdd{}.Decide(Even, Odd, MatchRand(42, "R1M1", "draw"))
	wantStatus, wantWinner := StatusWin, "P01"
	if d.Winner == SideB {
		wantWinner = "P02"
	}
	if o.Status != wantStatus || o.Winner != wantWinner {
		t.Errorf("Status, Winner = %s, %q; want %s, %q", o.Status, o.Winner, wantStatus, wantWinner)
	}
	if len(o.Offenders) != 0 {
		t.Errorf("Offenders = %v, want none", o.Offenders)
	}
	if want := map[string]string{"P01": Even, "P02": Odd}; !reflect.DeepEqual(o.Moves, want) {
		t.Errorf("Moves = %v, want %v", o.Moves, want)
	}
	if !reflect.DeepEqual(o.Details, d.Details) || o.Right != d.Right {
		t.Errorf("Details, Right = %v, %q; want %v, %q", o.Details, o.Right, d.Details, d.Right)
	}
	for _, part := range []string{"P01", "P02", d.Reason, wantWinner + " wins"} {
		if !strings.Contains(o.Reason, part) {
			t.Errorf("Reason %q lacks %q", o.Reason, part)
		}
	}
}

func TestMatchSameChoicesDraw(t *testing.T) {
	m := newTestMatch()
	run(t, m, join("P01", true), join("P02", true), move("P01", "odd"), move("P02", "odd"))
	o := m.Outcome()
	if o.Status != StatusDraw || o.Winner != "" || !strings.HasSuffix(o.Reason, "draw") {
		t.Errorf("Outcome = %+v, want a draw", o)
	}
}

func TestMatchTechnicalLosses(t *testing.T) {
	tests := []struct {
		name          string
		steps         []step
		wantWinner    string
		wantOffenders []string
		wantMoves     map[string]string
		wantReason    []string
	}{
		{
			name:          "A declines",
			steps:         []step{join("P01", false), join("P02", true)},
			wantWinner:    "P02",
			wantOffenders: []string{"P01"},
			wantMoves:     map[string]string{},
			wantReason:    []string{"P01: declined the invitation"},
		},
		{
			name:          "B fails join",
			steps:         []step{join("P01", true), fail("P02", "timed out")},
			wantWinner:    "P01",
			wantOffenders: []string{"P02"},
			wantMoves:     map[string]string{},
			wantReason:    []string{"P02: timed out"},
		},
		{
			name:          "both fail join",
			steps:         []step{fail("P02", "connection refused"), join("P01", false)},
			wantWinner:    "",
			wantOffenders: []string{"P01", "P02"},
			wantMoves:     map[string]string{},
			wantReason:    []string{"P01: declined the invitation", "P02: connection refused"},
		},
		{
			name: "A fails during moves",
			steps: []step{join("P01", true), join("P02", true),
				fail("P01", "invalid move after 3 attempts"), move("P02", "even")},
			wantWinner:    "P02",
			wantOffenders: []string{"P01"},
			wantMoves:     map[string]string{"P02": Even},
			wantReason:    []string{"P01: invalid move after 3 attempts"},
		},
		{
			name: "both fail during moves",
			steps: []step{join("P01", true), join("P02", true),
				fail("P02", "timed out"), fail("P01", "")},
			wantWinner:    "",
			wantOffenders: []string{"P01", "P02"},
			wantMoves:     map[string]string{},
			wantReason:    []string{"P01: failed", "P02: timed out"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := newTestMatch()
			run(t, m, tt.steps...)
			checkState(t, m, StateFinished, nil)
			o := m.Outcome()
			if o.Status != StatusTechnicalLoss || o.Winner != tt.wantWinner {
				t.Errorf("Status, Winner = %s, %q; want %s, %q", o.Status, o.Winner, StatusTechnicalLoss, tt.wantWinner)
			}
			if !reflect.DeepEqual(o.Offenders, tt.wantOffenders) {
				t.Errorf("Offenders = %v, want %v", o.Offenders, tt.wantOffenders)
			}
			if !reflect.DeepEqual(o.Moves, tt.wantMoves) {
				t.Errorf("Moves = %v, want %v", o.Moves, tt.wantMoves)
			}
			if o.Details != nil || o.Right != "" {
				t.Errorf("Details, Right = %v, %q; want nil, empty", o.Details, o.Right)
			}
			for _, part := range tt.wantReason {
				if !strings.Contains(o.Reason, part) {
					t.Errorf("Reason %q lacks %q", o.Reason, part)
				}
			}
		})
	}
}

func TestMatchInvalidMoveLeavesStateUnchanged(t *testing.T) {
	m := newTestMatch()
	run(t, m, join("P01", true), join("P02", true))
	for _, raw := range []string{"x", "", "evenodd"} {
		err := m.Moved("P01", raw)
		if !errors.Is(err, ErrInvalidMove) {
			t.Errorf("Moved(P01, %q) = %v, want ErrInvalidMove", raw, err)
		}
	}
	checkState(t, m, StateCollectingMoves, []string{"P01", "P02"})
	run(t, m, move("P01", "even"), move("P02", "even")) // a retry still works
	checkState(t, m, StateFinished, nil)
}

func TestMatchIgnoresCallsOutOfTurn(t *testing.T) {
	tests := []struct {
		name    string
		setup   []step
		call    func(m *Match) error
		wantErr error
	}{
		{"move while waiting", nil, move("P01", "even"), ErrWrongState},
		{"move by unknown player", []step{join("P01", true), join("P02", true)}, move("P99", "even"), ErrUnknownPlayer},
		{"second move", []step{join("P01", true), join("P02", true), move("P01", "even")}, move("P01", "odd"), ErrAlreadyAnswered},
		{"move after finish", []step{join("P01", false), join("P02", false)}, move("P01", "even"), ErrWrongState},
		{"join by unknown player", nil, join("P99", false), nil},
		{"second join", []step{join("P01", true)}, join("P01", false), nil},
		{"join while collecting", []step{join("P01", true), join("P02", true)}, join("P01", false), nil},
		{"join after finish", []step{join("P01", false), join("P02", true)}, join("P02", false), nil},
		{"failure of unknown player", []step{join("P01", true)}, fail("P99", "timed out"), nil},
		{"failure after a move", []step{join("P01", true), join("P02", true), move("P02", "odd")}, fail("P02", "timed out"), nil},
		{"failure after finish", []step{join("P01", false), join("P02", true)}, fail("P02", "timed out"), nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := newTestMatch()
			run(t, m, tt.setup...)
			state, pending, outcome := m.State(), m.Pending(), m.Outcome()
			if err := tt.call(m); !errors.Is(err, tt.wantErr) {
				t.Errorf("error = %v, want %v", err, tt.wantErr)
			}
			if m.State() != state || !reflect.DeepEqual(m.Pending(), pending) || !reflect.DeepEqual(m.Outcome(), outcome) {
				t.Errorf("call changed the match: state %s -> %s, pending %v -> %v", state, m.State(), pending, m.Pending())
			}
		})
	}
}

func TestMatchDeterminism(t *testing.T) {
	play := func(id string, seed int64) Outcome {
		m := NewMatch(EvenOdd{}, id, "P01", "P02", seed)
		run(t, m, join("P01", true), join("P02", true), move("P02", "odd"), move("P01", "even"))
		return m.Outcome()
	}
	if a, b := play("R2M1", 9), play("R2M1", 9); !reflect.DeepEqual(a, b) {
		t.Errorf("same seed and id gave %+v and %+v", a, b)
	}
	// Over many ids the draws differ, so the id really feeds the draw.
	numbers := map[any]bool{}
	for _, id := range []string{"R1M1", "R1M2", "R2M1", "R2M2", "R3M1", "R3M2", "R4M1", "R4M2"} {
		numbers[play(id, 9).Details["drawn_number"]] = true
	}
	if len(numbers) < 2 {
		t.Errorf("8 match ids all drew %v", numbers)
	}
}

func TestMatchAccessors(t *testing.T) {
	m := newTestMatch()
	if m.ID() != "R1M1" || m.Game().Type() != EvenOddType || m.Players() != [2]string{"P01", "P02"} || m.Done() {
		t.Errorf("accessors: %s %s %v %v", m.ID(), m.Game().Type(), m.Players(), m.Done())
	}
	if !reflect.DeepEqual(m.Outcome(), Outcome{}) {
		t.Errorf("Outcome before Done = %+v, want zero", m.Outcome())
	}
}

// echoGame is a made-up game: three options, A wins unless B copies A.
// It shows the match machine does not depend on even/odd.
type echoGame struct{}

func (echoGame) Type() string              { return "echo" }
func (g echoGame) Start(s MatchSetup) Play { return OneMove(g, s) }
func (echoGame) MoveType() string          { return "choose_letter" }
func (echoGame) Options() []string         { return []string{"a", "b", "c"} }
func (echoGame) Normalize(raw string) (string, bool) {
	m := strings.TrimSpace(raw)
	return m, m == "a" || m == "b" || m == "c"
}
func (echoGame) Decide(a, b string, _ *rand.Rand) Decision {
	if a == b {
		return Decision{Winner: SideB, Reason: "B echoed A"}
	}
	return Decision{Winner: SideA, Reason: "B did not echo A"}
}

func TestMatchWithAnotherGame(t *testing.T) {
	m := NewMatch(echoGame{}, "R1M1", "X", "Y", 1)
	run(t, m, join("X", true), join("Y", true), move("Y", "c"), move("X", "c"))
	if o := m.Outcome(); o.Status != StatusWin || o.Winner != "Y" {
		t.Errorf("Outcome = %+v, want Y wins", o)
	}
}

// checkState checks a match's state and pending players.
func checkState(t *testing.T, m *Match, state MatchState, pending []string) {
	t.Helper()
	if m.State() != state {
		t.Errorf("State() = %s, want %s", m.State(), state)
	}
	if got := m.Pending(); !reflect.DeepEqual(got, pending) {
		t.Errorf("Pending() = %v, want %v", got, pending)
	}
	if m.Done() != (state == StateFinished) {
		t.Errorf("Done() = %v in state %s", m.Done(), state)
	}
}
