package manager

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/leaguetui/leaguetui/config"
	"github.com/leaguetui/leaguetui/engine"
)

// A match's deadline is the time its referee may go without reporting a
// step, not the match's whole length: a referee that keeps reporting steps
// (a long game, one turn after another) keeps its match past many match
// deadlines and reports its result; one that goes silent loses it after
// one.
func TestMatchDeadlineCountsFromTheLastStep(t *testing.T) {
	cfg := config.Default()
	step := 100 * time.Millisecond
	cfg.Timeouts.JoinAck, cfg.Timeouts.Move, cfg.Timeouts.GameOver, cfg.Timeouts.Report, cfg.Timeouts.Generic = step, step, step, step, step
	cfg.Retry.Attempts = 1
	m, err := New(Options{Config: cfg, DataDir: t.TempDir(), AdminToken: "adm-progress-test"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { m.journal.Close() })
	deadline := m.matchDeadline()
	referee := engine.AgentInfo{ID: "REF01"}

	wait := func() (chan struct{}, <-chan error) {
		stepped, unwatch := m.progress.watch("R1M1")
		reported, done := make(chan struct{}), make(chan error, 1)
		go func() {
			defer unwatch()
			done <- m.awaitResult(context.Background(), "R1M1", referee, reported, stepped)
		}()
		return reported, done
	}

	reported, done := wait()
	for i := range 16 { // four match deadlines of play, a step every quarter of one
		select {
		case err := <-done:
			t.Fatalf("the wait ended after %d steps, %s apart (match deadline %s): %v", i, deadline/4, deadline, err)
		case <-time.After(deadline / 4): // the referee's pace
		}
		m.progress.made("R1M1")
	}
	close(reported)
	if err := <-done; err != nil {
		t.Fatalf("the result after steps: %v", err)
	}

	_, done = wait()
	select {
	case err := <-done:
		if err == nil || !strings.Contains(err.Error(), "within the match deadline") {
			t.Fatalf("a silent referee: %v", err)
		}
	case <-time.After(20 * deadline):
		t.Fatalf("a referee silent for %s still has its match", 20*deadline)
	}
}
