package referee

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/leaguetui/leaguetui/agents/protocol"
	"github.com/leaguetui/leaguetui/agents/rpc"
)

// stepBatchWindow is how long a match step waits for others before the
// referee sends what it holds. The console, the steps' only reader, shows
// them far slower than matches move, so one exchange per step would cost
// the league a third of its exchanges for nothing anyone sees.
const stepBatchWindow = 100 * time.Millisecond

// stepBatcher sends a referee's match steps to the manager in batches, one
// MATCH_STEP holding every step queued since the last, when the window
// ends. A match's steps still queued when its result is reported ride in
// the report itself (take), which the manager applies before the result:
// it has all of a match's steps before its result, and a match shorter
// than the window costs no MATCH_STEP at all.
type stepBatcher struct {
	r       *Referee
	mu      sync.Mutex // guards queue and armed
	queue   []protocol.StepEntry
	armed   bool       // a timer will send the queue
	sending sync.Mutex // one batch on the wire at a time, so batches arrive in order
}

// post queues a step and makes sure a send follows within the window. A
// manager that issued this referee no manager_key is another
// implementation's: MATCH_STEP is ours alone, and it would refuse every
// one (and a report carrying them would bring it fields it does not
// know), so it is sent no step.
func (b *stepBatcher) post(step protocol.StepEntry) {
	if b.r.ManagerIssuedNoKey() {
		return
	}
	b.mu.Lock()
	b.queue = append(b.queue, step)
	arm := !b.armed
	b.armed = true
	b.mu.Unlock()
	if arm {
		time.AfterFunc(stepBatchWindow, func() { b.flush(context.Background()) })
	}
}

// flush sends every queued step now and returns when the manager has
// answered (or the call failed, which is logged: steps never hold up a
// match).
func (b *stepBatcher) flush(ctx context.Context) {
	b.sending.Lock()
	defer b.sending.Unlock()
	b.mu.Lock()
	batch := b.queue
	b.queue, b.armed = nil, false
	b.mu.Unlock()
	b.sendAll(ctx, batch)
}

// take removes the match's queued steps, for its result report to carry,
// once every batch already on the wire has been answered, so that the
// manager still gets the match's steps in the order they happened. It
// takes this match's steps only, not the whole queue: the manager drops
// the steps of a match that has its result, so a retried report cannot
// bring them twice, which it could for other matches' steps; and other
// matches' steps keep their window, whatever becomes of this report.
// Beyond what one message may carry, the oldest go by MATCH_STEP first.
func (b *stepBatcher) take(ctx context.Context, matchID string) []protocol.StepEntry {
	b.sending.Lock()
	defer b.sending.Unlock()
	b.mu.Lock()
	var own, others []protocol.StepEntry
	for _, step := range b.queue {
		if step.MatchID == matchID {
			own = append(own, step)
		} else {
			others = append(others, step)
		}
	}
	b.queue = others // still armed if not empty: the window sends them
	b.mu.Unlock()
	if over := len(own) - protocol.MaxStepsPerMessage; over > 0 {
		b.sendAll(ctx, own[:over])
		own = own[over:]
	}
	return own
}

// sendAll sends steps in as few MATCH_STEP messages as they fit in, in order.
func (b *stepBatcher) sendAll(ctx context.Context, steps []protocol.StepEntry) {
	for len(steps) > 0 {
		n := min(len(steps), protocol.MaxStepsPerMessage)
		b.send(ctx, steps[:n])
		steps = steps[n:]
	}
}

func (b *stepBatcher) send(ctx context.Context, steps []protocol.StepEntry) {
	last := steps[len(steps)-1]
	msg := &protocol.MatchStep{Envelope: b.r.Envelope(protocol.TypeMatchStep, fmt.Sprintf("conv-%s-steps", last.MatchID)),
		Step: last.Step, Detail: last.Detail, Steps: steps}
	msg.RoundID, msg.MatchID = last.RoundID, last.MatchID
	call := rpc.Call{Endpoint: b.r.opts.ManagerURL, Message: encodedOnce(msg), Timeout: b.r.opts.Config.Timeouts.Generic}
	if _, err := b.r.Client.Send(ctx, call); err != nil {
		b.r.Log.Warn("match steps not delivered", "event_type", "NOTIFICATION_FAILED", "steps", len(steps), "err", err)
	}
}
