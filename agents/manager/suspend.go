package manager

import (
	"fmt"
	"strings"

	"github.com/leaguetui/leaguetui/engine"
)

// A player whose matches keep ending in its technical loss is suspended
// (config Suspension.AfterTechnicalLosses in a row): it is invited no more,
// and each of its remaining matches is scored at once as its technical
// loss, so the league does not wait out every timeout of a player that is
// gone. Registering again reinstates it (engine.League does that).

// suspendFailing suspends each player of a finished match whose technical
// losses in a row, as the offender, reached the configured number.
func (m *Manager) suspendFailing(matchID string) error {
	after := m.opts.Config.Suspension.AfterTechnicalLosses
	if after <= 0 {
		return nil
	}
	var events []engine.Event
	var refused error // a suspension the league refused: those staged before it stand
	err := m.journaled(func(b *batch) error {
		rec, _ := m.league.Match(matchID)
		for _, id := range []string{rec.PlayerA, rec.PlayerB} {
			streak := m.league.FailureStreak(id)
			if rec.Result == nil || streak < after || m.league.Suspended(id) {
				continue
			}
			ev, err := b.stage(engine.Event{Kind: engine.EventPlayerSuspended, Round: rec.Round, AgentID: id,
				Detail: fmt.Sprintf("%s suspended after %d technical losses in a row", id, streak)})
			if err != nil {
				refused = err
				break
			}
			events = append(events, ev)
		}
		return nil
	})
	if err != nil {
		return err
	}
	for _, ev := range events {
		m.Log.Warn("player suspended", "event_type", "PLAYER_SUSPENDED", "player_id", ev.AgentID, "reason", ev.Detail)
	}
	if len(events) > 0 {
		m.writeStandings()
	}
	return refused
}

// A referee that keeps taking matches and reporting none (its match
// deadlines pass, or it goes away) is suspended too (config
// Suspension.AfterMissedReports in a row; engine.League.SilentReferee): it
// is given no more matches, and those waiting for it or running on it go
// to the other referees at once. The last referee in play is never
// suspended. Registering again reinstates it.

// suspendSilent suspends referee when the matches in a row it missed
// reached the configured number, and tells the feed, the log and the
// matches waiting for it. "" is no referee.
func (m *Manager) suspendSilent(referee string) error {
	after := m.opts.Config.Suspension.AfterMissedReports
	var ev engine.Event
	var missed int
	silent := false
	err := m.journaled(func(b *batch) (err error) {
		if referee == "" || !m.league.SilentReferee(referee, after) || m.reportedLately(referee) {
			return nil
		}
		silent, missed = true, m.league.MissedReports(referee)
		detail := fmt.Sprintf("referee %s suspended after %d matches in a row without a report; its matches go to the other referees",
			referee, missed)
		if said := m.startRefusal(referee); said != "" {
			detail += "; it refused start_match: " + said // the why of a referee that answers start_match with an error
		}
		ev, err = b.stage(engine.Event{Kind: engine.EventRefereeSuspended, Round: m.league.CurrentRound(), AgentID: referee,
			Detail: detail})
		return err
	})
	if err != nil || !silent {
		return err
	}
	m.Log.Warn("referee suspended", "event_type", "REFEREE_SUSPENDED", "referee_id", referee, "missed_reports", missed,
		"reason", ev.Detail)
	m.mu.Lock()
	if ch, ok := m.benched[referee]; ok {
		close(ch)
		delete(m.benched, referee)
	}
	m.mu.Unlock()
	return nil
}

// suspension is closed once referee is suspended: what a match waiting
// for it, or running on it, leaves it for.
func (m *Manager) suspension(referee string) <-chan struct{} {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.league.Suspended(referee) {
		return closedChan
	}
	ch, ok := m.benched[referee]
	if !ok {
		ch = make(chan struct{})
		m.benched[referee] = ch
	}
	return ch
}

// closedChan is a channel that is closed.
var closedChan = func() chan struct{} { ch := make(chan struct{}); close(ch); return ch }()

// forfeitSuspended scores a match with a suspended player at once, without a
// referee: a technical loss for each suspended player (both: a double
// technical loss, no winner). It reports whether it did.
func (m *Manager) forfeitSuspended(p engine.Pairing) (bool, error) {
	var ev engine.Event
	forfeited := false
	err := m.journaled(func(b *batch) (err error) {
		var r engine.Result
		if r, forfeited = m.forfeit(p); !forfeited {
			return nil
		}
		ev, err = b.stage(engine.Event{Kind: engine.EventMatchResult, Round: p.Round, MatchID: p.MatchID,
			Result: &r, Detail: strings.Join(r.Offenders, " and ") + " suspended"})
		return err
	})
	if err != nil || !forfeited {
		return false, err
	}
	m.Log.Info("match scored without playing", "event_type", "MATCH_FORFEITED", "match_id", p.MatchID,
		"offenders", ev.Result.Offenders, "winner", ev.Result.Winner, "seq", ev.Seq)
	m.writeStandings()
	return true, nil
}

// forfeit is the result of a match with a suspended player, and whether
// it has one. Call with m.mu held.
func (m *Manager) forfeit(p engine.Pairing) (engine.Result, bool) {
	var offenders []string
	for _, id := range []string{p.PlayerA, p.PlayerB} {
		if m.league.Suspended(id) {
			offenders = append(offenders, id)
		}
	}
	if len(offenders) == 0 {
		return engine.Result{}, false
	}
	r := engine.Result{MatchID: p.MatchID, Round: p.Round, PlayerA: p.PlayerA, PlayerB: p.PlayerB,
		Status: engine.StatusTechnicalLoss, Offenders: offenders}
	if len(offenders) == 1 {
		r.Winner = p.PlayerA
		if offenders[0] == p.PlayerA {
			r.Winner = p.PlayerB
		}
	}
	return r, true
}
