// Package report reads a league's data folder, read-only, and turns it into
// what leaves the terminal: a self-contained HTML report and CSV and JSON
// lines exports. The journal is the record: the results, the referees and
// the timings come from it; the standings and ratings from standings.json
// (the manager's, derived from the same journal); the transcripts from the
// match files. Nothing is written into the folder, so an archived or
// read-only copy, or one from another machine, reads the same.
package report

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/leaguetui/leaguetui/agents/protocol"
	"github.com/leaguetui/leaguetui/agents/store"
	"github.com/leaguetui/leaguetui/engine"
)

// maxMatchFile bounds a match file read, as the manager bounds one it
// serves: a hostile or damaged file cannot make the report unbounded.
const maxMatchFile = 8 << 20

// League is one league of a data folder, as the report and the exports
// show it.
type League struct {
	DataDir   string
	LeagueID  string
	GameType  string
	Seed      int64
	State     engine.LeagueState
	Standings protocol.StandingsFile
	Ratings   []Rating           // in the table's order
	Names     map[string]string  // agent id -> display name
	Matches   []*Match           // in schedule order: round, then board
	Models    map[string]*Tokens // a model player's moves, tokens and latency over the league
	Events    int64              // journal records read
	Started   time.Time          // league_started's time; zero if not started
	Finished  time.Time          // the last result's time
	// Problems are what the folder lacks or contradicts (a result without
	// its match file, a journal cut short); the report lists them.
	Problems []string

	running  map[string]*Match // assigned and without a result, while the journal is read
	entrants []string          // the players league_started names
	state    engine.LeagueState
}

// Rating is one player's rating and its 95 % interval.
type Rating struct {
	PlayerID string
	Elo      float64
	CI95     float64
	Games    int
	Rated    bool
	LOSNext  *float64
}

// Match is one scheduled match: its result and facts from the journal,
// its transcript from its file.
type Match struct {
	MatchID   string
	Round     int
	PlayerA   string
	PlayerB   string
	Referee   string
	Result    *engine.Result // nil while it has none
	Facts     *engine.MatchFacts
	Assigned  time.Time // the last match_assigned's time
	Finished  time.Time // the match_result's time
	Abandoned bool      // it ran when the league stopped or its manager went down, and has no result since
	File      *protocol.MatchFile
	Exchanges []Exchange        // the transcript, each entry read for the report
	Statuses  map[string]string // per player: the status the game gave (player_statuses), if it gives one
	Moves     int               // moves the players answered, from the transcript
	Models    map[string]*Tokens
	Race      *Race // a link race's paths, nil for other games
	GameFacts []Fact
}

// Exchange is one transcript entry, with what a reader looks for pulled
// out of its content.
type Exchange struct {
	protocol.TranscriptHead
	Move    string // the move a player answered with, if any
	Model   *ModelMove
	Content string // the content, compact JSON
}

// ModelMove is a model player's cost for one move, from its reply's model block.
type ModelMove struct {
	Provider     string `json:"provider"`
	Model        string `json:"model"`
	InputTokens  int64  `json:"input_tokens"`
	OutputTokens int64  `json:"output_tokens"`
	LatencyMS    int64  `json:"latency_ms"`
	ErrorType    string `json:"error_type,omitempty"`
	Status       string `json:"status,omitempty"`
	Fallback     bool   `json:"fallback,omitempty"`
	// Price is the price the player gave its model, CostUSD the move's
	// tokens at it: an estimate, absent without a price.
	Price   *protocol.Price `json:"price,omitempty"`
	CostUSD *float64        `json:"cost_usd,omitempty"`
	// BudgetSpent names the budget that kept the model from being asked.
	BudgetSpent string `json:"budget_spent,omitempty"`
	// Reasoning is the move's prompt and the model's reply, capped.
	Reasoning *protocol.Reasoning `json:"reasoning,omitempty"`
}

// Tokens adds up a model player's moves.
type Tokens struct {
	Provider     string `json:"provider"`
	Model        string `json:"model"`
	Moves        int    `json:"moves"`
	InputTokens  int64  `json:"input_tokens"`
	OutputTokens int64  `json:"output_tokens"`
	LatencyMS    int64  `json:"latency_ms"`
	Failures     int    `json:"failures"`
	// CostUSD is the tokens at the moves' price, nil when they had none.
	Price   *protocol.Price `json:"price,omitempty"`
	CostUSD *float64        `json:"cost_usd,omitempty"`
	// BudgetSpent names the budget that stopped the player's moves.
	BudgetSpent string `json:"budget_spent,omitempty"`
}

func (t *Tokens) add(m ModelMove) {
	t.Provider, t.Model = m.Provider, m.Model
	if m.BudgetSpent != "" {
		t.BudgetSpent = m.BudgetSpent
	}
	if m.Price != nil {
		t.Price = m.Price
	}
	defer func() {
		if t.Price != nil {
			cost := t.Price.Cost(t.InputTokens, t.OutputTokens)
			t.CostUSD = &cost
		}
	}()
	t.Moves++
	t.InputTokens += m.InputTokens
	t.OutputTokens += m.OutputTokens
	t.LatencyMS += m.LatencyMS
	if m.ErrorType != "" {
		t.Failures++
	}
}

// Race is a link race's two paths.
type Race struct {
	Start, Target    string
	PathA, PathB     []string
	StatusA, StatusB string
	Errors           []RaceError
}

// RaceError is one error the game recorded.
type RaceError struct {
	ErrorType string         `json:"error_type"`
	Player    string         `json:"player"`
	Metadata  map[string]any `json:"metadata"`
}

// Fact is one of the game's own result fields (the drawn number, …).
type Fact struct{ Name, Value string }

// Duration is from the match's assignment to its result, as the journal
// timed them; 0 when either is missing.
func (m *Match) Duration() time.Duration {
	if m.Assigned.IsZero() || m.Finished.IsZero() || m.Finished.Before(m.Assigned) {
		return 0
	}
	return m.Finished.Sub(m.Assigned)
}

// Status is the match's result status (WIN, DRAW, TECHNICAL_LOSS), or
// ABANDONED or UNPLAYED without one.
func (m *Match) Status() string {
	switch {
	case m.Result != nil:
		return string(m.Result.Status)
	case m.Abandoned:
		return "ABANDONED"
	}
	return "UNPLAYED"
}

// Winner is the winner's id, "" for none.
func (m *Match) Winner() string {
	if m.Result == nil {
		return ""
	}
	return m.Result.Winner
}

// Outcome is how the match ended for player p as the standings score it:
// win, draw, loss or technical_loss; "" without a result.
func (m *Match) Outcome(p string) string {
	if m.Result == nil {
		return ""
	}
	return engine.OutcomeFor(*m.Result, p)
}

// PlayerStatus is player p's status in the match: the game's own (a link
// race's WON, LOST_MAX_STEPS …) where it gives one, else its Outcome.
func (m *Match) PlayerStatus(p string) string {
	if s, ok := m.Statuses[p]; ok {
		return s
	}
	return m.Outcome(p)
}

// Move is the move the journal recorded for a player ("" if none).
func (m *Match) Move(player string) string {
	if m.Facts == nil {
		return ""
	}
	return m.Facts.Moves[player]
}

// Reason is the referee's one-line reason.
func (m *Match) Reason() string {
	if m.Facts == nil {
		return ""
	}
	return m.Facts.Reason
}

// Leagues lists the leagues a data folder holds.
func Leagues(dataDir string) ([]string, error) {
	entries, err := os.ReadDir(filepath.Join(dataDir, "leagues"))
	if err != nil {
		return nil, fmt.Errorf("%s is no leaguetui data folder: %w", dataDir, err)
	}
	var ids []string
	for _, e := range entries {
		if e.IsDir() && store.SafeName(e.Name()) == nil {
			ids = append(ids, e.Name())
		}
	}
	return ids, nil
}

// Load reads league leagueID of the data folder, or its only league when
// leagueID is "". It only reads.
func Load(dataDir, leagueID string) (*League, error) {
	if leagueID == "" {
		ids, err := Leagues(dataDir)
		if err != nil {
			return nil, err
		}
		switch len(ids) {
		case 0:
			return nil, fmt.Errorf("%s holds no league", dataDir)
		case 1:
			leagueID = ids[0]
		default:
			return nil, fmt.Errorf("%s holds %d leagues (%s): name one", dataDir, len(ids), strings.Join(ids, ", "))
		}
	}
	layout, err := store.NewLayout(dataDir, leagueID)
	if err != nil {
		return nil, err
	}
	l := &League{DataDir: dataDir, LeagueID: leagueID, Names: map[string]string{}, Models: map[string]*Tokens{},
		running: map[string]*Match{}}
	err = readJSON(layout.Standings(), maxMatchFile, &l.Standings)
	missing := errors.Is(err, fs.ErrNotExist)
	if err != nil && !missing {
		return nil, fmt.Errorf("league %s: %w", leagueID, err)
	}
	l.State, l.Seed, l.GameType = l.Standings.State, l.Standings.Seed, l.Standings.GameType
	if err := l.readJournal(layout); err != nil {
		return nil, fmt.Errorf("league %s: %w", leagueID, err)
	}
	if missing {
		l.tableFromJournal()
	}
	for _, row := range l.Standings.Standings {
		if _, ok := l.Names[row.PlayerID]; !ok {
			l.Names[row.PlayerID] = row.DisplayName
		}
	}
	for _, m := range l.Matches {
		l.readMatchFile(layout, m)
	}
	if played := l.played(); l.Standings.MatchesDone != played {
		l.Problems = append(l.Problems, fmt.Sprintf("standings.json counts %d matches done, the journal %d: "+
			"the table is as the manager last wrote it", l.Standings.MatchesDone, played))
	}
	l.rate()
	return l, nil
}

// tableFromJournal makes the table when the folder has no standings.json
// (the manager had not written it yet, or it was lost): from the journal's
// results, scored with the protocol's default points, which the report
// says, since the journal does not keep the league's scoring.
func (l *League) tableFromJournal() {
	var results []engine.Result
	for _, m := range l.Matches {
		if m.Result != nil {
			results = append(results, *m.Result)
		}
	}
	l.Standings = protocol.StandingsFile{LeagueID: l.LeagueID, Seed: l.Seed, State: l.state, GameType: l.GameType,
		MatchesDone: len(results), MatchesTotal: len(l.Matches)}
	for _, r := range engine.Standings(engine.DefaultScoring(), l.entrants, results) {
		l.Standings.Standings = append(l.Standings.Standings, protocol.StandingRow{Rank: r.Rank, PlayerID: r.PlayerID,
			DisplayName: l.Name(r.PlayerID), Played: r.Played, Wins: r.Wins, Draws: r.Draws, Losses: r.Losses,
			TechnicalLosses: r.TechnicalLosses, Points: r.Points})
	}
	l.State = l.state
	l.Problems = append(l.Problems, "the folder has no standings.json: the table is made from the journal's results "+
		"with the default points (win 3, draw 1, loss 0)")
}

// schedule adds a round's matches, in the schedule's order.
func (l *League) schedule(r engine.Round, byID map[string]*Match) {
	for _, p := range r.Matches {
		if byID[p.MatchID] == nil {
			m := &Match{MatchID: p.MatchID, Round: p.Round, PlayerA: p.PlayerA, PlayerB: p.PlayerB}
			byID[m.MatchID] = m
			l.Matches = append(l.Matches, m)
		}
	}
}

// readJournal reads every committed record of the league's journal: who
// registered, the schedule (league_started's, and each round_scheduled),
// when each match was assigned and finished, and each result with its
// facts. rounds.json is not read: it is derived from the same journal and
// may lag it.
func (l *League) readJournal(layout store.Layout) error {
	byID := map[string]*Match{}
	_, err := store.NewJournalReader(layout.Journal()).Read(1, math.MaxInt64, func(raw json.RawMessage) error {
		var ev engine.Event
		if err := json.Unmarshal(raw, &ev); err != nil {
			return fmt.Errorf("journal record %d: %w", l.Events+1, err)
		}
		l.Events++
		l.apply(ev, byID)
		return nil
	})
	return err
}

func (l *League) apply(ev engine.Event, byID map[string]*Match) {
	match := func() *Match {
		m := byID[ev.MatchID]
		if m == nil {
			m = &Match{MatchID: ev.MatchID, Round: ev.Round}
			byID[ev.MatchID] = m
			l.Matches = append(l.Matches, m)
			l.Problems = append(l.Problems, fmt.Sprintf("match %s is in the journal but not in its schedule", ev.MatchID))
		}
		return m
	}
	switch ev.Kind {
	case engine.EventAgentRegistered:
		if ev.Agent != nil {
			l.Names[ev.Agent.ID] = ev.Agent.DisplayName
		}
		if l.state == "" {
			l.state = engine.LeagueWaiting
		}
	case engine.EventLeagueStarted:
		l.Started = ev.Time
		if ev.Start == nil {
			return
		}
		l.entrants, l.Seed, l.state = ev.Start.Players, ev.Start.Seed, engine.LeagueRunning
		if l.GameType == "" {
			l.GameType = ev.Start.GameType
		}
		rounds, err := ev.Start.Schedule()
		if err != nil {
			l.Problems = append(l.Problems, fmt.Sprintf("the league's schedule cannot be made again: %v", err))
		}
		for _, r := range rounds {
			l.schedule(r, byID)
		}
	case engine.EventRoundScheduled:
		if ev.Schedule != nil {
			l.schedule(*ev.Schedule, byID)
		}
	case engine.EventMatchAssigned:
		m := match()
		m.Referee, m.Assigned, m.Abandoned = ev.Referee, ev.Time, false
		l.running[m.MatchID] = m
	case engine.EventPaused:
		l.state = engine.LeaguePaused
	case engine.EventResumed:
		l.state = engine.LeagueRunning
	case engine.EventLeagueCompleted:
		l.state = engine.LeagueCompleted
	case engine.EventStopped, engine.EventRestarted:
		if ev.Kind == engine.EventStopped {
			l.state = engine.LeagueStopped
		}
		// What ran then ends without a result (a restart plays it again).
		for id, m := range l.running {
			m.Abandoned = true
			delete(l.running, id)
		}
	case engine.EventMatchResult:
		if ev.Result == nil {
			return
		}
		m := match()
		res := *ev.Result
		m.Result, m.Facts, m.Finished, m.Abandoned = &res, ev.Facts, ev.Time, false
		delete(l.running, m.MatchID)
		m.PlayerA, m.PlayerB = res.PlayerA, res.PlayerB
		if ev.Referee != "" {
			m.Referee = ev.Referee
		}
		if ev.Time.After(l.Finished) {
			l.Finished = ev.Time
		}
	}
}

// readMatchFile reads a match's file and what the report shows of it. A
// played match without its file is a problem the report names; an
// unplayed one has none to read.
func (l *League) readMatchFile(layout store.Layout, m *Match) {
	path, err := layout.Match(m.MatchID)
	if err != nil {
		l.Problems = append(l.Problems, fmt.Sprintf("match id %q cannot name a file: %v", m.MatchID, err))
		return
	}
	var f protocol.MatchFile
	if err := readJSON(path, maxMatchFile, &f); err != nil {
		if m.Result != nil || !errors.Is(err, fs.ErrNotExist) {
			l.Problems = append(l.Problems, err.Error())
		}
		return
	}
	m.File = &f
	if m.Referee == "" {
		m.Referee = f.RefereeID
	}
	m.Models = map[string]*Tokens{}
	for _, e := range f.Transcript {
		x := exchangeOf(e)
		if x.Move != "" {
			m.Moves++
		}
		if x.Model != nil {
			player, _ := e.Content["player_id"].(string)
			add(m.Models, player, *x.Model)
			add(l.Models, player, *x.Model)
		}
		m.Exchanges = append(m.Exchanges, x)
	}
	details := f.Result.Details
	if statuses, ok := details["player_statuses"].(map[string]any); ok {
		for p, s := range statuses {
			if text, ok := s.(string); ok && (p == m.PlayerA || p == m.PlayerB) {
				if m.Statuses == nil {
					m.Statuses = map[string]string{}
				}
				m.Statuses[p] = text
			}
		}
	}
	m.Race = raceOf(details)
	m.GameFacts = factsOf(details)
}

// ModelSpend is what the league's model players spent, estimated: the sum
// of their costs, nil when none has a price, and how many had none.
func (l *League) ModelSpend() (total *float64, unpriced int) {
	for _, t := range l.Models {
		if t.CostUSD == nil {
			unpriced++
			continue
		}
		if total == nil {
			total = new(float64)
		}
		*total += *t.CostUSD
	}
	return total, unpriced
}

func add(to map[string]*Tokens, player string, m ModelMove) {
	if to[player] == nil {
		to[player] = &Tokens{}
	}
	to[player].add(m)
}

// moveFields are the content fields in which a player answers a move.
var moveFields = []string{"parity_choice", "move_data", "move"}

// exchangeOf reads one transcript entry.
func exchangeOf(e protocol.TranscriptEntry) Exchange {
	x := Exchange{TranscriptHead: e.TranscriptHead}
	if raw, err := json.Marshal(e.Content); err == nil {
		x.Content = string(raw)
	}
	if strings.HasPrefix(e.From, "player:") {
		for _, field := range moveFields {
			if v, ok := e.Content[field]; ok && v != nil {
				x.Move = text(v)
				break
			}
		}
	}
	if block, ok := e.Content["model"].(map[string]any); ok {
		var mm ModelMove
		if raw, err := json.Marshal(block); err == nil && json.Unmarshal(raw, &mm) == nil {
			x.Model = &mm
		}
	}
	return x
}

// raceOf is a link race's paths, statuses and errors; nil for a result
// without paths.
func raceOf(d map[string]any) *Race {
	if d["path_A"] == nil && d["path_B"] == nil {
		return nil
	}
	r := &Race{Start: text(d["start_page"]), Target: text(d["target_page"]), PathA: stringList(d["path_A"]),
		PathB: stringList(d["path_B"]), StatusA: text(d["status_A"]), StatusB: text(d["status_B"])}
	if raw, err := json.Marshal(d["errors"]); err == nil {
		_ = json.Unmarshal(raw, &r.Errors)
	}
	return r
}

// shownApart are the result fields the report shows in their own places.
var shownApart = []string{"path_A", "path_B", "errors", "player_statuses", "reason", "status", "winner_player_id"}

// factsOf is the game's other result fields, by name.
func factsOf(d map[string]any) []Fact {
	var facts []Fact
	for name, v := range d {
		if !slices.Contains(shownApart, name) {
			facts = append(facts, Fact{name, text(v)})
		}
	}
	sort.Slice(facts, func(i, j int) bool { return facts[i].Name < facts[j].Name })
	return facts
}

// text is a JSON value as one line: a string as it is, anything else as JSON.
func text(v any) string {
	if s, ok := v.(string); ok {
		return s
	}
	if v == nil {
		return ""
	}
	raw, _ := json.Marshal(v)
	return string(raw)
}

func stringList(v any) []string {
	list, _ := v.([]any)
	out := make([]string, 0, len(list))
	for _, x := range list {
		out = append(out, text(x))
	}
	return out
}

// rate takes the ratings standings.json carries when they fit every
// result, and otherwise fits them from the journal's results with the
// engine's own fit, as the manager fits them: players in id order
// (engine.SortIDs), technical losses counted as the file says. The same
// results then give the same ratings to the last bit, whichever wrote them
// (standings.json may lag the last results by a moment when --csv reads
// it). Either way the ratings are in the table's order.
func (l *League) rate() {
	doc := l.Standings.Ratings
	if doc != nil && doc.MatchesFitted >= l.played() {
		for _, r := range doc.Players {
			l.Ratings = append(l.Ratings, Rating{PlayerID: r.PlayerID, Elo: r.Elo, CI95: r.CI95, Games: r.Games, Rated: r.Rated, LOSNext: r.LOSNext})
		}
		return
	}
	var table []string
	for _, row := range l.Standings.Standings {
		table = append(table, row.PlayerID)
	}
	var results []engine.Result
	for _, m := range l.Matches {
		if m.Result != nil {
			results = append(results, *m.Result)
		}
	}
	byID := slices.Clone(table)
	engine.SortIDs(byID)
	opts := engine.RatingOptions{ExcludeTechnical: doc != nil && doc.TechnicalLosses == "excluded"}
	fit := engine.FitRatings(byID, results, opts)
	for i, id := range table {
		p, _ := fit.Rating(id)
		r := Rating{PlayerID: id, Elo: p.Elo, CI95: p.CI95, Games: p.Games, Rated: p.Rated}
		if next, ok := fit.Rating(at(table, i+1)); ok && p.Rated && next.Rated {
			los := fit.LOS(id, next.PlayerID)
			r.LOSNext = &los
		}
		l.Ratings = append(l.Ratings, r)
	}
}

// at is list[i], "" past its end.
func at(list []string, i int) string {
	if i < len(list) {
		return list[i]
	}
	return ""
}

// played is how many matches have a result.
func (l *League) played() int {
	n := 0
	for _, m := range l.Matches {
		if m.Result != nil {
			n++
		}
	}
	return n
}

// Played is how many matches have a result.
func (l *League) Played() int { return l.played() }

// Name is an agent's display name, its id when it has none.
func (l *League) Name(id string) string {
	if n := l.Names[id]; n != "" {
		return n
	}
	return id
}

// Crosstable is each pair's matches, in order: Crosstable()[a][b] are
// a's matches against b.
func (l *League) Crosstable() map[string]map[string][]*Match {
	cross := map[string]map[string][]*Match{}
	put := func(a, b string, m *Match) {
		if cross[a] == nil {
			cross[a] = map[string][]*Match{}
		}
		cross[a][b] = append(cross[a][b], m)
	}
	for _, m := range l.Matches {
		put(m.PlayerA, m.PlayerB, m)
		put(m.PlayerB, m.PlayerA, m)
	}
	return cross
}

// readJSON decodes the JSON file at path, at most limit bytes of it.
func readJSON(path string, limit int64, into any) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	dec := json.NewDecoder(&limited{f: f, left: limit})
	if err := dec.Decode(into); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	return nil
}

// limited reads at most left bytes and then fails, so an oversized file is
// an error rather than a silently cut one.
type limited struct {
	f    *os.File
	left int64
}

func (r *limited) Read(p []byte) (int, error) {
	if r.left <= 0 {
		return 0, errors.New("file larger than the report reads")
	}
	if int64(len(p)) > r.left {
		p = p[:r.left]
	}
	n, err := r.f.Read(p)
	r.left -= int64(n)
	return n, err
}

// JournalState is the league's state as its journal says, which
// standings.json (written at a bounded rate) may lag by a moment.
func (l *League) JournalState() engine.LeagueState { return l.state }
