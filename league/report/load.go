// Package report reads a league's data folder, read-only, and turns it into
// what leaves the terminal: a self-contained HTML report and CSV and JSON
// lines exports. The journal is the record: the report replays it through
// engine.League, as the manager does when it starts again, and takes from
// that league the table, the ratings, the schedule and each match's result,
// and from the journal the times, referees and facts; the transcripts come
// from the match files. Nothing is written into the folder, so an archived
// or read-only copy, or one from another machine, reads the same.
package report

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"maps"
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
	Standings protocol.StandingsFile         // the manager's document, made from the replayed league
	Scoring   engine.Scoring                 // the points and tie-breakers the table was ranked with
	Ratings   []protocol.RatingRow           // in the table's order
	Names     map[string]string              // agent id -> display name
	Matches   []*Match                       // in schedule order: round, then board
	Models    map[string]*protocol.ModelCost // a model player's moves, tokens and latency over the league
	Events    int64                          // journal records read
	Started   time.Time                      // league_started's time; zero if not started
	Finished  time.Time                      // the last result's time
	// Problems are what the folder lacks or contradicts (a result without
	// its match file, a journal cut short); the report lists them.
	Problems []string

	pointsNamed bool // league_started named the league's points

	replayed   *engine.League                       // the journal replayed, for Bootstrap
	ratingOpts engine.RatingOptions                 // the options the ratings were fitted with
	bootstrap  *map[string]engine.BootstrapInterval // Bootstrap's, once made
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
	Models    map[string]*protocol.ModelCost
	Race      *Race // a link race's paths, nil for other games
	GameFacts []Fact
}

// Exchange is one transcript entry, with what a reader looks for pulled
// out of its content.
type Exchange struct {
	protocol.TranscriptHead
	Move    string // the move a player answered with, if any
	View    string // the game's drawing of what the asked seat sees (a move call's), if any
	Model   *protocol.ModelMove
	Content string // the content, compact JSON
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
	l := &League{DataDir: dataDir, LeagueID: leagueID, Names: map[string]string{}, Models: map[string]*protocol.ModelCost{}}
	// standings.json says what the journal does not: how the league's
	// ratings count technical losses, and, for a journal written before
	// league_started named them, the points the table was scored with.
	var written *protocol.StandingsFile
	var file protocol.StandingsFile
	switch err := readJSON(layout.Standings(), maxMatchFile, &file); {
	case err == nil:
		written = &file
	case !errors.Is(err, fs.ErrNotExist):
		return nil, fmt.Errorf("league %s: %w", leagueID, err)
	}
	league, notes, err := l.replay(layout)
	if err != nil {
		return nil, fmt.Errorf("league %s: %w", leagueID, err)
	}
	l.readLeague(league, notes, written)
	for _, m := range l.Matches {
		l.readMatchFile(layout, m)
	}
	return l, nil
}

// replay applies every committed record of the league's journal to an
// engine.League, the one place where events are applied, as the manager
// does when it starts again. What the league does not keep of an event
// applied is noted beside it: when the league started, and per match when
// it was last assigned and when it finished, and its result's facts and
// referee. rounds.json is not read: it is derived from the same journal
// and may lag it.
func (l *League) replay(layout store.Layout) (*engine.League, map[string]*Match, error) {
	league := engine.NewLeague(l.LeagueID, engine.DefaultScoring())
	notes := map[string]*Match{}
	note := func(id string) *Match {
		if notes[id] == nil {
			notes[id] = &Match{MatchID: id}
		}
		return notes[id]
	}
	_, err := store.NewJournalReader(layout.Journal()).Read(1, math.MaxInt64, func(raw json.RawMessage) error {
		var ev engine.Event
		if err := json.Unmarshal(raw, &ev); err != nil {
			return fmt.Errorf("journal record %d: %w", l.Events+1, err)
		}
		l.Events++
		if err := league.Apply(ev); err != nil {
			league.Skip(ev.Seq) // as the manager skips a result after the stop
			l.Problems = append(l.Problems, fmt.Sprintf("journal record %d is left out: %v", l.Events, err))
			return nil
		}
		switch ev.Kind {
		case engine.EventLeagueStarted:
			l.Started, l.pointsNamed = ev.Time, ev.Start.Scoring != nil
		case engine.EventMatchAssigned:
			note(ev.MatchID).Assigned = ev.Time
		case engine.EventMatchResult:
			m := note(ev.MatchID)
			m.Facts, m.Finished, m.Referee = ev.Facts, ev.Time, ev.Referee
			if ev.Time.After(l.Finished) {
				l.Finished = ev.Time
			}
		}
		return nil
	})
	return league, notes, err
}

// readLeague takes the replayed league: its state, its agents' names, its
// schedule with each match's record and notes, and its standings document
// as the manager makes it, ratings included (fitted as the manager fits
// them, so the same results give the same numbers to the last bit).
func (l *League) readLeague(league *engine.League, notes map[string]*Match, written *protocol.StandingsFile) {
	l.State, l.Seed, l.GameType = league.State, league.Seed, league.GameType
	l.Scoring = league.Table.Scoring()
	for _, a := range append(league.Players(), league.Referees()...) {
		l.Names[a.ID] = a.DisplayName
	}
	for _, r := range league.Rounds() {
		for _, p := range r.Matches {
			l.Matches = append(l.Matches, matchOf(league, p, notes[p.MatchID]))
		}
	}
	l.Standings = protocol.NewStandingsFile(league)
	var opts engine.RatingOptions
	if written != nil {
		opts = written.Ratings.RatingOptions()
	}
	l.replayed, l.ratingOpts = league, opts
	fit := engine.FitRecorded(league.PlayerIDs(), league.RecordedResults(), opts)
	l.Standings.Ratings = protocol.NewRatingsDoc(fit, l.Standings.MatchesDone, opts, l.Standings.Standings)
	l.Ratings = l.Standings.Ratings.Players
	l.checkPoints(written)
}

// matchOf is a scheduled match as the league records it, completing what
// the journal noted of it (nil if nothing).
func matchOf(league *engine.League, p engine.Pairing, note *Match) *Match {
	m := note
	if m == nil {
		m = &Match{}
	}
	m.MatchID, m.Round, m.PlayerA, m.PlayerB = p.MatchID, p.Round, p.PlayerA, p.PlayerB
	rec, _ := league.Match(p.MatchID)
	m.Result = rec.Result
	if m.Referee == "" { // the result named none: the one it was given to
		m.Referee = rec.Referee
	}
	// It ran when the league stopped or its manager went down, and has
	// had no result since.
	m.Abandoned = rec.Result == nil && (rec.Step == engine.StepAbandoned || rec.Step == engine.StepInterrupted)
	return m
}

// checkPoints names a table the journal cannot vouch for: one of a journal
// written before league_started named the league's points, which is scored
// with the default ones, when standings.json (scored by the manager with
// the league's own) is missing or differs.
func (l *League) checkPoints(written *protocol.StandingsFile) {
	if l.pointsNamed || l.Started.IsZero() {
		return
	}
	const why = "the journal does not name the league's points (an older leaguetui wrote it): " +
		"the table is scored with the default points (win 3, draw 1, loss 0)"
	switch {
	case written == nil:
		l.Problems = append(l.Problems, why+", and the folder has no standings.json to compare with")
	case written.MatchesDone == l.Standings.MatchesDone && !slices.Equal(written.Standings, l.Standings.Standings):
		l.Problems = append(l.Problems, why+", and standings.json, the manager's, differs")
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
	m.Models = map[string]*protocol.ModelCost{}
	turns := map[string]int{}
	for _, e := range f.Transcript {
		x := exchangeOf(e)
		if x.Move != "" {
			m.Moves++
		}
		if x.Model != nil {
			player, _ := e.Content["player_id"].(string)
			turns[player]++
			costOf(m.Models, player).Add(*x.Model, turns[player])
		}
		m.Exchanges = append(m.Exchanges, x)
	}
	for _, player := range slices.Sorted(maps.Keys(m.Models)) {
		costOf(l.Models, player).Merge(*m.Models[player])
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

// costOf is player's cost in costs, made on first use.
func costOf(costs map[string]*protocol.ModelCost, player string) *protocol.ModelCost {
	if costs[player] == nil {
		costs[player] = &protocol.ModelCost{}
	}
	return costs[player]
}

// moveFields are the content fields in which a player answers a move.
var moveFields = []string{"parity_choice", "move_data", "move"}

// exchangeOf reads one transcript entry.
func exchangeOf(e protocol.TranscriptEntry) Exchange {
	x := Exchange{TranscriptHead: e.TranscriptHead, View: e.View()}
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
		var mm protocol.ModelMove
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

// Played is how many matches have a result.
func (l *League) Played() int {
	n := 0
	for _, m := range l.Matches {
		if m.Result != nil {
			n++
		}
	}
	return n
}

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
