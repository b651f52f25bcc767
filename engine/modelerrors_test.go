package engine

import "testing"

// In a game that does not judge model errors itself (even/odd), a model
// player's declared error is its technical loss, with the seed's status.
func TestDeclaredModelErrorIsTechnicalLoss(t *testing.T) {
	for errorType, status := range map[string]string{ErrorRateLimit: RaceError, ErrorNoToolCall: RaceLostInvalidMove} {
		m := NewMatch(EvenOdd{}, "R1M1", "P01", "P02", 42)
		m.Joined("P01", true)
		m.Joined("P02", true)
		if err := m.Answered("P01", Answer{Error: errorType}); err != nil {
			t.Fatal(err)
		}
		if err := m.Answered("P02", Answer{Choice: "even"}); err != nil {
			t.Fatal(err)
		}
		o := m.Outcome()
		if !m.Done() || o.Status != StatusTechnicalLoss || o.Winner != "P02" || o.Statuses["P01"] != status ||
			len(o.Offenders) != 1 || o.Offenders[0] != "P01" {
			t.Errorf("%s: outcome %+v", errorType, o)
		}
	}
}

// A name outside the taxonomy is no declared error: the answer is judged
// as a move.
func TestUnknownErrorTypeIsJudgedAsAMove(t *testing.T) {
	m := NewMatch(EvenOdd{}, "R1M1", "P01", "P02", 42)
	m.Joined("P01", true)
	m.Joined("P02", true)
	if err := m.Answered("P01", Answer{Choice: "odd", Error: "ANYTHING"}); err != nil {
		t.Fatal(err)
	}
	if _, ok := ModelErrorStatus("ANYTHING"); ok {
		t.Error("ANYTHING has a status")
	}
}
