package manager

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"net"
	"net/url"
	"syscall"
	"time"

	"github.com/leaguetui/leaguetui/agents/mcpserve"
	"github.com/leaguetui/leaguetui/agents/protocol"
	"github.com/leaguetui/leaguetui/agents/retry"
	"github.com/leaguetui/leaguetui/config"
	"github.com/leaguetui/leaguetui/engine"
)

// startLeague journals the seed and schedule; it fails unless enough agents
// have registered. league.json is written once the start is durable.
func (m *Manager) startLeague() error {
	var info protocol.LeagueInfoFile
	var rounds int
	err := m.journaled(func(b *batch) error {
		start, err := m.startInfo()
		if err != nil {
			return err
		}
		if _, err := b.stage(engine.Event{Kind: engine.EventLeagueStarted, Start: start}); err != nil {
			return err
		}
		info, rounds = m.leagueInfo(), m.league.PlannedRounds()
		return nil
	})
	if err != nil {
		return err
	}
	m.Log.Info("league started", "event_type", "SCHEDULE_CREATED", "seed", info.Seed, "rounds", rounds,
		"players", len(info.Players), "referees", len(info.Referees))
	m.writeFile(m.Layout().LeagueInfo(), info)
	return nil
}

// startInfo is the league's start, its seed and schedule, when enough
// agents have registered and it has not started. Call with m.mu held.
func (m *Manager) startInfo() (*engine.StartInfo, error) {
	players, referees := m.league.Players(), m.league.Referees()
	need := m.opts.Config.Participants
	if len(players) < need.MinPlayers || len(referees) < need.MinReferees {
		return nil, fmt.Errorf("need at least %d players and %d referees, have %d and %d",
			need.MinPlayers, need.MinReferees, len(players), len(referees))
	}
	if m.league.State != engine.LeagueWaiting {
		return nil, fmt.Errorf("the league is %s", m.league.State)
	}
	ids := make([]string, len(players))
	for i, p := range players {
		ids[i] = p.ID
	}
	engine.SortIDs(ids) // the schedule is the seed's whatever order the players registered in
	seed := m.opts.Seed
	if !m.opts.SeedSet {
		seed = rand.Int64N(1 << 53) // fits a JSON number exactly
	}
	return m.schedule(ids, seed)
}

// startRunning starts the league loop once.
func (m *Manager) startRunning(ctx context.Context) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.running || ctx.Err() != nil { // a manager shutting down starts no run: its journal resumes it
		return
	}
	m.running = true
	ctx, m.cancelRun = context.WithCancel(ctx)
	go func() {
		defer close(m.runDone)
		switch err := m.run(ctx); {
		case errors.Is(err, context.Canceled):
			m.Log.Info("league run interrupted; a restart resumes it from the journal", "event_type", "LEAGUE_INTERRUPTED")
		case err != nil:
			m.Log.Error("league run ended", "event_type", "LEAGUE_ERROR", "err", err)
		}
	}()
}

// run plays every round not yet completed, then completes the league.
func (m *Manager) run(ctx context.Context) error {
	for {
		// A league held paused (resumed from the journal, or paused before a
		// round) announces nothing until it runs.
		if err := m.awaitRunning(ctx); err != nil {
			return err
		}
		m.mu.Lock()
		round := m.league.CurrentRound()
		m.mu.Unlock()
		if round == 0 {
			scheduled, err := m.scheduleNextRound()
			if err != nil {
				return err
			}
			if scheduled {
				continue
			}
			break
		}
		if err := m.playRound(ctx, round); err != nil {
			return err
		}
		if err := m.completeRound(round); err != nil {
			return err
		}
	}
	return m.completeLeague()
}

// playRound announces a round and plays its matches in parallel, each
// referee running at most its max_concurrent_matches at a time.
func (m *Manager) playRound(ctx context.Context, round int) error {
	m.mu.Lock()
	pairings := m.league.Round(round).Matches
	referees := m.league.RefereesInPlay()
	m.mu.Unlock()
	if len(referees) == 0 {
		return fmt.Errorf("no referee registered")
	}
	assigned := assignReferees(pairings, referees)
	if _, err := m.record(engine.Event{Kind: engine.EventRoundAnnounced, Round: round}); err != nil {
		return err
	}
	m.announceRound(round, assigned)
	m.Log.Info("round announced", "event_type", "ROUND_ANNOUNCEMENT_SENT", "round_id", round, "matches", len(pairings))

	slots := map[string]chan struct{}{}
	for _, r := range referees {
		slots[r.ID] = make(chan struct{}, max(r.MaxConcurrentMatches, 1))
	}
	done := make(chan error, len(assigned))
	for _, a := range assigned {
		go func() { done <- m.playMatch(ctx, a, referees, slots) }()
	}
	var firstErr error
	for range assigned {
		if err := <-done; err != nil && firstErr == nil {
			firstErr = err
		}
	}
	return firstErr
}

// assignment is a match and the referee planned for it.
type assignment struct {
	engine.Pairing
	Referee engine.AgentInfo
}

// assignReferees spreads a round's matches over the referees in turn.
func assignReferees(pairings []engine.Pairing, referees []engine.AgentInfo) []assignment {
	out := make([]assignment, len(pairings))
	for i, p := range pairings {
		out[i] = assignment{Pairing: p, Referee: referees[i%len(referees)]}
	}
	return out
}

// playMatch hands one match to its referee and waits for the result. When
// the referee cannot be reached or misses the match's deadline, the match
// goes to the next referee; a late report from the first is then refused.
func (m *Manager) playMatch(ctx context.Context, a assignment, referees []engine.AgentInfo, slots map[string]chan struct{}) error {
	if m.hasResult(a.MatchID) {
		return nil // reported before a restart
	}
	if err := m.awaitRunning(ctx); err != nil {
		return err
	}
	if forfeited, err := m.forfeitSuspended(a.Pairing); forfeited || err != nil {
		return err
	}
	first := indexOf(referees, a.Referee.ID)
	// The referee of each attempt, as registered now (one that restarted
	// as itself may be on a new port), passing over those suspended; a
	// match announced to a referee that plays from announcements stays
	// with it.
	refereeFor := func(attempt int) engine.AgentInfo {
		if m.staysAnnounced(a.MatchID) {
			return m.current(a.Referee)
		}
		return m.inPlayFrom(referees, first+attempt-1)
	}
	err := retry.Do(ctx, m.reassignment(a.MatchID, len(referees), refereeFor), func(attempt int) error {
		return m.playOn(ctx, a.Pairing, refereeFor(attempt), slots)
	})
	if err != nil {
		return err
	}
	m.setStalled(false)
	return m.suspendFailing(a.MatchID)
}

// reassignment is how a match goes from referee to referee: at once to the
// next, until every referee failed it once more; then the league says it
// is stalled and gives them a while, longer each pass, before the next. It
// ends only when the league stops.
func (m *Manager) reassignment(matchID string, referees int, refereeFor func(attempt int) engine.AgentInfo) retry.Policy {
	passEnds := func(attempt int) bool { return attempt%referees == 0 }
	return retry.Policy{
		Final: func(err error) bool { return errors.Is(err, errLeagueStopped) },
		BeforeRetry: func(attempt int, err error) error {
			if !passEnds(attempt) {
				return nil
			}
			return m.stall(matchID, refereeFor(attempt).ID, err)
		},
		Delay: func(attempt int) time.Duration {
			if m.staysAnnounced(matchID) { // waited for again, not handed on: back off
				return m.announcedRetryDelay(attempt)
			}
			if !passEnds(attempt) {
				return 0
			}
			return min(m.opts.Config.Retry.Delay(attempt/referees), maxPassDelay)
		},
	}
}

// playOn plays the match on referee once a slot of its is free, while the
// league runs.
func (m *Manager) playOn(ctx context.Context, p engine.Pairing, referee engine.AgentInfo, slots map[string]chan struct{}) error {
	if err := m.awaitRunning(ctx); err != nil {
		return err
	}
	select {
	case slots[referee.ID] <- struct{}{}:
	case <-m.suspension(referee.ID):
		return fmt.Errorf("%s is suspended", referee.ID) // the next referee takes the match at once
	case <-ctx.Done():
		return ctx.Err()
	}
	// A pause may have come while this match waited for a slot.
	if err := m.awaitRunning(ctx); err != nil {
		<-slots[referee.ID]
		return err
	}
	err := m.runOnReferee(ctx, p, referee)
	<-slots[referee.ID]
	if err != nil {
		m.Log.Warn("match not played by referee, reassigning", "event_type", "MATCH_REASSIGNED",
			"match_id", p.MatchID, "referee_id", referee.ID, "err", err)
	}
	return err
}

// maxPassDelay bounds the wait between two passes over the referees.
const maxPassDelay = 5 * time.Second

// inPlayFrom is the first referee of the round's list, from index i on
// and around, that is not suspended, as registered now; the one at i when
// all are (the league keeps one in play, but it may be another's now).
func (m *Manager) inPlayFrom(referees []engine.AgentInfo, i int) engine.AgentInfo {
	for k := range referees {
		if r := m.current(referees[(i+k)%len(referees)]); !m.isSuspended(r.ID) {
			return r
		}
	}
	return m.current(referees[i%len(referees)])
}

func (m *Manager) isSuspended(id string) bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.league.Suspended(id)
}

// current is a referee as registered now.
func (m *Manager) current(referee engine.AgentInfo) engine.AgentInfo {
	m.mu.Lock()
	defer m.mu.Unlock()
	if now, ok := m.league.Agent(referee.ID); ok {
		return now
	}
	return referee
}

// stall tells the feed and the log, once until a match is played again,
// that no referee could take a match: a league that waits says why.
func (m *Manager) stall(matchID, refereeID string, cause error) error {
	if !m.setStalled(true) {
		return nil
	}
	detail := fmt.Sprintf("league stalled: no referee could take %s (last tried %s: %v); trying again until one can",
		matchID, refereeID, cause)
	m.Log.Warn("league stalled", "event_type", "LEAGUE_STALLED", "match_id", matchID, "referee_id", refereeID, "err", cause)
	_, err := m.record(engine.Event{Kind: engine.EventStalled, MatchID: matchID, Referee: refereeID, Detail: detail})
	return err
}

// setStalled records whether the league is stalled and reports whether
// that changed.
func (m *Manager) setStalled(stalled bool) bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	changed := m.stalled != stalled
	m.stalled = stalled
	return changed
}

func indexOf(list []engine.AgentInfo, id string) int {
	for i, a := range list {
		if a.ID == id {
			return i
		}
	}
	return 0
}

func (m *Manager) hasResult(matchID string) bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	rec, _ := m.league.Match(matchID)
	return rec.Result != nil
}

// runOnReferee assigns the match, asks the referee to start it, and waits
// for its report while the referee reports its steps (awaitResult).
func (m *Manager) runOnReferee(ctx context.Context, p engine.Pairing, referee engine.AgentInfo) error {
	stepped, unwatch := m.progress.watch(p.MatchID) // before the start: its first step may come at once
	defer unwatch()
	var h handOver
	err := m.journaled(func(b *batch) (err error) {
		h, err = m.assign(b, p, referee)
		return err
	})
	reported := h.reported // nil: the match has its result, or nothing was staged
	if err == nil && reported != nil {
		err = m.suspendSilent(h.missedBy)
	}
	if err != nil || reported == nil {
		if reported != nil {
			m.forgetWaiter(p.MatchID, reported)
		}
		return err
	}
	msg := h.msg
	msg.Envelope = m.envelopeTo(protocol.TypeStartMatch, p.Round, p.MatchID)
	msg.AuthToken = h.startKey // the key only this referee and its manager know
	msg.PlayerATicket, msg.PlayerBTicket = m.matchTicket(p.PlayerA, p.MatchID, referee.ID), m.matchTicket(p.PlayerB, p.MatchID, referee.ID)
	if err := m.sendStartMatch(ctx, referee, msg, h.fromAnnouncement, h.announced); err != nil {
		m.forgetWaiter(p.MatchID, reported)
		return err
	}
	waitCtx, stopWatching := context.WithCancel(ctx)
	defer stopWatching()
	return m.awaitResult(waitCtx, p.MatchID, referee, reported, stepped)
}

// awaitResult waits for the result of a match its referee plays: nil when
// it is reported; an error when the referee goes away, is suspended, or
// reports no step of the match within the match deadline (progress.go).
func (m *Manager) awaitResult(ctx context.Context, matchID string, referee engine.AgentInfo, reported chan struct{},
	stepped <-chan struct{}) error {
	gone := watchReferee(ctx, referee.Endpoint, refereeProbeInterval)
	idle := time.NewTimer(m.matchDeadline())
	defer idle.Stop()
	for {
		select {
		case <-reported:
			return nil
		case <-stepped:
			idle.Reset(m.matchDeadline()) // it plays on
			continue
		case err := <-gone:
			m.forgetWaiter(matchID, reported)
			return fmt.Errorf("%s went away during the match: %w", referee.ID, err)
		case <-m.suspension(referee.ID):
			m.forgetWaiter(matchID, reported)
			return fmt.Errorf("%s was suspended during the match", referee.ID)
		case <-idle.C:
			m.forgetWaiter(matchID, reported)
			return fmt.Errorf("no step or result of the match from %s within the match deadline", referee.ID)
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

// refereeProbeInterval is how often a referee running a match is checked
// for being there at all.
const refereeProbeInterval = 500 * time.Millisecond

// watchReferee reports when nothing listens at a referee's endpoint any
// more (a crashed process refuses connections), so its match goes to
// another referee at once instead of after the whole match deadline. A
// referee that is there but stuck is left to the deadline. Two refusals in
// a row are needed: one may be a full accept queue.
func watchReferee(ctx context.Context, endpoint string, every time.Duration) <-chan error {
	gone := make(chan error, 1)
	u, err := url.Parse(endpoint)
	if err != nil || u.Host == "" {
		return gone // nothing to watch: the deadline decides
	}
	go func() {
		tick := time.NewTicker(every)
		defer tick.Stop()
		refused := 0
		for {
			select {
			case <-tick.C:
			case <-ctx.Done():
				return
			}
			conn, err := (&net.Dialer{Timeout: every}).DialContext(ctx, "tcp", u.Host)
			if err == nil {
				conn.Close()
			}
			if !errors.Is(err, syscall.ECONNREFUSED) {
				refused = 0 // there, or too busy to tell: the deadline decides
				continue
			}
			if refused++; refused >= 2 && ctx.Err() == nil {
				gone <- err
				return
			}
		}
	}()
	return gone
}

// handOver is a match assigned to a referee, with what its start_match
// needs, read as the assignment was staged.
type handOver struct {
	msg                         *protocol.StartMatch
	startKey                    string
	reported                    chan struct{} // closed when its result is in; nil: it has its result, nothing was staged
	missedBy                    string        // the referee the match ran on before, which missed it, or ""
	fromAnnouncement, announced bool
}

// assign stages the match's assignment to referee and reads the rest of
// its start_match from the league.
func (m *Manager) assign(b *batch, p engine.Pairing, referee engine.AgentInfo) (handOver, error) {
	rec, _ := m.league.Match(p.MatchID)
	if rec.Result != nil {
		return handOver{}, nil
	}
	if m.announcementDriven(referee.ID) && m.announced.referee[p.MatchID] != referee.ID {
		// it would never hear of the match: not handed to it, so no miss of its
		return handOver{}, fmt.Errorf("%s takes its matches from the round announcement, which gave %s to another", referee.ID, p.MatchID)
	}
	// A match assigned again while it runs is a miss of the referee it
	// ran on (engine.League.MissedReports).
	var h handOver
	if m.league.Running(p.MatchID) {
		h.missedBy = rec.Referee
	}
	if _, err := b.stage(engine.Event{Kind: engine.EventMatchAssigned, Round: p.Round, MatchID: p.MatchID, Referee: referee.ID}); err != nil {
		return handOver{}, err
	}
	h.reported = make(chan struct{})
	m.reported[p.MatchID] = h.reported
	h.fromAnnouncement = m.announcementDriven(referee.ID)
	h.announced = m.announced.referee[p.MatchID] == referee.ID
	h.startKey = m.managerKey(referee)
	if current, ok := m.league.Agent(referee.ID); ok {
		h.startKey = m.managerKey(current) // its token may have changed since the round began
	}
	playerA, _ := m.league.Agent(p.PlayerA)
	playerB, _ := m.league.Agent(p.PlayerB)
	standings := map[string]protocol.Standing{}
	for _, id := range []string{p.PlayerA, p.PlayerB} {
		row, _ := m.league.Table.Row(id)
		standings[id] = protocol.Standing{Wins: row.Wins, Losses: row.Losses, Draws: row.Draws}
	}
	h.msg = &protocol.StartMatch{
		GameType: m.game.Type(), RefereeID: referee.ID,
		PlayerAID: p.PlayerA, PlayerBID: p.PlayerB,
		PlayerAEndpoint: playerA.Endpoint, PlayerBEndpoint: playerB.Endpoint,
		LeagueSeed: m.league.Seed, Standings: standings,
	}
	return h, nil
}

func (m *Manager) forgetWaiter(matchID string, ch chan struct{}) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.reported[matchID] == ch {
		delete(m.reported, matchID)
	}
}

// matchDeadline is matchDeadlineOf this league's settings, with the
// longest a race draw may take in a game that reads pages: each of its
// page loads at the page call's limit. A race draw has no clock of its
// own (a seed draws the same race on any machine), so a slow page server
// makes it long but never makes the referee look lost.
func (m *Manager) matchDeadline() time.Duration {
	cfg := m.opts.Config
	d := matchDeadlineOf(cfg.Timeouts, cfg.Retry)
	if _, reads := m.game.(engine.PageReader); reads {
		d += time.Duration(cfg.Pages.DrawLoads+1) * mcpserve.PageCallTimeout // its loads and the list of pages
	}
	return d
}

// matchDeadlineOf is the longest a match may take when every call uses all
// its attempts and backoff, plus the report: past it the referee is lost.
func matchDeadlineOf(t config.Timeouts, r config.Retry) time.Duration {
	var backoff time.Duration
	for i := 1; i < r.Attempts; i++ {
		backoff += r.Delay(i)
	}
	perCall := func(d time.Duration) time.Duration { return time.Duration(r.Attempts)*d + backoff }
	return perCall(t.JoinAck) + perCall(t.Move) + perCall(t.GameOver) + perCall(t.Report) + t.Generic
}

// completeRound tells the players the standings and that the round is over
// (in the specification's order), and writes rounds.json.
func (m *Manager) completeRound(round int) error {
	m.mu.Lock()
	results := m.league.Results(round)
	total := m.league.PlannedRounds()
	m.mu.Unlock()
	if _, err := m.record(engine.Event{Kind: engine.EventRoundCompleted, Round: round}); err != nil {
		return err
	}
	m.broadcastStandings(round)
	m.broadcastRoundCompleted(round, total, results)
	m.writeStandings()
	m.writeRounds()
	m.Log.Info("round completed", "event_type", "ROUND_COMPLETED", "round_id", round)
	return nil
}

// completeLeague announces the champion to every agent. The final ratings
// fit follows the announcement rather than holding it back (over a second
// at 1,000 players): until it is done, a reader of the standings waits for
// it (see ratingsNow), so none sees the ratings of before the last results.
func (m *Manager) completeLeague() error {
	err := m.journaled(func(b *batch) error {
		// Why a league that played on after its schedule stopped (every
		// adjacent pair decided, or its limit), from the league's fit of
		// its results (kept by the league, as the standings' status uses
		// it too); "" for any other league.
		_, err := b.stage(engine.Event{Kind: engine.EventLeagueCompleted, Detail: m.league.StopWhy()})
		return err
	})
	if err != nil {
		return err
	}
	m.broadcastLeagueCompleted()
	m.Log.Info("league completed", "event_type", "LEAGUE_COMPLETED")
	m.finalRatings()
	m.writeStandings()
	m.writeRounds()
	m.mu.Lock()
	st, ok := m.league.SPRT()
	m.mu.Unlock()
	if ok {
		m.Log.Info("sprt", "event_type", "SPRT_RESULT", "llr", st.LLR, "lower", st.Lower, "upper", st.Upper, "verdict", st.Verdict,
			"wins", st.Wins, "draws", st.Draws, "losses", st.Losses)
	}
	return nil
}
