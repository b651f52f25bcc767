// Package season keeps a season folder: the completed leagues of one game
// whose results add up (see engine.SeasonTable). Each league is one file,
// leagues/NNNN-KEY.json, written whole to a temporary file and renamed into
// place (store.WriteJSON): the rename is the moment the league joins the
// season, so a process killed at any moment leaves it wholly in or wholly
// out, and the key (the league's id, seed and start) in the file's name
// makes a second add of the same league a no-op. Adders take season.lock
// (flock) in turn; readers take nothing, since they only ever see whole
// files.
package season

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/leaguetui/leaguetui/agents/protocol"
	"github.com/leaguetui/leaguetui/agents/store"
	"github.com/leaguetui/leaguetui/engine"
	"github.com/leaguetui/leaguetui/league/report"
)

// SchemaVersion is the league file's schema.
const SchemaVersion = "1"

// LeagueFile is one league of the season, as leagues/NNNN-KEY.json holds it.
type LeagueFile struct {
	SchemaVersion string    `json:"schema_version"`
	Key           string    `json:"key"`
	LeagueID      string    `json:"league_id"`
	GameType      string    `json:"game_type"`
	Seed          int64     `json:"seed"`
	Started       time.Time `json:"started"`
	Finished      time.Time `json:"finished"`
	// DataDir is the data folder the league was played in (absolute), for
	// the season page's links to the league's own report.
	DataDir string               `json:"data_dir"`
	Players []Player             `json:"players"`
	Table   []engine.SeasonTotal `json:"table"`
	Results []Result             `json:"results"`
}

// Player is a league's player: its id in the league and its season name.
type Player struct {
	ID   string `json:"id"`
	Name string `json:"name"`
}

// Result is one result, its players by season name.
type Result struct {
	MatchID   string        `json:"match_id"`
	Round     int           `json:"round"`
	PlayerA   string        `json:"player_a"`
	PlayerB   string        `json:"player_b"`
	Status    engine.Status `json:"status"`
	Winner    string        `json:"winner,omitempty"`
	Offenders []string      `json:"offenders,omitempty"`
}

// Season is a season folder read whole: its leagues in the order they
// were added.
type Season struct {
	Dir     string
	Leagues []LeagueFile
}

// fileName is what a league file is called: its place and its key.
var fileName = regexp.MustCompile(`^([0-9]{4,})-([0-9a-f]{16})\.json$`)

// leaguesDir is the folder of league files.
func leaguesDir(dir string) string { return filepath.Join(dir, "leagues") }

// Read reads the season folder dir; a folder that does not exist yet is an
// empty season.
func Read(dir string) (*Season, error) {
	s := &Season{Dir: dir}
	entries, err := os.ReadDir(leaguesDir(dir))
	if errors.Is(err, fs.ErrNotExist) {
		return s, nil
	}
	if err != nil {
		return nil, fmt.Errorf("season %s: %w", dir, err)
	}
	for _, e := range entries { // ReadDir sorts by name: the order of adding
		m := fileName.FindStringSubmatch(e.Name())
		if m == nil {
			continue // a temporary file of an add that was cut short
		}
		var f LeagueFile
		if err := store.ReadJSON(filepath.Join(leaguesDir(dir), e.Name()), &f); err != nil {
			return nil, fmt.Errorf("season %s: %w", dir, err)
		}
		if f.Key != m[2] {
			return nil, fmt.Errorf("season %s: %s holds league key %q", dir, e.Name(), f.Key)
		}
		s.Leagues = append(s.Leagues, f)
	}
	return s, nil
}

// GameType is the game the season's leagues play, "" for an empty season.
func (s *Season) GameType() string {
	if len(s.Leagues) == 0 {
		return ""
	}
	return s.Leagues[0].GameType
}

// CheckGame refuses a league of another game than the season's, in one
// line; it is said before a league starts, and again when it is added.
func (s *Season) CheckGame(game string) error {
	if have := s.GameType(); have != "" && have != game {
		return fmt.Errorf("season %s holds %s leagues, not %s: give a %s league another --season folder", s.Dir, have, game, game)
	}
	return nil
}

// Engine is the season's leagues as the engine fits them.
func (s *Season) Engine() []engine.SeasonLeague {
	out := make([]engine.SeasonLeague, len(s.Leagues))
	for i, f := range s.Leagues {
		out[i] = engine.SeasonLeague{ID: f.LeagueID, Rows: f.Table, Results: make([]engine.Result, len(f.Results))}
		for k, r := range f.Results {
			out[i].Results[k] = engine.Result{MatchID: r.MatchID, Round: r.Round, PlayerA: r.PlayerA, PlayerB: r.PlayerB,
				Status: r.Status, Winner: r.Winner, Offenders: r.Offenders}
		}
	}
	return out
}

// Add adds the completed league leagueID of the data folder dataDir to the
// season folder dir, once: added is false when the season holds it
// already. names maps a player's display name to its season name where
// they differ (a roster's season_names). final is the league's final
// standings as its manager serves them, taken when they count the
// journal's results; nil for the table the report makes from the journal,
// which is the same (report.Load). A league of another game, or one not
// completed, is refused.
func Add(dir, dataDir, leagueID string, final *protocol.StandingsFile, names map[string]string) (added bool, err error) {
	league, err := report.Load(dataDir, leagueID)
	if err != nil {
		return false, err
	}
	if final != nil && final.LeagueID == league.LeagueID && final.MatchesDone == league.Played() {
		league.Standings = *final
	}
	if state := league.State; state != engine.LeagueCompleted {
		return false, fmt.Errorf("league %s is %s: only a completed league joins a season", league.LeagueID, state)
	}
	file, err := newLeagueFile(league, dataDir, names)
	if err != nil {
		return false, err
	}
	unlock, err := lock(dir)
	if err != nil {
		return false, err
	}
	defer unlock()
	pause("locked")
	s, err := Read(dir)
	if err != nil {
		return false, err
	}
	if err := s.CheckGame(file.GameType); err != nil {
		return false, err
	}
	for _, f := range s.Leagues {
		if f.Key == file.Key {
			return false, nil
		}
	}
	_ = store.RemoveTempFiles(leaguesDir(dir)) // what an add cut short left
	pause("read")
	name := fmt.Sprintf("%04d-%s.json", len(s.Leagues)+1, file.Key)
	encode := store.IndentedJSON(func() any { return file })
	err = store.WriteAtomic(filepath.Join(leaguesDir(dir), name), func(w io.Writer) error {
		err := encode(w)
		pause("temp-written")
		return err
	})
	if err != nil {
		return false, err
	}
	pause("written")
	return true, nil
}

// pause is a hook for the tests that kill an add at each of its steps.
var pause = func(step string) {}

// newLeagueFile is a league as the season keeps it.
func newLeagueFile(l *report.League, dataDir string, names map[string]string) (*LeagueFile, error) {
	abs, err := filepath.Abs(dataDir)
	if err != nil {
		return nil, err
	}
	f := &LeagueFile{SchemaVersion: SchemaVersion, Key: key(l), LeagueID: l.LeagueID, GameType: l.GameType, Seed: l.Seed,
		Started: l.Started, Finished: l.Finished, DataDir: abs}
	nameOf := map[string]string{}
	taken := map[string]string{}
	for _, row := range l.Standings.Standings {
		name := seasonName(l.Name(row.PlayerID), names)
		if other, ok := taken[name]; ok {
			return nil, fmt.Errorf("league %s: players %s and %s are both %q: a season knows a player by its name", l.LeagueID, other, row.PlayerID, name)
		}
		taken[name], nameOf[row.PlayerID] = row.PlayerID, name
		f.Players = append(f.Players, Player{ID: row.PlayerID, Name: name})
		f.Table = append(f.Table, engine.SeasonTotal{Name: name, Leagues: 1, Played: row.Played, Wins: row.Wins, Draws: row.Draws,
			Losses: row.Losses, TechnicalLosses: row.TechnicalLosses, Points: float64(row.Points)})
	}
	rename := func(id string) string {
		if n, ok := nameOf[id]; ok {
			return n
		}
		return id
	}
	for _, m := range l.Matches {
		if r := m.Result; r != nil {
			res := Result{MatchID: r.MatchID, Round: r.Round, PlayerA: rename(r.PlayerA), PlayerB: rename(r.PlayerB), Status: r.Status}
			if r.Winner != "" {
				res.Winner = rename(r.Winner)
			}
			for _, o := range r.Offenders {
				res.Offenders = append(res.Offenders, rename(o))
			}
			f.Results = append(f.Results, res)
		}
	}
	return f, nil
}

// seasonName is a display name as the season knows it.
func seasonName(display string, names map[string]string) string {
	if n, ok := names[display]; ok && n != "" {
		return n
	}
	return display
}

// key names a league across data folders: its id, seed and start.
func key(l *report.League) string {
	sum := sha256.Sum256([]byte(strings.Join([]string{l.LeagueID, strconv.FormatInt(l.Seed, 10),
		l.Started.UTC().Format(time.RFC3339Nano)}, "\x00")))
	return hex.EncodeToString(sum[:8])
}

// Prior is the season's games between the given players (league id ->
// display name), by league id, for a --place league: per pair, the
// first one's wins, the draws and the other's wins; technical losses count
// as losses, as the fit counts them.
func Prior(dir string, players map[string]string, names map[string]string) ([]engine.PriorGames, error) {
	s, err := Read(dir)
	if err != nil {
		return nil, err
	}
	idOf := map[string]string{} // season name -> league id
	for id, display := range players {
		idOf[seasonName(display, names)] = id
	}
	counts := map[[2]string]*engine.PriorGames{}
	for _, r := range engine.SeasonResults(s.Engine()) {
		a, okA := idOf[r.PlayerA]
		b, okB := idOf[r.PlayerB]
		if !okA || !okB {
			continue
		}
		winnerA, winnerB := r.Winner == r.PlayerA, r.Winner == r.PlayerB
		if a > b {
			a, b, winnerA, winnerB = b, a, winnerB, winnerA
		}
		g, ok := counts[[2]string{a, b}]
		if !ok {
			g = &engine.PriorGames{A: a, B: b}
			counts[[2]string{a, b}] = g
		}
		switch {
		case r.Status == engine.StatusDraw:
			g.Draws++
		case winnerA:
			g.AWins++
		case winnerB:
			g.BWins++
		}
	}
	out := make([]engine.PriorGames, 0, len(counts))
	for _, g := range counts {
		out = append(out, *g)
	}
	slices.SortFunc(out, func(x, y engine.PriorGames) int { return strings.Compare(x.A+"\x00"+x.B, y.A+"\x00"+y.B) })
	return out, nil
}
