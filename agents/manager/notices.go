package manager

import (
	"fmt"
	"sync"
	"time"

	"github.com/leaguetui/leaguetui/agents/protocol"
	"github.com/leaguetui/leaguetui/agents/store"
	"github.com/leaguetui/leaguetui/engine"
)

// What makes a league wait reaches its readers as a feed event: the
// console's log pane and --no-ui's stderr show the detail of an
// engine.EventStalled, which changes no state (the manager's log file
// is in the data folder, where nobody watching the league looks). The
// manager tells them so of a league that no referee could take a match
// of (stall), of a referee taken for one that declines start_match
// (noteStartRefusal), and of reports refused before they are read
// (noteRefusedReport), at a bounded rate.

// notice records ev, an EventStalled, for the feed, while the league
// plays: before its start and after its end nothing waits.
func (m *Manager) notice(ev engine.Event) {
	m.mu.Lock()
	state := m.league.State
	if _, ok := m.league.Match(ev.MatchID); !ok {
		ev.MatchID = "" // the feed's readers look up only matches of the league
	}
	if a, ok := m.league.Agent(ev.Referee); !ok || a.Role != engine.RoleReferee {
		ev.Referee = ""
	}
	m.mu.Unlock()
	if state != engine.LeagueRunning && state != engine.LeaguePaused {
		return
	}
	if _, err := m.record(ev); err != nil {
		m.Log.Warn("notice not recorded", "event_type", "NOTICE_FAILED", "err", err)
	}
}

// reportNoticeInterval is the least time between two notices of refused
// reports: a flood of them costs the journal one event an interval.
const reportNoticeInterval = 30 * time.Second

// refusalNotices limits the notices of reports refused.
type refusalNotices struct {
	mu    sync.Mutex
	last  time.Time // of the last notice
	since int       // reports refused since it, not told
}

// take reports whether a refused report may be told now, and how many
// were refused, untold, since the last notice.
func (n *refusalNotices) take(now time.Time) (ok bool, untold int) {
	n.mu.Lock()
	defer n.mu.Unlock()
	if !n.last.IsZero() && now.Sub(n.last) < reportNoticeInterval {
		n.since++
		return false, 0
	}
	untold = n.since
	n.last, n.since = now, 0
	return true, untold
}

// noteRefusedReport tells, at most once a reportNoticeInterval, of a
// MATCH_RESULT_REPORT refused before it was read: its sender is no
// registered referee, or its auth_token is missing or not the sender's.
// Its match waits for a report the league can take; a referee whose
// reports are all refused so makes the league wait until its matches go
// to others, and without this nothing but the data folder said why. The
// log line is counted with the other refusals of its kind
// (store.RefusedKey).
func (m *Manager) noteRefusedReport(env protocol.Envelope, refusal error) {
	m.Log.Warn("report refused", "event_type", "REPORT_REFUSED", store.RefusedKey, protocol.RefusalReason(refusal),
		"sender", env.Sender, "match_id", env.MatchID, "err", refusal)
	ok, untold := m.reportRefusals.take(time.Now())
	if !ok {
		return
	}
	detail := fmt.Sprintf("a result report of %s from %s was refused: %s; the match waits for a report the league can take",
		clipReason(env.MatchID), clipReason(env.Sender), clipReason(refusal.Error()))
	if untold > 0 {
		detail += fmt.Sprintf(" (%s refused since the last notice, told at most every %s)", plural(untold, "other report"),
			reportNoticeInterval)
	}
	_, referee := protocol.SplitSender(env.Sender)
	m.notice(engine.Event{Kind: engine.EventStalled, MatchID: env.MatchID, Referee: referee, Detail: detail})
}

// maxReasonShown bounds what a peer's words bring to a notice.
const maxReasonShown = 160

// clipReason is s, from a peer, fit for a notice: printable, and at most
// maxReasonShown bytes (cut at a character's start).
func clipReason(s string) string {
	s = protocol.Printable(s)
	if len(s) <= maxReasonShown {
		return s
	}
	cut := maxReasonShown
	for cut > 0 && s[cut]&0xC0 == 0x80 {
		cut--
	}
	return s[:cut] + "…"
}
