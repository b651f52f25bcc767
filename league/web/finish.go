package web

import (
	"context"
	"errors"
	"fmt"

	"github.com/leaguetui/leaguetui/engine"
)

// ErrNotOver is Finish's answer for a league that has not ended: it has
// no final standings yet.
var ErrNotOver = errors.New("web view: the league has not ended, so it has no final standings")

// Finish ends every open stream on the league's final standings: it reads
// them from the manager, waits until the view's feed has every event up
// to them, sends each stream a last event, "final", carrying them (after
// the league's events), and returns once every open stream has written
// it, or ctx ends. The page shows that table, marks the league final and
// stops reading, so it never says the manager is not answering once the
// manager stops. Call it when the league has ended (completed, or stopped
// by the admin) and before its manager stops; a league still under way
// is ErrNotOver, and nothing is sent. A stream that opens afterwards gets
// the same last event at once.
func (s *Server) Finish(ctx context.Context) error {
	if !s.watched() {
		return nil // no page has read the view: nothing to tell, and no feed to read
	}
	doc, err := s.ctl.Standings(ctx)
	if err != nil {
		return fmt.Errorf("web view: reading the final standings: %w", err)
	}
	if doc.State != engine.LeagueCompleted && doc.State != engine.LeagueStopped {
		return ErrNotOver
	}
	f := s.shared()
	if err := f.reached(ctx, doc.Version); err != nil {
		return fmt.Errorf("web view: the feed did not reach the final standings (event %d): %w", doc.Version, err)
	}
	frame := eventFrame("final", "", doc)
	if frame == nil {
		return errors.New("web view: the final standings cannot be encoded")
	}
	f.setFinal(frame)
	s.finish.Do(func() {
		if s.finished != nil {
			close(s.finished)
		}
	})
	return s.awaitDrained(ctx)
}

// watched says a stream is open now.
func (s *Server) watched() bool {
	s.openMu.Lock()
	defer s.openMu.Unlock()
	return s.open > 0
}

func (s *Server) streamOpened() {
	s.openMu.Lock()
	s.open++
	s.openMu.Unlock()
}

func (s *Server) streamClosed() {
	s.openMu.Lock()
	defer s.openMu.Unlock()
	s.open--
	if s.open == 0 && s.drained != nil {
		close(s.drained)
		s.drained = nil
	}
}

// awaitDrained waits until no stream is open (each has written the final
// standings, or its spectator left), or ctx ends.
func (s *Server) awaitDrained(ctx context.Context) error {
	s.openMu.Lock()
	if s.open == 0 {
		s.openMu.Unlock()
		return nil
	}
	if s.drained == nil {
		s.drained = make(chan struct{})
	}
	drained := s.drained
	s.openMu.Unlock()
	select {
	case <-drained:
		return nil
	case <-ctx.Done():
		s.openMu.Lock()
		left := s.open
		s.openMu.Unlock()
		return fmt.Errorf("web view: %d of its streams did not take the final standings: %w", left, ctx.Err())
	}
}
