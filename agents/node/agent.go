package node

import (
	"context"
	"errors"
)

// Agent is the one lifecycle of every leaguetui agent process (manager,
// referee, player): Start, then Shutdown. cmd/leaguetui serves any Agent
// the same way, and a new role implements these two methods.
type Agent interface {
	// Start makes the agent ready. When it returns nil the agent listens
	// at its endpoint (and has printed ReadyListening), has registered
	// with its manager if its role registers (its identity is recorded,
	// saved and printed with ReadyRegistered), and takes work. ctx bounds
	// the start only: the agent's work runs on its lifetime (Lifetime),
	// which only Shutdown ends.
	Start(ctx context.Context) error
	// Shutdown ends the agent, whether Start succeeded or not, in the
	// order Stop documents: it stops taking work and cancels what is in
	// flight, waits for that to end, delivers what is queued for other
	// agents, stops serving, and closes its files. ctx bounds the waits.
	// A second call does nothing and returns the first one's error.
	Shutdown(ctx context.Context) error
}

// Stopping is what one role does at the steps of Stop that differ between
// roles; a nil step is skipped.
type Stopping struct {
	// Finish waits (at most until ctx ends) for the agent's work in flight
	// to end, once its lifetime is cancelled: a referee's matches, the
	// manager's league run.
	Finish func(ctx context.Context)
	// Deliver sends what is still queued for other agents: a referee's
	// match steps, the manager's notifications.
	Deliver func(ctx context.Context)
	// Close closes the agent's own files once it serves no more requests,
	// so that no request in flight writes to a closed one.
	Close func() error
}

// Stop is the one shutdown sequence of every agent, each role's Shutdown
// calls it with its own steps. In order: the lifetime is cancelled, so
// the agent takes no new work and its work in flight is cancelled;
// Finish waits for that work; Deliver sends what is queued; the server
// stops, waiting for requests in flight; Close closes the agent's files;
// the log is closed last, so every step before can still log. Only the
// first Stop does this; a later one returns the first one's error.
func (n *Node) Stop(ctx context.Context, s Stopping) error {
	n.stopOnce.Do(func() { n.stopErr = n.stop(ctx, s) })
	return n.stopErr
}

func (n *Node) stop(ctx context.Context, s Stopping) error {
	n.endLife()
	if s.Finish != nil {
		s.Finish(ctx)
	}
	if s.Deliver != nil {
		s.Deliver(ctx)
	}
	n.mu.RLock()
	l := n.listening
	n.mu.RUnlock()
	var err error
	if l != nil {
		err = l.Shutdown(ctx)
	}
	if s.Close != nil {
		err = errors.Join(err, s.Close())
	}
	n.Log.Info("stopped", "event_type", "SYSTEM_SHUTDOWN")
	return errors.Join(err, n.logFile.Close())
}

// Lifetime is the context of the agent's own work (matches, league runs,
// the calls they make): it lives from New until Stop, so a request that
// starts work which outlives it derives that work from here, not from
// the request, and Shutdown cancels it.
func (n *Node) Lifetime() context.Context { return n.life }

// ShuttingDown reports whether Stop has begun: the agent takes no new work.
func (n *Node) ShuttingDown() bool { return n.life.Err() != nil }

// AwaitDone waits until done is closed or ctx ends, for Stopping.Finish.
func AwaitDone(ctx context.Context, done <-chan struct{}) {
	select {
	case <-done:
	case <-ctx.Done():
	}
}
