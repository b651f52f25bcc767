package referee

import (
	"context"
	"encoding/json"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/leaguetui/leaguetui/agents/protocol"
	"github.com/leaguetui/leaguetui/config"
	"github.com/leaguetui/leaguetui/engine"
	"github.com/leaguetui/leaguetui/internal/leaguetest"
)

// stepsManager is a fake manager that hands each MATCH_STEP it receives to
// the test.
func stepsManager(t *testing.T) (*leaguetest.Peer, <-chan protocol.MatchStep) {
	got := make(chan protocol.MatchStep, 16)
	peer := leaguetest.NewPeer(t, func(req leaguetest.PeerRequest) (int, []byte) {
		raw, _ := json.Marshal(req.Params)
		var msg protocol.MatchStep
		if err := json.Unmarshal(raw, &msg); err != nil || msg.MessageType != protocol.TypeMatchStep {
			return 200, leaguetest.ErrorReply(req.ID, protocol.CodeMethodNotFound, "not a match step")
		}
		got <- msg
		return 200, leaguetest.ResultReply(req.ID, map[string]string{"status": "ok"})
	})
	return peer, got
}

func newStepsReferee(t *testing.T, managerURL string) *Referee {
	r, err := New(Options{Config: config.Default(), DataDir: t.TempDir(), ManagerURL: managerURL, Name: "REF01"})
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// refereeWithTwoMatchesSteps is a referee that has queued steps of two
// matches, interleaved, for a fake manager: it returns them too.
func refereeWithTwoMatchesSteps(t *testing.T) (*Referee, <-chan protocol.MatchStep, []protocol.StepEntry) {
	manager, got := stepsManager(t)
	r := newStepsReferee(t, manager.Endpoint)
	steps := []protocol.StepEntry{
		{RoundID: 1, MatchID: "R1M1", Step: "invited"},
		{RoundID: 1, MatchID: "R1M2", Step: "invited"},
		{RoundID: 1, MatchID: "R1M1", Step: "joined"},
		{RoundID: 1, MatchID: "R1M1", Step: "decided", Detail: "sum 7"},
	}
	for _, s := range steps {
		r.steps.post(s)
	}
	return r, got, steps
}

// TestStepsGoInOneMessage: the steps queued before a flush reach the
// manager in one MATCH_STEP, in order, the last of them also in the
// message's own fields for a manager that reads only those.
func TestStepsGoInOneMessage(t *testing.T) {
	r, got, steps := refereeWithTwoMatchesSteps(t)
	r.steps.flush(context.Background())
	select {
	case msg := <-got:
		if len(msg.Steps) != len(steps) {
			t.Fatalf("%d steps in the message, want %d: %+v", len(msg.Steps), len(steps), msg.Steps)
		}
		for i := range steps {
			if msg.Steps[i] != steps[i] {
				t.Errorf("step %d = %+v, want %+v", i, msg.Steps[i], steps[i])
			}
		}
		if msg.MatchID != "R1M1" || msg.RoundID != 1 || msg.Step != "decided" || msg.Detail != "sum 7" {
			t.Errorf("the message's own fields %q %d %q %q are not the last step", msg.MatchID, msg.RoundID, msg.Step, msg.Detail)
		}
	default:
		t.Fatal("flush returned before the manager had the steps")
	}
	select {
	case msg := <-got:
		t.Errorf("a second message after the flush: %+v", msg)
	case <-time.After(2 * stepBatchWindow):
	}
}

// TestStepsGoWithinTheWindow: a step nobody flushes still reaches the
// manager, once the batching window ends.
func TestStepsGoWithinTheWindow(t *testing.T) {
	manager, got := stepsManager(t)
	r := newStepsReferee(t, manager.Endpoint)
	r.steps.post(protocol.StepEntry{RoundID: 2, MatchID: "R2M1", Step: "turn 3", Detail: "at page 4"})
	if msg := windowSent(t, got); len(msg.Steps) != 1 || msg.Steps[0].Step != "turn 3" || msg.Steps[0].Detail != "at page 4" {
		t.Errorf("steps %+v", msg.Steps)
	}
}

// windowSent waits for the MATCH_STEP the batching window sends.
func windowSent(t *testing.T, got <-chan protocol.MatchStep) protocol.MatchStep {
	t.Helper()
	select {
	case msg := <-got:
		return msg
	case <-time.After(10 * time.Second):
		t.Fatal("the step never reached the manager")
		return protocol.MatchStep{}
	}
}

// TestTakeLeavesOtherMatchesSteps: a match's report takes its own queued
// steps, in order, without a MATCH_STEP; the other matches' steps stay
// queued and still go when the window ends.
func TestTakeLeavesOtherMatchesSteps(t *testing.T) {
	r, got, steps := refereeWithTwoMatchesSteps(t)
	own := r.steps.take(context.Background(), "R1M1")
	if want := []protocol.StepEntry{steps[0], steps[2], steps[3]}; !slices.Equal(own, want) {
		t.Errorf("take gave %+v, want %+v", own, want)
	}
	if msg := windowSent(t, got); len(msg.Steps) != 1 || msg.Steps[0] != steps[1] {
		t.Errorf("the window sent %+v, want only R1M2's step", msg.Steps)
	}
}

// TestTakeSendsTheOldestBeyondOneMessage: beyond what one message may
// carry, the oldest of a match's steps go by MATCH_STEP before take
// returns, and the report gets the rest, so the order holds.
func TestTakeSendsTheOldestBeyondOneMessage(t *testing.T) {
	manager, got := stepsManager(t)
	r := newStepsReferee(t, manager.Endpoint)
	const extra = 3
	for i := range protocol.MaxStepsPerMessage + extra {
		r.steps.post(protocol.StepEntry{RoundID: 1, MatchID: "R1M1", Step: engine.TurnStep(i + 1)})
	}
	own := r.steps.take(context.Background(), "R1M1")
	select {
	case msg := <-got:
		if len(msg.Steps) != extra || msg.Steps[0].Step != engine.TurnStep(1) || msg.Steps[extra-1].Step != engine.TurnStep(extra) {
			t.Errorf("MATCH_STEP before the report carried %+v, want the %d oldest steps", msg.Steps, extra)
		}
	default:
		t.Fatal("take returned before the oldest steps reached the manager")
	}
	if len(own) != protocol.MaxStepsPerMessage || own[0].Step != engine.TurnStep(extra+1) {
		t.Errorf("take kept %d steps from %q, want %d from %q", len(own), own[0].Step, protocol.MaxStepsPerMessage, engine.TurnStep(extra+1))
	}
}

// TestTakeWaitsForTheBatchOnTheWire: a batch the window sent before the
// match ended is answered before take returns, so the report cannot
// overtake the match's earlier steps.
func TestTakeWaitsForTheBatchOnTheWire(t *testing.T) {
	arrived, release := make(chan struct{}), make(chan struct{})
	var answered atomic.Bool
	var first sync.Once
	manager := leaguetest.NewPeer(t, func(req leaguetest.PeerRequest) (int, []byte) {
		first.Do(func() { close(arrived) })
		<-release
		answered.Store(true)
		return 200, leaguetest.ResultReply(req.ID, map[string]string{"status": "ok"})
	})
	r := newStepsReferee(t, manager.Endpoint)
	// This test sends by hand: as if a timer were set, so that none is,
	// and none competes with take.
	postUntimed := func(step protocol.StepEntry) {
		r.steps.mu.Lock()
		r.steps.armed = true
		r.steps.mu.Unlock()
		r.steps.post(step)
	}
	postUntimed(protocol.StepEntry{RoundID: 1, MatchID: "R1M1", Step: "invited"})
	go r.steps.flush(context.Background())
	<-arrived // the batch is on the wire
	postUntimed(protocol.StepEntry{RoundID: 1, MatchID: "R1M1", Step: "joined"})
	taken := make(chan []protocol.StepEntry)
	go func() { taken <- r.steps.take(context.Background(), "R1M1") }()
	select {
	case own := <-taken:
		t.Fatalf("take returned %+v while the earlier batch was unanswered", own)
	case <-time.After(stepBatchWindow):
	}
	close(release)
	select {
	case own := <-taken:
		if !answered.Load() || len(own) != 1 || own[0].Step != "joined" {
			t.Errorf("take gave %+v, the earlier batch answered: %v", own, answered.Load())
		}
	case <-time.After(10 * time.Second):
		t.Fatal("take never returned")
	}
}
