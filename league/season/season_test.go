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

	"github.com/leaguetui/leaguetui/engine"
	"github.com/leaguetui/leaguetui/internal/leaguetest"
	"github.com/leaguetui/leaguetui/league/season"
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
	checkJoint(t, s, engine.FitSeatAndDraws(names, all, engine.RatingOptions{}))
	table := s.Table()
	ranks := map[string]engine.RankInterval{}
	for _, iv := range engine.RankIntervals(fit) {
		ranks[iv.PlayerID] = iv
	}
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
		if iv := ranks[row.Name]; row.Ranks != iv || iv.Best < 1 {
			t.Errorf("%s: ranks %+v, the fit's %+v", row.Name, row.Ranks, iv)
		}
		if row.Wins+row.Draws+row.Losses+row.TechnicalLosses != row.Played {
			t.Errorf("%s: %+v does not add up", row.Name, row.SeasonTotal)
		}
	}
}

// checkJoint checks the season document's joint fit of the seat and the
// draws, and its sentence in the text table, against the engine's fit
// over the leagues' journals.
func checkJoint(t *testing.T, s *season.Season, want engine.JointFit) {
	t.Helper()
	got := s.Document().Joint
	var text strings.Builder
	if err := s.WriteText(&text); err != nil {
		t.Fatal(err)
	}
	t.Logf("joint fit %+v: %q", want, season.JointLine(want))
	switch {
	case !want.Known && got != nil, want.Known && got == nil:
		t.Errorf("joint fit %+v, the document's %+v", want, got)
	case !want.Known:
	case math.Abs(got.SeatElo-want.Seat.Elo) > 0.005 || math.Abs(got.SeatCI95-want.Seat.CI95) > 0.005 || got.Games != want.Games ||
		(got.DrawNu != nil) != want.Draw.Known || want.Draw.Known && math.Abs(*got.DrawNu-want.Draw.Nu) > 0.00005:
		t.Errorf("the document's joint fit %+v, the engine's %+v", *got, want)
	case !strings.Contains(text.String(), season.JointLine(want)+"\n"):
		t.Errorf("the text table does not end with %q:\n%s", season.JointLine(want), text.String())
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

// TestPlaceANewcomerIntoTheSeason plays a league of the season's players
// and a newcomer with --place: the season's games between them are the
// prior league_started journals, and every match involves the newcomer.
func TestPlaceANewcomerIntoTheSeason(t *testing.T) {
	seasonDir := filepath.Join(t.TempDir(), "season")
	playLeague(t, seasonDir, 6, "ann", "bob", "cat")
	dir := t.TempDir()
	rosterFile := filepath.Join(dir, "roster.json")
	roster := `{"players":[{"name":"ann","strategy":"random"},{"name":"bob","strategy":"random"},{"name":"cat","strategy":"random"},{"name":"newbie","strategy":"counter"}]}`
	if err := os.WriteFile(rosterFile, []byte(roster), 0o644); err != nil {
		t.Fatal(err)
	}
	dataDir := filepath.Join(dir, "data")
	run := leaguetest.RunLeaguetui(t, dataDir, 2*time.Minute, nil, "--no-ui", "--roster", rosterFile, "--data", dataDir, "--seed", "7",
		"--season", seasonDir, "--place", "newbie", "--until-separated", "5")
	if run.Err != nil {
		t.Fatalf("--place: %v\n%s", run.Err, run.Stderr)
	}
	ids := map[string]string{}
	var start *engine.StartInfo
	var matches [][2]string
	for _, ev := range leaguetest.Journal(t, dataDir, "league_2025_even_odd") {
		switch ev.Kind {
		case engine.EventAgentRegistered:
			ids[ev.Agent.DisplayName] = ev.Agent.ID
		case engine.EventLeagueStarted:
			start = ev.Start
		case engine.EventMatchResult:
			matches = append(matches, [2]string{ev.Result.PlayerA, ev.Result.PlayerB})
		}
	}
	if start == nil || start.Format == nil || start.Format.Place != ids["newbie"] || start.Format.UntilSeparated != 5 {
		t.Fatalf("league_started: %+v", start)
	}
	prior := 0
	for _, g := range start.Format.Prior {
		if g.A == ids["newbie"] || g.B == ids["newbie"] {
			t.Errorf("the prior has the newcomer's games: %+v", g)
		}
		prior += g.AWins + g.Draws + g.BWins
	}
	s, _ := season.Read(seasonDir)
	if want := len(s.Leagues[0].Results); prior != want {
		t.Errorf("the prior holds %d games, the season %d", prior, want)
	}
	if len(matches) == 0 || len(matches) > 5 {
		t.Errorf("%d matches placed the newcomer", len(matches))
	}
	for _, m := range matches {
		if m[0] != ids["newbie"] && m[1] != ids["newbie"] {
			t.Errorf("%v does not involve the newcomer", m)
		}
	}
	if s, _ := season.Read(seasonDir); len(s.Leagues) != 2 {
		t.Errorf("the placing league did not join the season: %d leagues", len(s.Leagues))
	}
}

func TestSeasonFlagsRefuseBadInput(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--place", "P01"}, "--place needs --until-separated"},
		{[]string{"--until-separated", "-1"}, "until-separated"},
		{[]string{"--place", "P01", "--until-separated", "3", "--format", "swiss", "--rounds", "2"}, "--place plays only separating matches"},
		{[]string{"--until-separated", "3", "--format", "gauntlet", "--challengers", "P01", "--sprt", "elo0=0,elo1=10,alpha=0.05,beta=0.05"}, "--until-separated does not go with --sprt"},
	} {
		data := filepath.Join(t.TempDir(), "data")
		run := leaguetest.RunLeaguetui(t, data, time.Minute, nil, append([]string{"--no-ui", "--data", data}, tc.args...)...)
		lines := strings.Split(strings.TrimSpace(run.Stderr), "\n")
		if exitCode(run.Err) != 2 || len(lines) != 1 || !strings.Contains(lines[0], tc.want) {
			t.Errorf("%v: exit %d, stderr %q; want one line saying %q", tc.args, exitCode(run.Err), run.Stderr, tc.want)
		}
	}
	run := leaguetest.RunLeaguetui(t, t.TempDir(), time.Minute, nil, "season", filepath.Join(t.TempDir(), "none"))
	if exitCode(run.Err) != 1 || !strings.Contains(run.Stderr, "holds no league") {
		t.Errorf("leaguetui season on an empty folder: %v %q", run.Err, run.Stderr)
	}
}
