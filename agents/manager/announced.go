package manager

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/leaguetui/leaguetui/agents/protocol"
	"github.com/leaguetui/leaguetui/agents/rpc"
	"github.com/leaguetui/leaguetui/engine"
)

// Referees of other implementations may take their matches from the round
// announcement, as league.v2 describes, rather than from our start_match:
// they answer start_match with -32601 (method not found), or registered
// without match tickets (they send our players none, so they cannot be
// ours). One that refuses start_match in another form, startMatchRefusals
// times in a row, is taken for one that declines it. For all, the
// announced assignment stands: the report of a match
// announced to the referee is taken, even when the match was handed to
// another meanwhile; and the matches of one that declined start_match are
// not handed to a referee that never heard of them, but waited for again,
// with growing delays. A referee that reports, even a report refused, is
// never suspended as silent. These facts are kept in memory: a restarted
// manager announces the round again, and hears the referees again.

// announcedBy keeps, per match of the rounds announced, the referee the
// announcement named, and which referees run matches from announcements.
type announcedBy struct {
	referee          map[string]string    // match id -> referee id announced
	fromAnnouncement map[string]bool      // referee id -> takes its matches from the announcement
	lastReport       map[string]time.Time // referee id -> when it last sent a report
	ticketless       map[string]bool      // referee id -> registered without match tickets
	refusals         map[string]*startRefusals
}

// startRefusals are a referee's refusals of start_match in a row, in
// other forms than -32601: a JSON-RPC error of any other code, or a
// LEAGUE_ERROR.
type startRefusals struct {
	streak   int
	last     string // the last refusal, as the referee said it (bounded, printable)
	declined bool   // startMatchRefusals in a row: taken as a referee that declines start_match
}

// startMatchRefusals is how many refusals of start_match in a row make a
// referee one that declines it. A referee of another implementation that
// answers our start_match with "unknown message type" (-32000, -32602, a
// LEAGUE_ERROR) was sent every match again at every pass over the
// referees, for as long as the league waited; one of ours may refuse a
// match or two that it is already running, or one over its
// max_concurrent_matches after its manager restarted. The refusals are
// forgotten when the referee sends a report the league authenticates, or
// registers again: it has shown it plays.
const startMatchRefusals = 3

// noteTicketless marks a referee that registered without match tickets:
// not one of ours, it may run the matches announced to it without
// waiting for start_match, and its reports of them are taken.
func (m *Manager) noteTicketless(refereeID string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.announced.ticketless == nil {
		m.announced.ticketless = map[string]bool{}
	}
	m.announced.ticketless[refereeID] = true
}

// noteAnnounced records the referees a round announcement names. Call
// with m.mu held.
func (m *Manager) noteAnnounced(assigned []assignment) {
	if m.announced.referee == nil {
		m.announced.referee = map[string]string{}
	}
	for _, a := range assigned {
		m.announced.referee[a.MatchID] = a.Referee.ID
	}
}

// noteAnnouncementDriven marks a referee as one that takes its matches
// from the round announcement.
func (m *Manager) noteAnnouncementDriven(refereeID string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.announced.fromAnnouncement == nil {
		m.announced.fromAnnouncement = map[string]bool{}
	}
	if !m.announced.fromAnnouncement[refereeID] {
		m.Log.Info("referee runs its matches from the round announcement", "event_type", "REFEREE_FROM_ANNOUNCEMENT",
			"referee_id", refereeID)
	}
	m.announced.fromAnnouncement[refereeID] = true
}

// announcementDriven reports a referee that takes its matches from the
// round announcement, or is taken for one: it refused start_match too
// often (noteStartRefusal). Call with m.mu held.
func (m *Manager) announcementDriven(refereeID string) bool {
	if r := m.announced.refusals[refereeID]; r != nil && r.declined {
		return true
	}
	return m.announced.fromAnnouncement[refereeID]
}

// noteStartRefusal counts a refusal of start_match by a referee, in
// another form than -32601, and reports whether it was the last one
// taken: the referee is, from now on, one that declines start_match,
// which the feed, the console and --no-ui's stderr are told with the
// reason.
func (m *Manager) noteStartRefusal(refereeID, matchID string, refusal error) bool {
	said := clipReason(refusal.Error())
	m.mu.Lock()
	if m.announced.refusals == nil {
		m.announced.refusals = map[string]*startRefusals{}
	}
	r := m.announced.refusals[refereeID]
	if r == nil {
		r = &startRefusals{}
		m.announced.refusals[refereeID] = r
	}
	r.streak++
	r.last = said
	declined := !r.declined && r.streak >= startMatchRefusals
	r.declined = r.declined || declined
	streak := r.streak
	m.mu.Unlock()
	m.Log.Warn("start_match refused", "event_type", "START_MATCH_REFUSED", "referee_id", refereeID, "match_id", matchID,
		"refusals_in_a_row", streak, "err", said)
	if !declined {
		return false
	}
	detail := fmt.Sprintf("%s refused start_match %d times in a row (last for %s: %s): it is asked no more, as a referee "+
		"that declines start_match; the matches announced to it wait for its reports, and it is suspended if none comes; "+
		"the others go to the other referees", refereeID, streak, matchID, said)
	m.Log.Warn("referee declines start_match", "event_type", "REFEREE_DECLINES_START_MATCH", "referee_id", refereeID,
		"reason", detail)
	m.notice(engine.Event{Kind: engine.EventStalled, MatchID: matchID, Referee: refereeID, Detail: detail})
	return true
}

// startMatchTaken forgets a referee's refusals of start_match: it took
// one, sent a report the league authenticated, or registered again.
func (m *Manager) startMatchTaken(refereeID string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.forgetStartRefusals(refereeID)
}

// forgetStartRefusals is startMatchTaken with m.mu held.
func (m *Manager) forgetStartRefusals(refereeID string) {
	delete(m.announced.refusals, refereeID)
}

// startRefusal is the last refusal of start_match by a referee in a row of
// them, "" for none. Call with m.mu held.
func (m *Manager) startRefusal(refereeID string) string {
	if r := m.announced.refusals[refereeID]; r != nil {
		return r.last
	}
	return ""
}

// announcedTo is the referee the match was announced to when that referee
// takes its matches from the announcement, "" otherwise: the match stays
// that referee's. Call with m.mu held.
func (m *Manager) announcedTo(matchID string) string {
	referee := m.announced.referee[matchID]
	if referee == "" || !m.announcementDriven(referee) || m.league.Suspended(referee) {
		return ""
	}
	return referee
}

// mayReportAnnounced says a referee may report a match that is not
// assigned to it: the round announced the match to it, the match has no
// result, and either it takes its matches from the announcement or no
// referee has been handed the match yet (a referee that plays from the
// announcement may report before our start_match would have gone out), or
// it registered without match tickets (one of another implementation's).
// Call with m.mu held.
func (m *Manager) mayReportAnnounced(matchID, refereeID string) bool {
	rec, ok := m.league.Match(matchID)
	if !ok || rec.Result != nil || rec.Referee == refereeID || m.announced.referee[matchID] != refereeID ||
		m.league.Suspended(refereeID) {
		return false
	}
	return rec.Referee == "" || m.announcementDriven(refereeID) || m.announced.ticketless[refereeID]
}

// declinedStartMatch says a referee answered start_match, in every form
// tried, that it has no such method.
func declinedStartMatch(err error) bool {
	var rpcErr *protocol.RPCError
	return errors.As(err, &rpcErr) && rpcErr.Code == protocol.CodeMethodNotFound
}

// refusedStartMatch says a referee answered start_match with an error of
// its own: a JSON-RPC error, or a LEAGUE_ERROR. A call that timed out or
// found no one is not a refusal: the match goes on to the next referee,
// and a referee that keeps taking none is suspended as silent.
func refusedStartMatch(err error) bool {
	var rpcErr *protocol.RPCError
	var leagueErr *protocol.LeagueError
	return errors.As(err, &rpcErr) || errors.As(err, &leagueErr)
}

// takeAnnouncedReport stages in b, for a report mayReportAnnounced
// allows, the match's assignment to its announced referee: the announced
// assignment stands. Otherwise it stages nothing.
func (m *Manager) takeAnnouncedReport(b *batch, matchID, refereeID string) error {
	if !m.mayReportAnnounced(matchID, refereeID) {
		return nil
	}
	rec, _ := m.league.Match(matchID)
	_, err := b.stage(engine.Event{Kind: engine.EventMatchAssigned, Round: rec.Round, MatchID: matchID, Referee: refereeID,
		Detail: "reported by the referee the round announced it to"})
	return err
}

// announcedRetryDelay is the wait before a match that stays with its
// announced referee is waited for again: growing, as the retry settings
// say, up to maxPassDelay.
func (m *Manager) announcedRetryDelay(attempt int) time.Duration {
	return min(m.opts.Config.Retry.Delay(attempt), maxPassDelay)
}

// reportableAnnounced is mayReportAnnounced, taking m.mu.
func (m *Manager) reportableAnnounced(matchID, refereeID string) bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.mayReportAnnounced(matchID, refereeID)
}

// heardReport notes that a referee sent a report, taken or refused: a
// referee that reports is not silent, and is not suspended for missing
// reports while its reports come (see reportedLately).
func (m *Manager) heardReport(refereeID string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.announced.lastReport == nil {
		m.announced.lastReport = map[string]time.Time{}
	}
	m.announced.lastReport[refereeID] = time.Now()
	m.forgetStartRefusals(refereeID) // it plays: whatever it refused, it may be asked again
}

// reportedLately says a referee sent a report, even one the manager
// refused, within the last match deadline. Call with m.mu held.
func (m *Manager) reportedLately(refereeID string) bool {
	last, ok := m.announced.lastReport[refereeID]
	return ok && time.Since(last) < m.matchDeadline()
}

// staysAnnounced says a match stays with the referee it was announced to.
func (m *Manager) staysAnnounced(matchID string) bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.announcedTo(matchID) != ""
}

// sendStartMatch asks the referee to run the match, unless it takes its
// matches from the round announcement. A referee that declines
// start_match (-32601) is one that does: the match goes on if the round
// announced it to that referee, which plays it and reports; otherwise
// that referee cannot play it, and the error hands it on. A referee that
// refuses start_match in any other form, startMatchRefusals times in a
// row, is taken for one that declines it. run_match is not tried in its
// place: another implementation serves a tool of that name that means
// something else.
func (m *Manager) sendStartMatch(ctx context.Context, referee engine.AgentInfo, msg *protocol.StartMatch, fromAnnouncement, announced bool) error {
	if !fromAnnouncement {
		_, err := m.Client.Send(ctx, rpc.Call{Endpoint: referee.Endpoint, Message: msg, Timeout: m.opts.Config.Timeouts.Generic})
		switch {
		case err == nil:
			m.startMatchTaken(referee.ID)
			return nil
		case declinedStartMatch(err):
			m.noteAnnouncementDriven(referee.ID)
		case !refusedStartMatch(err) || !m.noteStartRefusal(referee.ID, msg.MatchID, err):
			return err
		}
	}
	if !announced {
		return fmt.Errorf("%s takes its matches from the round announcement, which gave %s to another", referee.ID, msg.MatchID)
	}
	return nil
}
