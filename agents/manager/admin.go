package manager

import (
	"context"
	"errors"
	"fmt"

	"github.com/leaguetui/leaguetui/agents/protocol"
	"github.com/leaguetui/leaguetui/agents/rpc"
	"github.com/leaguetui/leaguetui/engine"
)

// adminRequest decodes an admin message and checks its envelope, as for
// every message to the manager, and the admin token.
func (m *Manager) adminRequest(in protocol.Inbound) (protocol.Envelope, error) {
	var env protocol.Envelope
	if err := rpc.DecodeParams(in, &env); err != nil {
		return env, err
	}
	if err := checkEnvelope(env); err != nil {
		return env, err
	}
	if env.AuthToken == "" {
		return env, protocol.Reject(protocol.CodeAuthTokenMissing, "%s needs the admin token", in.Method)
	}
	if !m.isAdmin(env.AuthToken) {
		return env, protocol.Reject(protocol.CodeAuthTokenInvalid, "%s needs the admin token", in.Method)
	}
	return env, nil
}

// handleStartLeague is the admin's start: it fixes the seed and the
// schedule, then plays the league in the background.
func (m *Manager) handleStartLeague(_ context.Context, in protocol.Inbound) (any, error) {
	env, err := m.adminRequest(in)
	if err != nil {
		return nil, err
	}
	if m.ShuttingDown() {
		return nil, protocol.NewRPCError(protocol.CodeInvalidRequest, "", "the manager is shutting down")
	}
	if err := m.startLeague(); err != nil {
		return nil, protocol.NewRPCError(protocol.CodeInvalidRequest, "", "%v", err)
	}
	m.startRunning(m.Lifetime()) // the run outlives this request; Shutdown ends it
	return &protocol.Ack{Envelope: m.reply("LEAGUE_STARTED", env), Status: "started"}, nil
}

// handlePause stops new matches from starting; running ones finish.
func (m *Manager) handlePause(_ context.Context, in protocol.Inbound) (any, error) {
	return m.adminEvent(in, engine.EventPaused, "paused")
}

// handleResume lets a paused league carry on.
func (m *Manager) handleResume(_ context.Context, in protocol.Inbound) (any, error) {
	return m.adminEvent(in, engine.EventResumed, "resumed")
}

// handleStop ends the league: matches still running are abandoned and
// recorded as unfinished (they have no result in the journal).
// Their files, when their referees have written them, are marked
// abandoned (see abandonFiles).
func (m *Manager) handleStop(_ context.Context, in protocol.Inbound) (any, error) {
	var running []string
	reply, err := m.adminEventAfter(in, engine.EventStopped, "stopped", func() { running = m.league.RunningIDs() })
	if err == nil {
		m.mu.Lock()
		cancel := m.cancelRun
		m.mu.Unlock()
		cancel()
		m.abandonFiles(running)
	}
	return reply, err
}

func (m *Manager) adminEvent(in protocol.Inbound, kind engine.EventKind, status string) (any, error) {
	return m.adminEventAfter(in, kind, status, func() {})
}

// adminEventAfter is adminEvent that calls before under m.mu just before
// the event is applied: to read the league as the event finds it.
func (m *Manager) adminEventAfter(in protocol.Inbound, kind engine.EventKind, status string, before func()) (any, error) {
	env, err := m.adminRequest(in)
	if err != nil {
		return nil, err
	}
	err = m.journaled(func(b *batch) error {
		before()
		if _, err := b.stage(engine.Event{Kind: kind, Detail: "by the admin"}); err != nil {
			return err
		}
		if kind == engine.EventResumed {
			close(m.resumed)
			m.resumed = make(chan struct{})
		}
		return nil
	})
	if err != nil {
		return nil, protocol.NewRPCError(protocol.CodeInvalidRequest, "", "%v", err)
	}
	m.Log.Info("league "+status, "event_type", "LEAGUE_"+fmt.Sprint(kind))
	return &protocol.Ack{Envelope: m.reply("LEAGUE_"+in.MessageType+"_ACK", env), Status: status}, nil
}

// errLeagueStopped is awaitRunning's error once the league is stopped.
var errLeagueStopped = errors.New("league stopped")

// awaitRunning blocks while the league is paused; it fails once the league
// is stopped.
func (m *Manager) awaitRunning(ctx context.Context) error {
	for {
		m.mu.Lock()
		state, resumed := m.league.State, m.resumed
		m.mu.Unlock()
		switch state {
		case engine.LeagueRunning:
			return nil
		case engine.LeagueStopped:
			return errLeagueStopped
		}
		select {
		case <-resumed:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}
