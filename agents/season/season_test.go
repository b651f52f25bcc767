package season_test

import (
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/leaguetui/leaguetui/agents/season"
	"github.com/leaguetui/leaguetui/engine"
	"github.com/leaguetui/leaguetui/internal/leaguetest"
)

func TestMain(m *testing.M) {
	if os.Getenv(childEnv) != "" {
		addAsChild() // a process the kill test kills
		return
	}
	leaguetest.Main(m)
}

// playedLeague is a league run by the real binary with --no-ui and a
// roster, into a season folder.
type playedLeague struct {
	dataDir string
	names   map[string]string // player id -> season name
}

// playLeague runs a round robin of the named built-in players (a name
// "x=y" plays as x and is y in the season) with --season.
func playLeague(t *testing.T, seasonDir string, seed int, players ...string) playedLeague {
	t.Helper()
	dir := t.TempDir()
	roster := map[string]any{}
	var entries []map[string]string
	alias := map[string]string{}
	for _, p := range players {
		name, seasonName, ok := strings.Cut(p, "=")
		if ok {
			alias[name] = seasonName
		}
		entries = append(entries, map[string]string{"name": name, "strategy": "random"})
	}
	roster["players"] = entries
	roster["season_names"] = alias
	data, _ := json.Marshal(roster)
	rosterFile := filepath.Join(dir, "roster.json")
	if err := os.WriteFile(rosterFile, data, 0o644); err != nil {
		t.Fatal(err)
	}
	dataDir := filepath.Join(dir, "data")
	args := []string{"--no-ui", "--roster", rosterFile, "--data", dataDir, "--seed", strconv.Itoa(seed), "--games-per-pair", "2"}
	if seasonDir != "" {
		args = append(args, "--season", seasonDir)
	}
	run := leaguetest.RunLeaguetui(t, dataDir, 2*time.Minute, nil, args...)
	if run.Err != nil {
		t.Fatalf("league: %v\n%s", run.Err, run.Stderr)
	}
	if seasonDir != "" && !strings.Contains(run.Stderr, "added to the season") {
		t.Errorf("the run did not say it added the league:\n%s", run.Stderr)
	}
	l := playedLeague{dataDir: dataDir, names: map[string]string{}}
	for _, ev := range leaguetest.Journal(t, dataDir, "league_2025_even_odd") {
		if ev.Kind == engine.EventAgentRegistered && ev.Agent.Role == engine.RolePlayer {
			l.names[ev.Agent.ID] = cmpOr(alias[ev.Agent.DisplayName], ev.Agent.DisplayName)
		}
	}
	return l
}

func cmpOr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// results reads a league's results from its journal, players by season
// name: what the season's fit must equal the engine's fit over.
func (l playedLeague) results(t *testing.T) []engine.Result {
	var out []engine.Result
	for _, ev := range leaguetest.Journal(t, l.dataDir, "league_2025_even_odd") {
		if ev.Kind != engine.EventMatchResult {
			continue
		}
		r := *ev.Result
		r.PlayerA, r.PlayerB = l.names[r.PlayerA], l.names[r.PlayerB]
		if r.Winner != "" {
			r.Winner = l.names[r.Winner]
		}
		for i, o := range r.Offenders {
			r.Offenders[i] = l.names[o]
		}
		out = append(out, r)
	}
	return out
}

func TestSeasonOfTwoAndThreeLeagues(t *testing.T) {
	seasonDir := filepath.Join(t.TempDir(), "season")
	leagues := []playedLeague{
		playLeague(t, seasonDir, 1, "ann", "bob", "cat", "dan"),
		playLeague(t, seasonDir, 2, "bob-v2=bob", "cat", "eve"),
	}
	checkSeason(t, seasonDir, leagues)
	leagues = append(leagues, playLeague(t, seasonDir, 3, "ann", "dan", "eve", "fay"))
	checkSeason(t, seasonDir, leagues)

	// The season's command prints the same table, and its CSV files.
	out := t.TempDir()
	run := leaguetest.RunLeaguetui(t, seasonDir, time.Minute, nil, "season", seasonDir, "--json", "--csv", out)
	if run.Err != nil {
		t.Fatalf("leaguetui season: %v\n%s", run.Err, run.Stderr)
	}
	var doc season.Doc
	if err := json.Unmarshal([]byte(run.Stdout), &doc); err != nil {
		t.Fatal(err)
	}
	s, _ := season.Read(seasonDir)
	got, _ := json.Marshal(doc)
	want, _ := json.Marshal(s.Document())
	if string(got) != string(want) || len(doc.Leagues) != 3 {
		t.Errorf("--json printed %s, want %s", got, want)
	}
	checkCSV(t, filepath.Join(out, season.StandingsCSV), s.StandingsRows())
	checkCSV(t, filepath.Join(out, season.HistoryCSV), s.HistoryRows())
}

// checkSeason checks the season folder against the leagues' own journals:
// its games are theirs, its table their sums, its ratings the engine's fit
// over their concatenated results, each history point the fit after that
// league.
func checkSeason(t *testing.T, dir string, leagues []playedLeague) {
	t.Helper()
	s, err := season.Read(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Leagues) != len(leagues) {
		t.Fatalf("the season holds %d leagues, want %d", len(s.Leagues), len(leagues))
	}
	var all []engine.Result
	played := map[string]int{}
	inLeagues := map[string]int{}
	for k, l := range leagues {
		results := l.results(t)
		all = append(all, results...)
		for _, name := range l.names {
			inLeagues[name]++
		}
		for _, r := range results {
			played[r.PlayerA]++
			played[r.PlayerB]++
		}
		// The history point after league k is the fit over leagues 0..k.
		names := slices.Sorted(maps.Keys(played))
		engine.SortIDs(names)
		fit := engine.FitRatings(names, all, engine.RatingOptions{})
		for _, row := range s.HistoryRows()[1:] {
			if row[0] != strconv.Itoa(k+1) {
				continue
			}
			want, _ := fit.Rating(row[2])
			if row[3] != fmt.Sprintf("%.1f", want.Elo) && !(row[3] == "0.0" && math.Abs(want.Elo) < 0.05) {
				t.Errorf("after league %d: %s at %s, the fit over those leagues %.1f", k+1, row[2], row[3], want.Elo)
			}
		}
	}
	if s.Games() != len(all) {
		t.Errorf("the season holds %d games, its leagues' journals %d", s.Games(), len(all))
	}
	names := slices.Sorted(maps.Keys(played))
	engine.SortIDs(names)
	fit := engine.FitRatings(names, all, engine.RatingOptions{})
	table := s.Table()
	if len(table) != len(played) {
		t.Errorf("the table has %d players, the leagues %d", len(table), len(played))
	}
	for _, row := range table {
		want, _ := fit.Rating(row.Name)
		if row.Played != played[row.Name] || row.Leagues != inLeagues[row.Name] || row.Rating.Games != played[row.Name] {
			t.Errorf("%s: %d games in %d leagues (rated on %d), the journals say %d in %d", row.Name, row.Played, row.Leagues,
				row.Rating.Games, played[row.Name], inLeagues[row.Name])
		}
		if row.Rating.Elo != want.Elo || row.Rating.CI95 != want.CI95 {
			t.Errorf("%s: %v ± %v, the engine's fit over the leagues' results %v ± %v", row.Name, row.Rating.Elo, row.Rating.CI95,
				want.Elo, want.CI95)
		}
		if row.Wins+row.Draws+row.Losses+row.TechnicalLosses != row.Played {
			t.Errorf("%s: %+v does not add up", row.Name, row.SeasonTotal)
		}
	}
}

func checkCSV(t *testing.T, path string, want [][]string) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	got, err := csv.NewReader(f).ReadAll()
	if err != nil || fmt.Sprint(got) != fmt.Sprint(want) || len(got) < 2 {
		t.Errorf("%s: %v %v, want %v", path, got, err, want)
	}
}

func TestAddingAgainAddsNothingAndAnotherGameIsRefused(t *testing.T) {
	seasonDir := filepath.Join(t.TempDir(), "season")
	l := playLeague(t, seasonDir, 4, "ann", "bob", "cat")
	// The same command again: the league was completed before, and the
	// season holds it already.
	for range 2 {
		added, err := season.Add(seasonDir, l.dataDir, "", nil, nil)
		if err != nil || added {
			t.Fatalf("adding again: added %v, %v", added, err)
		}
	}
	s, _ := season.Read(seasonDir)
	if len(s.Leagues) != 1 {
		t.Errorf("the season holds %d leagues after adding one three times", len(s.Leagues))
	}
	data := filepath.Join(t.TempDir(), "data")
	run := leaguetest.RunLeaguetui(t, data, time.Minute, nil, "--no-ui", "--game", "link_race", "--players", "2", "--data", data,
		"--season", seasonDir)
	lines := strings.Split(strings.TrimSpace(run.Stderr), "\n")
	if code := exitCode(run.Err); code != 2 || len(lines) != 1 || !strings.Contains(lines[0], "holds even_odd leagues, not link_race") {
		t.Errorf("a link race into an even/odd season: %v, stderr %q", run.Err, run.Stderr)
	}
	if _, err := os.Stat(data); err == nil {
		if entries, _ := os.ReadDir(filepath.Join(data, "leagues")); len(entries) > 0 {
			t.Errorf("the refused league started: %v", entries)
		}
	}
}

// exitCode is a run's exit status, -1 when it did not exit by itself.
func exitCode(err error) int {
	var exit *exec.ExitError
	switch {
	case err == nil:
		return 0
	case errors.As(err, &exit):
		return exit.ExitCode()
	}
	return -1
}
