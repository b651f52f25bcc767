package engine

import (
	"errors"
	"fmt"
	"time"
)

// LeagueState is where a league is in its life.
type LeagueState string

// League states, in the order a league normally passes through them.
const (
	LeagueWaiting   LeagueState = "waiting"   // agents registering, not started
	LeagueRunning   LeagueState = "running"   // matches being played
	LeaguePaused    LeagueState = "paused"    // no new match starts
	LeagueCompleted LeagueState = "completed" // every match has a result
	LeagueStopped   LeagueState = "stopped"   // stopped by the admin before the end
)

// EventKind names a league event. The manager's journal is a list of events;
// the league's state is whatever applying them in order gives.
type EventKind string

// The league events.
const (
	EventAgentRegistered EventKind = "agent_registered"
	EventLeagueStarted   EventKind = "league_started"
	EventRoundAnnounced  EventKind = "round_announced"
	EventMatchAssigned   EventKind = "match_assigned"
	EventMatchStep       EventKind = "match_step"
	EventMatchResult     EventKind = "match_result"
	EventRoundCompleted  EventKind = "round_completed"
	EventLeagueCompleted EventKind = "league_completed"
	EventPaused          EventKind = "paused"
	EventResumed         EventKind = "resumed"
	EventStopped         EventKind = "stopped"
	// EventPlayerSuspended: the manager gave up on a player that keeps
	// failing; it is invited no more and its remaining matches are scored
	// as its technical losses. The same player registering again is
	// reinstated.
	EventPlayerSuspended EventKind = "player_suspended"
	// EventRoundScheduled: a round made once the league started (a Swiss
	// round, paired when the one before ended), carried in Schedule.
	EventRoundScheduled EventKind = "round_scheduled"
	// EventStorageFailed: the manager could not write its journal (a full
	// disk, a data folder gone read-only). A running league pauses, so no
	// result is taken that could not be saved. The journal could not take
	// it, so it has no sequence number (Seq 0) and is not a feed event: the
	// feed's page carries it.
	EventStorageFailed EventKind = "storage_failed"
	// EventStalled: no referee could take a match, each tried in turn; the
	// manager goes on trying (a referee that comes back, or registers again
	// as itself, is used at once). Detail says which match and why. It
	// changes no state: it is there so that a league that waits says so.
	EventStalled EventKind = "stalled"
	// EventRestarted: the manager started again on its journal. Matches
	// that were running when it went down run no more (they are played
	// again), so nothing may show them running.
	EventRestarted EventKind = "manager_restarted"
)

// Steps the league itself gives a match that has no result.
const (
	StepAbandoned   = "abandoned"   // the league was stopped while it ran
	StepInterrupted = "interrupted" // the manager went down while it ran; it is played again
)

// ErrLeagueStopped refuses what a stopped league no longer takes: a match
// assigned, stepped or reported after the stop. The matches running at the
// stop are abandoned, so the journal, the feed and every count agree that
// nothing was played after it.
var ErrLeagueStopped = errors.New("the league is stopped")

// PlayerSuspended is a suspended player's status in the standings.
const PlayerSuspended = "SUSPENDED"

// Agent roles.
const (
	RolePlayer  = "player"
	RoleReferee = "referee"
)

// Event is one entry of the league's journal and live feed. Only the fields
// of its kind are set. Time is given by the manager: the engine reads no clock.
type Event struct {
	Seq   int64     `json:"seq"`
	Time  time.Time `json:"time"`
	Kind  EventKind `json:"kind"`
	Round int       `json:"round,omitempty"`

	Agent   *AgentInfo  `json:"agent,omitempty"`    // agent_registered
	Start   *StartInfo  `json:"start,omitempty"`    // league_started
	MatchID string      `json:"match_id,omitempty"` // match_*
	Referee string      `json:"referee,omitempty"`  // match_assigned, match_step
	Step    string      `json:"step,omitempty"`     // match_step: invited, joined, choosing, drawn N …
	Result  *Result     `json:"result,omitempty"`   // match_result
	Facts   *MatchFacts `json:"facts,omitempty"`    // match_result: how it was played
	// Schedule is the round a round_scheduled event adds.
	Schedule *Round `json:"schedule,omitempty"`
	AgentID  string `json:"agent_id,omitempty"` // player_suspended
	Detail   string `json:"detail,omitempty"`   // a human sentence: reason, who paused …
}

// MatchFacts are how a match was played, as its referee reported them:
// each player's move and the game's own facts (for even/odd the drawn
// number and its parity), and the referee's one-line reason. The league
// does not score them; they are journaled so that the players' histories,
// which are derived data, can be rebuilt from the journal.
type MatchFacts struct {
	Moves   map[string]string `json:"moves,omitempty"`
	Details map[string]any    `json:"details,omitempty"`
	Reason  string            `json:"reason,omitempty"`
}

// AgentInfo describes a registered agent. TokenHash, never the token, is what
// the journal keeps, so the token can be checked after a restart without
// being written anywhere.
type AgentInfo struct {
	ID                   string   `json:"id"`
	Role                 string   `json:"role"`
	DisplayName          string   `json:"display_name"`
	Endpoint             string   `json:"endpoint"`
	GameTypes            []string `json:"game_types,omitempty"`
	MaxConcurrentMatches int      `json:"max_concurrent_matches,omitempty"`
	Version              string   `json:"version,omitempty"`
	TokenHash            string   `json:"token_hash,omitempty"`
}

// StartInfo fixes what a started league plays: the seed and the schedule.
type StartInfo struct {
	Seed     int64    `json:"seed"`
	GameType string   `json:"game_type"`
	Players  []string `json:"players"`
	Rounds   []Round  `json:"rounds"`
	// Format is the league's format; nil is a round robin. RoundsPlanned
	// is how many rounds it will have when Rounds holds only the first
	// (Swiss); 0 means len(Rounds).
	Format        *FormatSpec `json:"format,omitempty"`
	RoundsPlanned int         `json:"rounds_planned,omitempty"`
}

// League is the league's state, rebuilt by applying events in order.
type League struct {
	ID       string
	State    LeagueState
	Seed     int64
	GameType string
	Rounds   []Round
	Table    *Table

	players    []*AgentInfo
	referees   []*AgentInfo
	byID       map[string]*AgentInfo
	byEndpoint map[string]*AgentInfo
	matches    map[string]*MatchRecord
	suspended  map[string]bool
	streak     map[string]int // player -> technical losses in a row as the offender
	finished   int
	lastSeq    int64
	unplayed   []int // per round, matches still without a result
	running    map[string]*MatchRecord
	runningIn  []int // per round, matches running
	roundsDone int   // leading rounds whose matches all have results
	format     FormatSpec
	planned    int      // rounds the league will have
	entrants   []string // the players the league started with, in seeding order
	sprtCounts [4]int   // the SPRT challenger's results, by outcomeKind
}

// MatchRecord is what the league knows about one scheduled match.
type MatchRecord struct {
	// *Pairing points into the league's schedule rather than copying it:
	// a league of 1,000 players keeps half a million of these. Never nil.
	*Pairing
	Referee string  // assigned referee, "" before assignment
	Step    string  // last reported step
	Result  *Result // nil until reported
}

// NewLeague makes an empty league waiting for registrations.
func NewLeague(id string, scoring Scoring) *League {
	return &League{
		ID:         id,
		State:      LeagueWaiting,
		Table:      newLeagueTable(scoring),
		byID:       map[string]*AgentInfo{},
		byEndpoint: map[string]*AgentInfo{},
		matches:    map[string]*MatchRecord{},
		suspended:  map[string]bool{},
		streak:     map[string]int{},
		running:    map[string]*MatchRecord{},
	}
}

// Apply checks ev against the state and applies it. An event that does not
// fit (a result for an unknown match or a second result) is an error and
// changes nothing, so the manager can validate by applying.
func (l *League) Apply(ev Event) error {
	if err := l.apply(ev); err != nil {
		return fmt.Errorf("%s: %w", ev.Kind, err)
	}
	if ev.Seq > l.lastSeq {
		l.lastSeq = ev.Seq
	}
	return nil
}

func (l *League) apply(ev Event) error {
	switch ev.Kind {
	case EventAgentRegistered:
		return l.register(ev.Agent)
	case EventLeagueStarted:
		return l.start(ev.Start)
	case EventMatchAssigned:
		m, err := l.unfinished(ev.MatchID)
		if err == nil {
			m.Referee, m.Step = ev.Referee, "assigned"
			if a, ok := l.byID[ev.Referee]; ok {
				m.Referee = a.ID // the registry's copy, not one per match
			}
			l.setRunning(m, true)
		}
		return err
	case EventMatchStep:
		m, err := l.unfinished(ev.MatchID)
		if err == nil {
			m.Step = ev.Step
		}
		return err
	case EventMatchResult:
		return l.recordResult(ev.Result)
	case EventRoundScheduled:
		return l.addRound(ev.Schedule)
	case EventPlayerSuspended:
		return l.suspend(ev.AgentID)
	case EventPaused:
		return l.transition(LeagueRunning, LeaguePaused)
	case EventStorageFailed:
		if l.State == LeagueRunning {
			l.State = LeaguePaused
		}
	case EventResumed:
		return l.transition(LeaguePaused, LeagueRunning)
	case EventStopped:
		if l.State == LeagueCompleted {
			return fmt.Errorf("league already completed")
		}
		l.State = LeagueStopped
		l.endRunning(StepAbandoned)
	case EventRestarted:
		l.endRunning(StepInterrupted)
	case EventLeagueCompleted:
		if done, total := l.Progress(); done != total {
			return fmt.Errorf("%d of %d matches have results", done, total)
		}
		if len(l.Rounds) < l.planned && !l.sprtDecided() {
			return fmt.Errorf("%d of %d rounds scheduled", len(l.Rounds), l.planned)
		}
		l.State = LeagueCompleted
	case EventStalled:
	case EventRoundAnnounced, EventRoundCompleted:
		if ev.Round < 1 || ev.Round > len(l.Rounds) {
			return fmt.Errorf("no round %d", ev.Round)
		}
	default:
		return fmt.Errorf("unknown event kind %q", ev.Kind)
	}
	return nil
}

// register adds an agent, or updates one that registers again under the
// same id (a restarted agent gets a fresh token).
func (l *League) register(a *AgentInfo) error {
	if a == nil || a.ID == "" {
		return fmt.Errorf("agent without id")
	}
	if old, ok := l.byID[a.ID]; ok {
		if l.byEndpoint[old.Endpoint] == old { // another agent may have taken the endpoint over
			delete(l.byEndpoint, old.Endpoint)
		}
		*old = *a
		l.byEndpoint[a.Endpoint] = old
		l.reinstate(a.ID)
		return nil
	}
	info := *a
	l.byID[a.ID] = &info
	l.byEndpoint[a.Endpoint] = &info
	switch a.Role {
	case RolePlayer:
		l.players = append(l.players, &info)
		l.Table.AddPlayer(a.ID, a.DisplayName)
	case RoleReferee:
		l.referees = append(l.referees, &info)
	default:
		return fmt.Errorf("unknown role %q", a.Role)
	}
	return nil
}

func (l *League) start(s *StartInfo) error {
	if s == nil {
		return fmt.Errorf("no start info")
	}
	if l.State != LeagueWaiting {
		return fmt.Errorf("league is %s, not waiting", l.State)
	}
	l.State, l.Seed, l.GameType = LeagueRunning, s.Seed, s.GameType
	l.planned, l.entrants = max(s.RoundsPlanned, len(s.Rounds)), s.Players
	if s.Format != nil {
		l.format = *s.Format
	}
	for _, r := range s.Rounds {
		l.appendRound(r)
	}
	l.countRoundsDone()
	return nil
}

// appendRound adds a round to the schedule and its matches to the records.
func (l *League) appendRound(r Round) {
	l.Rounds = append(l.Rounds, r)
	for j := range r.Matches {
		p := &r.Matches[j]
		l.matches[p.MatchID] = &MatchRecord{Pairing: p}
	}
	l.unplayed = append(l.unplayed, len(r.Matches))
	l.runningIn = append(l.runningIn, 0)
}

func (l *League) unfinished(matchID string) (*MatchRecord, error) {
	m, ok := l.matches[matchID]
	switch {
	case l.State == LeagueStopped:
		return nil, ErrLeagueStopped
	case !ok:
		return nil, fmt.Errorf("no match %q", matchID)
	case m.Result != nil:
		return nil, fmt.Errorf("match %s already has a result", matchID)
	}
	return m, nil
}

func (l *League) recordResult(r *Result) error {
	if r == nil {
		return fmt.Errorf("no result")
	}
	m, err := l.unfinished(r.MatchID)
	if err != nil {
		return err
	}
	if r.PlayerA != m.PlayerA || r.PlayerB != m.PlayerB {
		return fmt.Errorf("match %s is %s vs %s, not %s vs %s", r.MatchID, m.PlayerA, m.PlayerB, r.PlayerA, r.PlayerB)
	}
	res := compactResult(*r, *m.Pairing)
	l.setRunning(m, false)
	m.Result, m.Step = &res, "finished"
	l.finished++
	l.Table.Record(res)
	l.countSPRT(res)
	for _, p := range []string{res.PlayerA, res.PlayerB} {
		if res.Status == StatusTechnicalLoss && isOffender(res, p) {
			l.streak[p]++
		} else {
			l.streak[p] = 0
		}
	}
	if i := m.Round - 1; i >= 0 && i < len(l.unplayed) {
		l.unplayed[i]--
	}
	l.countRoundsDone()
	return nil
}

// setRunning adds a match to the running ones or takes it out, in O(1).
func (l *League) setRunning(m *MatchRecord, on bool) {
	_, was := l.running[m.MatchID]
	if was == on {
		return
	}
	delta := 1
	if on {
		l.running[m.MatchID] = m
	} else {
		delete(l.running, m.MatchID)
		delta = -1
	}
	if i := m.Round - 1; i >= 0 && i < len(l.runningIn) {
		l.runningIn[i] += delta
	}
}

// endRunning ends every running match without a result, giving it step.
func (l *League) endRunning(step string) {
	for _, m := range l.running {
		m.Step = step
		l.setRunning(m, false)
	}
}

// compactResult makes a result share the strings the league already holds (the
// schedule's ids, the status constants) instead of its own copies decoded
// from the journal or the network: a league keeps half a million results
// at 1,000 players, and each copy is an allocation of its own.
func compactResult(r Result, p Pairing) Result {
	r.MatchID, r.PlayerA, r.PlayerB = p.MatchID, p.PlayerA, p.PlayerB
	r.Winner = sharedID(r.Winner, p)
	for _, s := range []Status{StatusWin, StatusDraw, StatusTechnicalLoss} {
		if r.Status == s {
			r.Status = s
		}
	}
	if len(r.Offenders) > 0 {
		offenders := make([]string, len(r.Offenders))
		for i, o := range r.Offenders {
			offenders[i] = sharedID(o, p)
		}
		r.Offenders = offenders
	}
	return r
}

// sharedID returns the pairing's own copy of a player id.
func sharedID(id string, p Pairing) string {
	switch id {
	case p.PlayerA:
		return p.PlayerA
	case p.PlayerB:
		return p.PlayerB
	}
	return id
}

// suspend marks a registered player suspended.
func (l *League) suspend(id string) error {
	a, ok := l.byID[id]
	switch {
	case !ok || a.Role != RolePlayer:
		return fmt.Errorf("no player %q", id)
	case l.suspended[id]:
		return fmt.Errorf("player %s is already suspended", id)
	}
	l.suspended[id] = true
	l.Table.SetStatus(id, PlayerSuspended)
	return nil
}

// reinstate lifts a suspension: the player came back (a restarted process
// registering again) and starts with a clean record of failures.
func (l *League) reinstate(id string) {
	if l.suspended[id] {
		delete(l.suspended, id)
		l.Table.SetStatus(id, "")
	}
	delete(l.streak, id)
}

// countRoundsDone moves past the leading rounds that have every result;
// each round is passed once, so a result costs O(1) amortised.
func (l *League) countRoundsDone() {
	for l.roundsDone < len(l.unplayed) && l.unplayed[l.roundsDone] == 0 {
		l.roundsDone++
	}
}

// RoundsCompleted counts the leading rounds whose matches all have results,
// in O(1): the standings document's rounds_completed.
func (l *League) RoundsCompleted() int { return l.roundsDone }

func (l *League) transition(from, to LeagueState) error {
	if l.State != from {
		return fmt.Errorf("league is %s, not %s", l.State, from)
	}
	l.State = to
	return nil
}

// Skip moves the sequence past an event that is in the journal but that the
// league refuses (a result after the stop, from a journal written before
// stopped leagues refused them), so later events keep their numbers.
func (l *League) Skip(seq int64) {
	if seq > l.lastSeq {
		l.lastSeq = seq
	}
}

// LastSeq is the sequence number of the last event applied.
func (l *League) LastSeq() int64 { return l.lastSeq }

// Agent finds a registered agent by id.
func (l *League) Agent(id string) (AgentInfo, bool) {
	a, ok := l.byID[id]
	if !ok {
		return AgentInfo{}, false
	}
	return *a, true
}

// AgentAt finds a registered agent by its contact endpoint.
func (l *League) AgentAt(endpoint string) (AgentInfo, bool) {
	a, ok := l.byEndpoint[endpoint]
	if !ok {
		return AgentInfo{}, false
	}
	return *a, true
}

// Suspended reports whether a player is suspended.
func (l *League) Suspended(id string) bool { return l.suspended[id] }

// FailureStreak counts a player's technical losses in a row as the
// offender, up to its latest result.
func (l *League) FailureStreak(id string) int { return l.streak[id] }

// Players lists registered players in registration order.
func (l *League) Players() []AgentInfo { return copyAgents(l.players) }

// Referees lists registered referees in registration order.
func (l *League) Referees() []AgentInfo { return copyAgents(l.referees) }

func copyAgents(list []*AgentInfo) []AgentInfo {
	out := make([]AgentInfo, len(list))
	for i, a := range list {
		out[i] = *a
	}
	return out
}

// Match returns what the league knows of a scheduled match.
func (l *League) Match(matchID string) (MatchRecord, bool) {
	m, ok := l.matches[matchID]
	if !ok {
		return MatchRecord{Pairing: &Pairing{}}, false
	}
	return *m, true
}

// RoundDone reports whether every match of round (1-based) has a result.
func (l *League) RoundDone(round int) bool {
	if round < 1 || round > len(l.unplayed) {
		return false
	}
	return l.unplayed[round-1] == 0
}

// CurrentRound is the first round with a match still to play, or 0 when
// every round is done or the league has not started. O(1): the console
// draws it 30 times a second.
func (l *League) CurrentRound() int {
	if l.roundsDone >= len(l.Rounds) {
		return 0
	}
	return l.roundsDone + 1
}

// RoundProgress counts a round's matches with a result, running, and in all.
func (l *League) RoundProgress(round int) (done, running, total int) {
	if round < 1 || round > len(l.Rounds) {
		return 0, 0, 0
	}
	total = len(l.Rounds[round-1].Matches)
	return total - l.unplayed[round-1], l.runningIn[round-1], total
}

// Running reports whether a match is being played now: assigned, without a
// result, and neither abandoned by a stop nor cut off by a restart.
func (l *League) Running(matchID string) bool {
	_, ok := l.running[matchID]
	return ok
}

// RunningCount is how many matches are being played now.
func (l *League) RunningCount() int { return len(l.running) }

// RunningIDs lists the matches being played now, in no particular order.
func (l *League) RunningIDs() []string {
	out := make([]string, 0, len(l.running))
	for id := range l.running {
		out = append(out, id)
	}
	return out
}

// Progress counts matches with a result and matches in all.
func (l *League) Progress() (done, total int) { return l.finished, len(l.matches) }

// Results lists the results of a round in match order.
func (l *League) Results(round int) []Result {
	if round < 1 || round > len(l.Rounds) {
		return nil
	}
	var out []Result
	for _, p := range l.Rounds[round-1].Matches {
		if r := l.matches[p.MatchID].Result; r != nil {
			out = append(out, *r)
		}
	}
	return out
}
