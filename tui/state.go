package tui

import (
	"context"
	"fmt"
	"log/slog"
	"strings"
	"time"

	"github.com/leaguetui/leaguetui/agents/protocol"
	"github.com/leaguetui/leaguetui/engine"
	"github.com/leaguetui/leaguetui/league/control"
)

// Bounds on what the console keeps, so memory stays flat however long the
// league runs.
const (
	recentCap = 200  // finished matches kept for the match flow
	logCap    = 2000 // log entries kept
)

// Display states of the league. They extend engine.LeagueState with
// "pausing": paused, but matches started before the pause still run.
const (
	stateWaiting   = "waiting"
	stateRunning   = "running"
	statePausing   = "pausing"
	statePaused    = "paused"
	stateCompleted = "completed"
	stateStopped   = "stopped"
)

// matchInfo is what the console knows about one scheduled match.
type matchInfo struct {
	engine.Pairing
	Index      int    // position in the whole schedule, for a stable order
	Referee    string // current referee, "" before assignment
	Step       string // last step: assigned, invited, joined, choosing, drawn N, finished
	StepDetail string
	Attempts   int // times assigned; more than one means a referee failed it
	Assigned   time.Time
	Finished   time.Time
	Abandoned  bool // the league was stopped while it ran
	Result     *engine.Result
	Steps      []stepRecord // from the feed, shown when no match file is at hand
}

// stepRecord is one step of a match as the feed reported it.
type stepRecord struct {
	Time    time.Time
	Step    string
	Referee string
	Detail  string
}

// roundInfo counts one round's matches.
type roundInfo struct {
	Number    int
	Matches   []*matchInfo
	Done      int
	Running   int
	Announced bool
	Completed bool
}

// agentInfo is a registered agent and what the console last heard of it.
type agentInfo struct {
	engine.AgentInfo
	LastSeen time.Time // last event or health answer that involved it
	Health   string    // state from /health: INIT, REGISTERED, ACTIVE, SUSPENDED, SHUTDOWN
	Down     bool      // the last /health failed
	HealthAt time.Time
	Tools    []string            // MCP tools from /health
	Model    *protocol.ModelCost // a model player's cost from /health; nil for others
	// Suspended: the manager suspended this player (player_suspended) or
	// referee (referee_suspended); it says nothing on /health, the agent
	// may not even know.
	Suspended bool
}

// logLevel orders log entries.
type logLevel int

const (
	levelInfo logLevel = iota
	levelWarn
	levelError
)

func (l logLevel) String() string {
	switch l {
	case levelWarn:
		return "WARN"
	case levelError:
		return "ERROR"
	}
	return "INFO"
}

// logEntry is one line of the log pane.
type logEntry struct {
	Time  time.Time
	Level logLevel
	Text  string
}

// leagueState is the league as the console sees it. The league itself
// (its state, results, running matches, standings, suspensions) is an
// engine.League fed the manager's events, the one place where events are
// applied, as the manager and the headless run do; the console keeps
// beside it only what it shows: times, each match's steps, the log, the
// agents' health. Every event costs O(1) amortised: lookups are maps,
// lists are appended to or bounded rings, and nothing is sorted here;
// views sort only what they show.
type leagueState struct {
	LeagueID    string
	ManagerURL  string
	Seed        int64
	GameType    string
	LastSeq     int64
	Started     time.Time // league_started
	Ended       time.Time // league_completed or stopped
	pausedAt    time.Time
	pausedTotal time.Duration

	league   *engine.League
	official *protocol.StandingsFile // the manager's own standings, when in step with ours

	Rounds   []*roundInfo
	matches  map[string]*matchInfo
	byPair   map[[2]string][]*matchInfo // crosstable: who met whom, in schedule order
	perPair  int                        // the most games a pair has in the schedule
	recent   ring[*matchInfo]
	logs     ring[logEntry]
	warnings int
	errors   int

	manager  *agentInfo // the manager itself, probed like the others
	players  []*agentInfo
	referees []*agentInfo
	agents   map[string]*agentInfo
	logger   *slog.Logger // also gets warnings and errors, when set

	// OpenReferees: the manager's /health says it admits any referee.
	OpenReferees bool
}

func newLeagueState(scoring engine.Scoring) *leagueState {
	return &leagueState{
		league:  engine.NewLeague("", scoring),
		matches: map[string]*matchInfo{},
		byPair:  map[[2]string][]*matchInfo{},
		recent:  newRing[*matchInfo](recentCap),
		logs:    newRing[logEntry](logCap),
		agents:  map[string]*agentInfo{},
		manager: &agentInfo{AgentInfo: engine.AgentInfo{ID: "LM", Role: roleManager, DisplayName: "league manager"}},
	}
}

// setHealth records an agent's /health answer: a failure marks it down, an
// answer gives its state and counts as seeing it.
func (s *leagueState) setHealth(a *agentInfo, p control.Probe) {
	a.HealthAt = p.At
	if p.Err != nil {
		a.Down = true
		return
	}
	a.Down, a.Health = false, p.Health.State
	if a == s.manager {
		s.OpenReferees = p.Health.OpenReferees
	}
	if len(p.Health.Tools) > 0 {
		a.Tools = p.Health.Tools
	}
	if p.Health.Model != nil {
		a.Model = p.Health.Model
	}
	if p.At.After(a.LastSeen) {
		a.LastSeen = p.At
	}
}

// DisplayState is the state the header shows.
func (s *leagueState) DisplayState() string {
	switch s.league.State {
	case engine.LeagueRunning:
		return stateRunning
	case engine.LeaguePaused:
		if s.league.RunningCount() > 0 {
			return statePausing
		}
		return statePaused
	case engine.LeagueCompleted:
		return stateCompleted
	case engine.LeagueStopped:
		return stateStopped
	}
	return stateWaiting
}

// Progress counts finished matches and all scheduled ones.
func (s *leagueState) Progress() (done, total int) { return s.league.Progress() }

// RunningCount is how many matches run now.
func (s *leagueState) RunningCount() int { return s.league.RunningCount() }

// CurrentRound is the first round with a match to play, or 0 before the
// start and after the last round.
func (s *leagueState) CurrentRound() int { return s.league.CurrentRound() }

// RoundsCompleted counts the leading rounds with every result in.
func (s *leagueState) RoundsCompleted() int { return s.league.RoundsCompleted() }

// Elapsed is the time since the league started (until it ended).
func (s *leagueState) Elapsed(now time.Time) time.Duration {
	if s.Started.IsZero() {
		return 0
	}
	end := now
	if !s.Ended.IsZero() {
		end = s.Ended
	}
	return max(end.Sub(s.Started), 0)
}

// active is the time the league spent running, pauses left out.
func (s *leagueState) active(now time.Time) time.Duration {
	d := s.Elapsed(now) - s.pausedTotal
	if !s.pausedAt.IsZero() && s.Ended.IsZero() {
		d -= max(now.Sub(s.pausedAt), 0)
	}
	return max(d, 0)
}

// Rate is finished matches per second of running time.
func (s *leagueState) Rate(now time.Time) float64 {
	secs := s.active(now).Seconds()
	done, _ := s.Progress()
	if done == 0 || secs <= 0 {
		return 0
	}
	return float64(done) / secs
}

// ETA is the time left at the current rate; ok is false when it cannot be
// told (not started, paused, or nothing finished yet).
func (s *leagueState) ETA(now time.Time) (time.Duration, bool) {
	if s.league.State != engine.LeagueRunning {
		return 0, s.league.State == engine.LeagueCompleted
	}
	rate := s.Rate(now)
	if rate <= 0 {
		return 0, false
	}
	done, total := s.Progress()
	left := float64(total - done)
	return time.Duration(left / rate * float64(time.Second)), true
}

// Running lists the running matches in schedule order (a handful: one per
// referee slot, so sorting them is cheap).
func (s *leagueState) Running() []*matchInfo {
	ids := s.league.RunningIDs()
	out := make([]*matchInfo, 0, len(ids))
	for _, id := range ids {
		if m := s.matches[id]; m != nil {
			out = append(out, m)
		}
	}
	sortMatches(out)
	return out
}

// Recent lists finished matches, newest first.
func (s *leagueState) Recent() []*matchInfo { return s.recent.NewestFirst() }

// Match finds a scheduled match.
func (s *leagueState) Match(id string) *matchInfo { return s.matches[id] }

// pairKey is a pair of players in either order.
func pairKey(a, b string) [2]string {
	if b < a {
		a, b = b, a
	}
	return [2]string{a, b}
}

// Pair lists the matches of two players, in either seat, in schedule
// order: one in a single round robin, several with --games-per-pair.
func (s *leagueState) Pair(a, b string) []*matchInfo { return s.byPair[pairKey(a, b)] }

// PerPair is the most matches a pair has in the schedule so far.
func (s *leagueState) PerPair() int { return s.perPair }

// Between finds the match of two players to open: the one running, else
// the last finished, else the first to play; nil when they do not meet.
func (s *leagueState) Between(a, b string) *matchInfo {
	ms := s.Pair(a, b)
	var last *matchInfo
	for _, m := range ms {
		switch {
		case m.Result == nil && m.Referee != "" && !m.Abandoned:
			return m
		case m.Result != nil:
			last = m
		}
	}
	if last == nil && len(ms) > 0 {
		last = ms[0]
	}
	return last
}

// Logs lists log entries, oldest first.
func (s *leagueState) Logs() []logEntry { return s.logs.OldestFirst() }

// Players lists registered players in registration order.
func (s *leagueState) Players() []*agentInfo { return s.players }

// ModelCosts maps each model player to its cost as its /health last said;
// nil when no player is a model player.
func (s *leagueState) ModelCosts() map[string]*protocol.ModelCost {
	var costs map[string]*protocol.ModelCost
	for _, a := range s.players {
		if a.Model == nil {
			continue
		}
		if costs == nil {
			costs = map[string]*protocol.ModelCost{}
		}
		costs[a.ID] = a.Model
	}
	return costs
}

// Referees lists registered referees in registration order.
func (s *leagueState) Referees() []*agentInfo { return s.referees }

// Agent finds a registered agent.
func (s *leagueState) Agent(id string) *agentInfo { return s.agents[id] }

// Standings are the rows to show: the manager's own when it has seen as many
// results and players as we have (it knows the league's scoring), else
// ours, so a player that registers while the league waits shows at once.
func (s *leagueState) Standings() []protocol.StandingRow {
	rows := s.league.Table.Rows()
	if done, _ := s.Progress(); s.official != nil && s.official.MatchesDone == done &&
		len(s.official.Standings) > 0 && len(s.official.Standings) == len(rows) {
		return s.official.Standings
	}
	return protocol.StandingRows(rows)
}

// SetStandings takes the manager's standings document: its league id and
// seed for the header, and its rows when they agree with our count.
func (s *leagueState) SetStandings(doc protocol.StandingsFile) {
	if doc.LeagueID != "" {
		s.LeagueID = doc.LeagueID
	}
	if s.Seed == 0 {
		s.Seed = doc.Seed
	}
	s.official = &doc
}

// Log adds a line to the log pane.
func (s *leagueState) Log(at time.Time, level logLevel, format string, args ...any) {
	s.logs.Push(logEntry{Time: at, Level: level, Text: fmt.Sprintf(format, args...)})
	switch level {
	case levelWarn:
		s.warnings++
	case levelError:
		s.errors++
	}
	if s.logger != nil && level > levelInfo {
		slogLevel := slog.LevelWarn
		if level == levelError {
			slogLevel = slog.LevelError
		}
		s.logger.Log(context.Background(), slogLevel, fmt.Sprintf(format, args...))
	}
}

// Apply applies one event from the feed: to the engine's league first,
// then to what the console shows beside it. Events already applied (a
// cursor that went back) are ignored, so a reconnecting feed cannot count
// twice; an event the league refuses is logged and changes nothing.
func (s *leagueState) Apply(ev engine.Event) {
	if ev.Seq != 0 && ev.Seq <= s.LastSeq {
		return
	}
	if ev.Seq > s.LastSeq {
		s.LastSeq = ev.Seq
	}
	touched := s.touchedBy(ev)
	wasRunning := s.league.Running(ev.MatchID)
	before, _ := s.league.Match(ev.MatchID)
	if err := s.league.Apply(ev); err != nil {
		s.Log(ev.Time, levelWarn, "event %d left out: %v", ev.Seq, err)
		return
	}
	for _, id := range touched {
		s.syncMatch(id)
	}
	switch ev.Kind {
	case engine.EventAgentRegistered:
		s.register(ev)
	case engine.EventLeagueStarted:
		s.start(ev)
	case engine.EventRoundScheduled:
		if ev.Schedule != nil {
			s.addRound(*ev.Schedule)
			what := plural(len(ev.Schedule.Matches), "match")
			if ev.Detail != "" { // a separating match: why it was chosen
				what = ev.Detail
			}
			s.Log(ev.Time, levelInfo, "round %d paired: %s", ev.Schedule.Number, what)
		}
	case engine.EventRoundAnnounced:
		s.round(ev.Round).Announced = true
	case engine.EventMatchAssigned:
		s.assign(ev, wasRunning, before.Referee)
	case engine.EventMatchStep:
		s.step(ev)
	case engine.EventMatchResult:
		s.result(ev)
	case engine.EventRoundCompleted:
		s.round(ev.Round).Completed = true
		s.Log(ev.Time, levelInfo, "round %d completed", ev.Round)
	case engine.EventLeagueCompleted:
		s.Ended = ev.Time
		done, _ := s.Progress()
		s.Log(ev.Time, levelInfo, "league completed: %s in %s%s", plural(done, "match"), plural(len(s.Rounds), "round"), stopReason(ev.Detail))
	case engine.EventPaused:
		s.pausedAt = ev.Time
		s.Log(ev.Time, levelInfo, "league paused%s; %s running to finish", by(ev.Detail), plural(s.RunningCount(), "match"))
	case engine.EventResumed:
		s.endPause(ev.Time)
		s.Log(ev.Time, levelInfo, "league resumed%s", by(ev.Detail))
	case engine.EventStopped:
		s.Ended = ev.Time
		s.endPause(ev.Time)
		done, total := s.Progress()
		s.Log(ev.Time, levelWarn, "league stopped%s: %d of %d matches played, %s abandoned", by(ev.Detail), done, total,
			plural(len(touched), "running match"))
	case engine.EventRestarted:
		s.Log(ev.Time, levelWarn, "%s", ev.Detail)
	case engine.EventPlayerSuspended, engine.EventRefereeSuspended:
		s.syncAgent(ev.AgentID)
		s.Log(ev.Time, levelWarn, "%s", ev.Detail)
	case engine.EventStorageFailed:
		if s.league.State == engine.LeaguePaused && s.pausedAt.IsZero() {
			s.pausedAt = ev.Time
		}
		s.Log(ev.Time, levelError, "%s", ev.Detail)
	case engine.EventStalled:
		s.Log(ev.Time, levelWarn, "%s", ev.Detail)
	}
}

// touchedBy lists the matches whose record an event changes: its own, or
// every running one for a stop or a restart, which end them.
func (s *leagueState) touchedBy(ev engine.Event) []string {
	switch ev.Kind {
	case engine.EventStopped, engine.EventRestarted:
		return s.league.RunningIDs()
	case engine.EventMatchResult:
		if ev.Result != nil {
			return []string{ev.Result.MatchID}
		}
	case engine.EventMatchAssigned, engine.EventMatchStep:
		return []string{ev.MatchID}
	}
	return nil
}

// syncMatch copies what the league knows of a match, and its round's
// counts, into what the panes show.
func (s *leagueState) syncMatch(id string) {
	m := s.matches[id]
	rec, ok := s.league.Match(id)
	if m == nil || !ok {
		return
	}
	m.Referee, m.Step, m.Result = rec.Referee, rec.Step, rec.Result
	m.Abandoned = rec.Result == nil && rec.Step == engine.StepAbandoned
	if r := s.round(m.Round); r != nil {
		r.Done, r.Running, _ = s.league.RoundProgress(m.Round)
	}
}

// syncAgent copies the league's record of an agent into the agents pane.
func (s *leagueState) syncAgent(id string) {
	a, ok := s.agents[id]
	info, known := s.league.Agent(id)
	if !ok || !known {
		return
	}
	a.AgentInfo = info.Public()
	a.Suspended = s.league.Suspended(id)
}

func (s *leagueState) endPause(at time.Time) {
	if !s.pausedAt.IsZero() {
		s.pausedTotal += max(at.Sub(s.pausedAt), 0)
		s.pausedAt = time.Time{}
	}
}

func (s *leagueState) register(ev engine.Event) {
	a, known := s.agents[ev.Agent.ID]
	if !known {
		a = &agentInfo{}
		s.agents[ev.Agent.ID] = a
		switch ev.Agent.Role {
		case engine.RolePlayer:
			s.players = append(s.players, a)
		case engine.RoleReferee:
			s.referees = append(s.referees, a)
		}
	}
	s.syncAgent(ev.Agent.ID)
	a.LastSeen = ev.Time
	if known {
		s.Log(ev.Time, levelInfo, "%s %s registered again from %s", ev.Agent.Role, ev.Agent.ID, ev.Agent.Endpoint)
	}
}

func (s *leagueState) start(ev engine.Event) {
	s.Started = ev.Time
	s.Seed, s.GameType = s.league.Seed, s.league.GameType
	s.Rounds = make([]*roundInfo, 0, s.league.RoundCount())
	for n := 1; n <= s.league.RoundCount(); n++ {
		s.addRound(s.league.Round(n))
	}
	s.Log(ev.Time, levelInfo, "league started: %s, seed %d, %s, %s, %s", s.GameType, s.Seed,
		plural(len(ev.Start.Players), "player"), plural(len(s.Rounds), "round"), plural(len(s.matches), "match"))
}

// addRound adds a round of the schedule: at the start, or a Swiss round
// paired when the one before ended. A round already known is ignored.
func (s *leagueState) addRound(r engine.Round) {
	if r.Number != len(s.Rounds)+1 {
		return
	}
	ri := &roundInfo{Number: r.Number}
	for _, p := range r.Matches {
		if s.matches[p.MatchID] != nil {
			continue
		}
		m := &matchInfo{Pairing: p, Index: len(s.matches)}
		ri.Matches = append(ri.Matches, m)
		s.matches[p.MatchID] = m
		key := pairKey(p.PlayerA, p.PlayerB)
		s.byPair[key] = append(s.byPair[key], m)
		s.perPair = max(s.perPair, len(s.byPair[key]))
	}
	s.Rounds = append(s.Rounds, ri)
}

// round is round n; the league has checked that it exists.
func (s *leagueState) round(n int) *roundInfo {
	if n < 1 || n > len(s.Rounds) {
		return nil
	}
	return s.Rounds[n-1]
}

func (s *leagueState) seen(id string, at time.Time) {
	if a, ok := s.agents[id]; ok && at.After(a.LastSeen) {
		a.LastSeen = at
	}
}

// assign records a match given to a referee; given while it still ran,
// the referee before did not play it.
func (s *leagueState) assign(ev engine.Event, wasRunning bool, previous string) {
	m := s.matches[ev.MatchID]
	if wasRunning {
		if previous == ev.Referee {
			s.Log(ev.Time, levelWarn, "%s given to %s again: its first try did not finish", m.MatchID, ev.Referee)
		} else {
			s.Log(ev.Time, levelWarn, "%s reassigned from %s to %s: the first did not play it", m.MatchID, previous, ev.Referee)
		}
	}
	m.Attempts++
	m.StepDetail, m.Assigned = "", ev.Time
	m.Steps = append(m.Steps, stepRecord{Time: ev.Time, Step: "assigned", Referee: ev.Referee})
	s.seen(ev.Referee, ev.Time)
}

func (s *leagueState) step(ev engine.Event) {
	m := s.matches[ev.MatchID]
	m.StepDetail = ev.Detail
	m.Steps = append(m.Steps, stepRecord{Time: ev.Time, Step: ev.Step, Referee: ev.Referee, Detail: ev.Detail})
	s.seen(ev.Referee, ev.Time)
	if ev.Step == "technical loss" {
		s.Log(ev.Time, levelWarn, "%s %s", m.MatchID, ev.Detail)
	}
}

func (s *leagueState) result(ev engine.Event) {
	m := s.matches[ev.Result.MatchID]
	res := *m.Result
	m.Finished = ev.Time
	m.Steps = append(m.Steps, stepRecord{Time: ev.Time, Step: "result", Referee: ev.Referee, Detail: describeResult(res)})
	s.recent.Push(m)
	for _, id := range []string{ev.Referee, res.PlayerA, res.PlayerB} {
		s.seen(id, ev.Time)
	}
	if res.Status == engine.StatusTechnicalLoss {
		s.Log(ev.Time, levelWarn, "%s technical loss: %s", m.MatchID, describeResult(res))
	}
}

func by(detail string) string {
	if detail == "" {
		return ""
	}
	return " " + detail
}

// stopReason is the reason a league that played on gave for its stop, "" for
// any other league.
func stopReason(detail string) string {
	if detail == "" {
		return ""
	}
	return "; " + detail
}

// describeResult is a result in words: "P01 wins", "draw", "P02 wins (technical loss: P01)".
func describeResult(r engine.Result) string {
	switch r.Status {
	case engine.StatusWin:
		return r.Winner + " wins"
	case engine.StatusDraw:
		return "draw"
	case engine.StatusTechnicalLoss:
		offenders := strings.Join(r.Offenders, ", ")
		if r.Winner == "" {
			return "technical loss for both (" + offenders + ")"
		}
		return r.Winner + " wins, technical loss for " + offenders
	}
	return string(r.Status)
}

// sortMatches orders matches as the schedule does. Insertion sort: the
// lists it gets are a few running matches.
func sortMatches(ms []*matchInfo) {
	for i := 1; i < len(ms); i++ {
		for j := i; j > 0 && ms[j].Index < ms[j-1].Index; j-- {
			ms[j], ms[j-1] = ms[j-1], ms[j]
		}
	}
}

// ring is a bounded list that drops its oldest element when full: O(1) push.
type ring[T any] struct {
	buf   []T
	start int
	n     int
}

func newRing[T any](capacity int) ring[T] { return ring[T]{buf: make([]T, capacity)} }

// Push adds v, dropping the oldest element when full.
func (r *ring[T]) Push(v T) {
	if len(r.buf) == 0 {
		return
	}
	if r.n < len(r.buf) {
		r.buf[(r.start+r.n)%len(r.buf)] = v
		r.n++
		return
	}
	r.buf[r.start] = v
	r.start = (r.start + 1) % len(r.buf)
}

// Len is the number of elements held.
func (r *ring[T]) Len() int { return r.n }

// At is the i-th element, oldest first.
func (r *ring[T]) At(i int) T { return r.buf[(r.start+i)%len(r.buf)] }

// OldestFirst copies the elements, oldest first.
func (r *ring[T]) OldestFirst() []T {
	out := make([]T, r.n)
	for i := range out {
		out[i] = r.At(i)
	}
	return out
}

// NewestFirst copies the elements, newest first.
func (r *ring[T]) NewestFirst() []T {
	out := make([]T, r.n)
	for i := range out {
		out[i] = r.At(r.n - 1 - i)
	}
	return out
}
