package referee

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/leaguetui/leaguetui/agents/protocol"
	"github.com/leaguetui/leaguetui/config"
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

// TestStepsGoInOneMessage: the steps queued before a flush reach the
// manager in one MATCH_STEP, in order, the last of them also in the
// message's own fields for a manager that reads only those.
func TestStepsGoInOneMessage(t *testing.T) {
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
	select {
	case msg := <-got:
		if len(msg.Steps) != 1 || msg.Steps[0].Step != "turn 3" || msg.Steps[0].Detail != "at page 4" {
			t.Errorf("steps %+v", msg.Steps)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the step never reached the manager")
	}
}
