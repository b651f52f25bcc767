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
	// EventRefereeSuspended: the manager gave up on a referee that keeps
	// taking matches and reporting none (SilentReferee); it is given no
	// more, and the matches it would have run go to the others. The same
	// referee registering again is reinstated.
	EventRefereeSuspended EventKind = "referee_suspended"
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

// Role is the kind of an agent in a league. It is the one typed role of
// leaguetui: agents/protocol names it protocol.Role, and the journal, the
// credentials files and the wire all spell it with these values.
type Role string

// The three roles of a league.
const (
	RoleManager Role = "league_manager"
	RoleReferee Role = "referee"
	RolePlayer  Role = "player"
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
	AgentID  string `json:"agent_id,omitempty"` // player_suspended, referee_suspended
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
	Role                 Role     `json:"role"`
	DisplayName          string   `json:"display_name"`
	Endpoint             string   `json:"endpoint"`
	GameTypes            []string `json:"game_types,omitempty"`
	MaxConcurrentMatches int      `json:"max_concurrent_matches,omitempty"`
	Version              string   `json:"version,omitempty"`
	TokenHash            string   `json:"token_hash,omitempty"`
	// PriorTokenHash is the hash of the token an agent registering again
	// proved it held; it still lets the agent register again, beside
	// TokenHash (the token that registration issued), until the agent
	// uses the new one. The agent saves a new token only after the
	// manager has journaled it, and a crash in between leaves it holding
	// the prior one: were that one refused, the agent could never
	// register as itself again. Empty for a newcomer.
	PriorTokenHash string `json:"prior_token_hash,omitempty"`
}

// Public is the agent without its token hashes, as everything but the
// manager's journal shows it: a hash would let anyone try guesses offline.
func (a AgentInfo) Public() AgentInfo {
	a.TokenHash, a.PriorTokenHash = "", ""
	return a
}

// StartInfo fixes what a started league plays: the seed, the players in
// seeding order and the format, from which its schedule follows (Schedule).
type StartInfo struct {
	Seed     int64    `json:"seed"`
	GameType string   `json:"game_type"`
	Players  []string `json:"players"`
	// LegacyRounds is the schedule itself, as journals written before the
	// schedule was rebuilt from the rest carry it; empty otherwise (at
	// 1,000 players it is half a million pairings, tens of MB of JSON in
	// one journal record and one feed event). Read the rounds with
	// Schedule, whichever the event holds.
	LegacyRounds []Round `json:"rounds,omitempty"`
	// Format is the league's format; nil is a round robin. RoundsPlanned
	// is how many rounds it will have when Rounds holds only the first
	// (Swiss); 0 means len(Rounds).
	Format        *FormatSpec `json:"format,omitempty"`
	RoundsPlanned int         `json:"rounds_planned,omitempty"`
	// Scoring is the points the league gives, so that whoever replays the
	// journal (a restarted manager, the console, a report of an archived
	// folder) scores the table as the league did. Journals written before
	// it was kept have none: the league keeps the points it was made with.
	Scoring *Scoring `json:"scoring,omitempty"`

	made *schedule // the schedule NewStartInfo made, so that it is made once
}

// NewStartInfo is the start of a league of players in seeding order: its
// schedule is made (or refused) here, once, and kept for Schedule.
func NewStartInfo(spec FormatSpec, gameType string, players []string, seed int64) (*StartInfo, error) {
	made, planned, err := makeSchedule(spec, players, seed)
	if err != nil {
		return nil, err
	}
	s := &StartInfo{Seed: seed, GameType: gameType, Players: players, made: made}
	if spec.Format != FormatRoundRobin && spec.Format != "" || spec.GamesPerPair > 1 || spec.SPRT != nil || spec.extraMatches() > 0 {
		s.Format = &spec // a plain round robin's league_started stays as it was
	}
	if planned != len(made.rounds) {
		s.RoundsPlanned = planned
	}
	return s, nil
}

// Schedule is the rounds the league starts with: those the event carries
// (an older journal's), or else the ones its format, players and seed
// give, which are the same every time (engine.Schedule is deterministic).
func (s *StartInfo) Schedule() ([]Round, error) {
	if len(s.LegacyRounds) > 0 {
		return s.LegacyRounds, nil
	}
	packed, err := s.packed()
	if err != nil {
		return nil, err
	}
	return packed.all(), nil
}

// packed is Schedule, packed.
func (s *StartInfo) packed() (*schedule, error) {
	switch {
	case len(s.LegacyRounds) > 0:
		packed := newSchedule(s.Players)
		for _, r := range s.LegacyRounds {
			packed.addRound(r)
		}
		return packed, nil
	case s.made != nil:
		return s.made, nil
	}
	var spec FormatSpec
	if s.Format != nil {
		spec = *s.Format
	}
	packed, _, err := makeSchedule(spec, s.Players, s.Seed)
	return packed, err
}

// RoundSizes is how many matches each of the rounds the league starts
// with has, without unpacking them.
func (s *StartInfo) RoundSizes() ([]int, error) {
	packed, err := s.packed()
	if err != nil {
		return nil, err
	}
	sizes := make([]int, len(packed.rounds))
	for i, r := range packed.rounds {
		sizes[i] = len(r.seats)
	}
	return sizes, nil
}

// League is the league's state, rebuilt by applying events in order: the
// one place where events are applied, for the manager, the console, --no-ui
// and the report alike.
type League struct {
	ID       string
	State    LeagueState
	Seed     int64
	GameType string
	Table    *Table

	players    []*AgentInfo
	referees   []*AgentInfo
	byID       map[string]*AgentInfo
	byEndpoint map[string]*AgentInfo
	suspended  map[string]bool // players and referees
	streak     map[string]int  // player -> technical losses in a row as the offender
	missed     map[string]int  // referee -> matches in a row it was given and did not report
	finished   int
	total      int // matches scheduled
	lastSeq    int64
	unplayed   []int // per round, matches still without a result
	runningIn  []int // per round, matches running
	// The schedule and the matches, packed (packed.go, records.go):
	// states[r][k] is the match at round r, board k of sched.
	sched      schedule
	states     [][]matchState
	steps      map[matchKey]string // the last step of matches assigned and without a result
	running    map[matchKey]struct{}
	unusual    map[matchKey]*Result // results that do not pack
	names      []string             // referee ids, one copy each
	nameIndex  map[string]int32     // id -> 1 + index in names
	roundsDone int                  // leading rounds whose matches all have results
	format     FormatSpec
	planned    int            // rounds the league will have
	entrants   []string       // the players the league started with, in seeding order
	sprtCounts [4]int         // the SPRT challenger's results, by outcomeKind
	sprtPairs  [5]int         // its complete seat-swapped pairs, by its score in the pair (×2)
	sprtOdd    map[int]int    // its score (×2) in an odd game whose pair is not complete, by round
	sepPairs   []AdjacentPair // Separation's, kept while no result comes
	sepFor     int            // the results it was fitted on
}

// MatchRecord is what the league knows about one scheduled match, made
// when asked for (the league keeps its matches packed).
type MatchRecord struct {
	Pairing
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
		suspended:  map[string]bool{},
		streak:     map[string]int{},
		missed:     map[string]int{},
		steps:      map[matchKey]string{},
		running:    map[matchKey]struct{}{},
		unusual:    map[matchKey]*Result{},
		nameIndex:  map[string]int32{},
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
		key, err := l.unfinished(ev.MatchID)
		if err == nil {
			l.countMiss(key)
			l.setReferee(key, ev.Referee)
			l.steps[key] = "assigned"
			l.setRunning(key, true)
		}
		return err
	case EventMatchStep:
		key, err := l.unfinished(ev.MatchID)
		if err == nil {
			l.steps[key] = ev.Step
		}
		return err
	case EventMatchResult:
		return l.recordResult(ev.Result)
	case EventRoundScheduled:
		return l.addRound(ev.Schedule)
	case EventPlayerSuspended:
		return l.suspend(ev.AgentID, RolePlayer)
	case EventRefereeSuspended:
		return l.suspend(ev.AgentID, RoleReferee)
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
		if l.RoundCount() < l.planned && !l.sprtDecided() && !l.separated() {
			return fmt.Errorf("%d of %d rounds scheduled", l.RoundCount(), l.planned)
		}
		l.State = LeagueCompleted
	case EventStalled:
	case EventRoundAnnounced, EventRoundCompleted:
		if ev.Round < 1 || ev.Round > l.RoundCount() {
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
		again := *a
		if again.PriorTokenHash == "" {
			// Journals written before PriorTokenHash: the manager took
			// only the current token then, so that is the one the agent
			// presented, and the one it holds if it died before saving
			// the new one.
			again.PriorTokenHash = old.TokenHash
		}
		*old = again
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
	packed, err := s.packed()
	if err != nil {
		return err // before any change: an event that does not apply changes nothing
	}
	l.State, l.Seed, l.GameType = LeagueRunning, s.Seed, s.GameType
	if s.Scoring != nil {
		l.Table.scoring = *s.Scoring // no result is scored before the start
	}
	l.planned, l.entrants = max(s.RoundsPlanned, len(packed.rounds)), s.Players
	if s.Format != nil {
		l.format = *s.Format
	}
	l.sched = packed.clone()
	for _, r := range l.sched.rounds {
		l.trackRound(len(r.seats))
	}
	l.countRoundsDone()
	return nil
}

// appendRound adds a round to the schedule and its matches to the records.
func (l *League) appendRound(r Round) {
	l.sched.addRound(r)
	l.trackRound(len(r.Matches))
}

// trackRound makes the records of a round of matches the schedule has.
func (l *League) trackRound(matches int) {
	l.states = append(l.states, make([]matchState, matches))
	l.total += matches
	l.unplayed = append(l.unplayed, matches)
	l.runningIn = append(l.runningIn, 0)
}

// RoundCount is how many rounds the league has scheduled so far.
func (l *League) RoundCount() int { return len(l.sched.rounds) }

// Round is round n (1-based) of the schedule, unpacked; it has no matches
// when there is no round n.
func (l *League) Round(n int) Round {
	if n < 1 || n > len(l.sched.rounds) {
		return Round{}
	}
	return l.sched.round(n - 1)
}

// Rounds is the whole schedule so far, unpacked: at 1,000 players half a
// million Pairings, so what can go a round at a time should (Round).
func (l *League) Rounds() []Round { return l.sched.all() }

func (l *League) unfinished(matchID string) (matchKey, error) {
	key, ok := l.find(matchID)
	switch {
	case l.State == LeagueStopped:
		return key, ErrLeagueStopped
	case !ok:
		return key, fmt.Errorf("no match %q", matchID)
	case l.hasResult(key):
		return key, fmt.Errorf("match %s already has a result", matchID)
	}
	return key, nil
}

func (l *League) recordResult(r *Result) error {
	if r == nil {
		return fmt.Errorf("no result")
	}
	key, err := l.unfinished(r.MatchID)
	if err != nil {
		return err
	}
	m := l.sched.seating(key)
	if r.PlayerA != m.PlayerA || r.PlayerB != m.PlayerB {
		return fmt.Errorf("match %s is %s vs %s, not %s vs %s", r.MatchID, m.PlayerA, m.PlayerB, r.PlayerA, r.PlayerB)
	}
	res := compactResult(*r, m)
	if _, running := l.running[key]; running {
		delete(l.missed, l.refereeOf(key)) // its referee reported it
	}
	l.setRunning(key, false)
	l.storeResult(key, res)
	delete(l.steps, key)
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
	l.unplayed[key.round]--
	l.countRoundsDone()
	return nil
}

// setRunning adds a match to the running ones or takes it out, in O(1).
func (l *League) setRunning(key matchKey, on bool) {
	_, was := l.running[key]
	if was == on {
		return
	}
	delta := 1
	if on {
		l.running[key] = struct{}{}
	} else {
		delete(l.running, key)
		delta = -1
	}
	l.runningIn[key.round] += delta
}

// endRunning ends every running match without a result, giving it step.
func (l *League) endRunning(step string) {
	for key := range l.running {
		l.steps[key] = step
		l.setRunning(key, false)
	}
}

// compactResult makes a result share the strings the league already holds (the
// schedule's player ids, the status constants) instead of its own copies
// decoded from the journal or the network: a league keeps half a million
// results at 1,000 players, and each copy is an allocation of its own. p
// is the match's seating: its match id is r's own, equal to the schedule's.
func compactResult(r Result, p Pairing) Result {
	r.PlayerA, r.PlayerB = p.PlayerA, p.PlayerB
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

// suspend marks a registered player or referee suspended. The league
// keeps at least one referee in play: without one no match could be run.
func (l *League) suspend(id string, role Role) error {
	a, ok := l.byID[id]
	switch {
	case !ok || a.Role != role:
		return fmt.Errorf("no %s %q", role, id)
	case l.suspended[id]:
		return fmt.Errorf("%s %s is already suspended", role, id)
	case role == RoleReferee && len(l.RefereesInPlay()) <= 1:
		return fmt.Errorf("referee %s is the last in play", id)
	}
	l.suspended[id] = true
	if role == RolePlayer {
		l.Table.SetStatus(id, PlayerSuspended)
	}
	return nil
}

// reinstate lifts a suspension: the agent came back (a restarted process
// registering again) and starts with a clean record of failures.
func (l *League) reinstate(id string) {
	if l.suspended[id] {
		delete(l.suspended, id)
		if l.byID[id].Role == RolePlayer {
			l.Table.SetStatus(id, "")
		}
	}
	delete(l.streak, id)
	delete(l.missed, id)
}

// countMiss counts, when a match is assigned again while it runs, a miss
// of the referee it ran on: that referee let the match's deadline pass, or
// went away, without a report. A match that no longer runs (the manager
// restarted, the league was stopped) is no referee's miss.
func (l *League) countMiss(key matchKey) {
	if _, running := l.running[key]; running {
		if referee := l.refereeOf(key); referee != "" {
			l.missed[referee]++
		}
	}
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

// Suspended reports whether a player or a referee is suspended.
func (l *League) Suspended(id string) bool { return l.suspended[id] }

// MissedReports counts the matches in a row a referee was given and did
// not report: each ended by the manager giving the match to another (or to
// it again), up to its latest report.
func (l *League) MissedReports(id string) int { return l.missed[id] }

// SilentReferee reports whether a referee is to be suspended: it missed
// after (> 0) reports in a row or more, is not suspended yet, and is not
// the last referee in play. Its suspension is the journal's
// referee_suspended, like a player's (see FailureStreak).
func (l *League) SilentReferee(id string, after int) bool {
	return after > 0 && l.missed[id] >= after && !l.suspended[id] && len(l.RefereesInPlay()) > 1
}

// FailureStreak counts a player's technical losses in a row as the
// offender, up to its latest result.
func (l *League) FailureStreak(id string) int { return l.streak[id] }

// Players lists registered players in registration order.
func (l *League) Players() []AgentInfo { return copyAgents(l.players) }

// Referees lists registered referees in registration order.
func (l *League) Referees() []AgentInfo { return copyAgents(l.referees) }

// RefereesInPlay lists the referees not suspended, in registration order:
// those a match may be given to.
func (l *League) RefereesInPlay() []AgentInfo {
	out := make([]AgentInfo, 0, len(l.referees))
	for _, r := range l.referees {
		if !l.suspended[r.ID] {
			out = append(out, *r)
		}
	}
	return out
}

func copyAgents(list []*AgentInfo) []AgentInfo {
	out := make([]AgentInfo, len(list))
	for i, a := range list {
		out[i] = *a
	}
	return out
}

// Match returns what the league knows of a scheduled match.
func (l *League) Match(matchID string) (MatchRecord, bool) {
	key, ok := l.find(matchID)
	if !ok {
		return MatchRecord{}, false
	}
	return l.record(key, matchID), true
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
	if l.roundsDone >= len(l.sched.rounds) {
		return 0
	}
	return l.roundsDone + 1
}

// RoundProgress counts a round's matches with a result, running, and in all.
func (l *League) RoundProgress(round int) (done, running, total int) {
	if round < 1 || round > len(l.sched.rounds) {
		return 0, 0, 0
	}
	total = len(l.sched.rounds[round-1].seats)
	return total - l.unplayed[round-1], l.runningIn[round-1], total
}

// Running reports whether a match is being played now: assigned, without a
// result, and neither abandoned by a stop nor cut off by a restart.
func (l *League) Running(matchID string) bool {
	key, ok := l.find(matchID)
	_, running := l.running[key]
	return ok && running
}

// RunningCount is how many matches are being played now.
func (l *League) RunningCount() int { return len(l.running) }

// RunningIDs lists the matches being played now, in no particular order.
func (l *League) RunningIDs() []string {
	out := make([]string, 0, len(l.running))
	for key := range l.running {
		out = append(out, l.sched.matchID(key))
	}
	return out
}

// Progress counts matches with a result and matches in all.
func (l *League) Progress() (done, total int) { return l.finished, l.total }

// Results lists the results of a round in match order.
func (l *League) Results(round int) []Result {
	if round < 1 || round > len(l.sched.rounds) {
		return nil
	}
	var out []Result
	for k := range l.sched.rounds[round-1].seats {
		if r, ok := l.resultAt(matchKey{round: int32(round - 1), board: int32(k)}); ok {
			out = append(out, r)
		}
	}
	return out
}
