// Package scan_test plays a link-race league of model players against the
// fake provider, each model scripted to fail in one way, then runs
// `leaguetui scan`, `leaguetui export --format jsonl` and `leaguetui
// report` on its data folder as separate processes: each game lands in
// its model's category, and the export holds every model move of the
// match files.
package scan_test

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/leaguetui/leaguetui/internal/leaguetest"
	"github.com/leaguetui/leaguetui/internal/leaguetest/fakellm"
	"github.com/leaguetui/leaguetui/league/scan"
)

func TestMain(m *testing.M) { leaguetest.Main(m) }

const testKey = "sk-e2e-scan-key-0b7d41c2"

// player is a model player of the league: its model, the fake's script
// for it, and the category its game must land in.
type player struct {
	model  string
	script []fakellm.Answer
	want   scan.Category
	budget int // tokens; 0 for none
}

// The players: one per category a model's own failure gives. The budget
// player's first ask costs more than its budget, so its second move is
// not asked.
var players = []player{
	{"looper", []fakellm.Answer{fakellm.Revisit}, scan.Loop, 0},
	{"near-misser", []fakellm.Answer{fakellm.NearMissLink}, scan.NearMiss, 0},
	{"bad-linker", []fakellm.Answer{fakellm.IllegalLink}, scan.InvalidLink, 0},
	{"refuser", []fakellm.Answer{fakellm.Refusal}, scan.Refusal, 0},
	{"tool-misuser", []fakellm.Answer{fakellm.UnknownTool}, scan.ToolMisuse, 0},
	{"mumbler", []fakellm.Answer{fakellm.NoToolCall}, scan.Unparseable, 0},
	{"server-down", []fakellm.Answer{fakellm.ServerError}, scan.ProviderError, 0},
	{"hanger", []fakellm.Answer{fakellm.Hang}, scan.Timeout, 0},
	{"spender", []fakellm.Answer{fakellm.Wander}, scan.BudgetStop, fakellm.InputTokens},
	{"wanderer", []fakellm.Answer{fakellm.Wander}, scan.StepLimit, 0},
}

// runLeague plays one Swiss round of the players, every game a race
// neither player finishes, added to a season, and returns the data folder
// and the season folder.
func runLeague(t *testing.T) (dir, seasonDir string) {
	t.Helper()
	scripts := map[string][]fakellm.Answer{}
	for _, p := range players {
		scripts[p.model] = p.script
	}
	fake := fakellm.StartScripted(scripts)
	t.Cleanup(fake.Close)
	t.Setenv("OPENAI_API_KEY", testKey)
	var entries []map[string]any
	for _, p := range players {
		llm := map[string]any{"provider": "openai", "model": p.model, "base_url": fake.OpenAIURL(), "api_key_env": "OPENAI_API_KEY"}
		if p.budget > 0 {
			llm["budget_tokens"] = p.budget
		}
		entries = append(entries, map[string]any{"name": p.model, "strategy": "llm", "llm": llm})
	}
	dir, seasonDir = t.TempDir(), t.TempDir()
	args := []string{"--no-ui", "--free-ports", "--data", dir, "--season", seasonDir, "--seed", "3", "--game", "link_race", "--roster",
		leaguetest.WriteRoster(t, entries...), "--format", "swiss", "--rounds", "1", "--referees", "5",
		"--move-timeout", "3s", "--join-timeout", "10s", "--retry-delay", "50ms", "--suspend-after", "0"}
	run := leaguetest.RunLeaguetui(t, dir, 3*time.Minute, nil, args...)
	if run.Err != nil {
		leaguetest.KillLeftovers(t, dir)
		t.Fatalf("leaguetui %v: %v\n%s", args, run.Err, run.Stderr)
	}
	return dir, seasonDir
}

// leaguetui runs a command of the binary on the data folder and returns
// its output.
func leaguetui(t *testing.T, dir string, args ...string) string {
	t.Helper()
	run := leaguetest.RunLeaguetui(t, dir, time.Minute, nil, args...)
	if run.Err != nil {
		t.Fatalf("leaguetui %v: %v\n%s", args, run.Err, run.Stderr)
	}
	return run.Stdout
}

// Every model player's game lands in the category of its script, in the
// JSON, the CSV and the table; the export has a record for every model
// move of the match files; the report has the scan's section and the
// export beside it.
func TestEveryFailureLandsInItsCategory(t *testing.T) {
	dir, seasonDir := runLeague(t)
	csvFile := filepath.Join(t.TempDir(), "findings.csv")
	var r, season scan.Report
	if err := json.Unmarshal([]byte(leaguetui(t, dir, "scan", dir, "--json", "--csv", csvFile)), &r); err != nil {
		t.Fatal(err)
	}
	checkCategories(t, r)
	if err := json.Unmarshal([]byte(leaguetui(t, dir, "scan", "--season", seasonDir, "--json")), &season); err != nil {
		t.Fatal(err)
	}
	checkCategories(t, season)
	checkCSV(t, csvFile, len(players))
	table := leaguetui(t, dir, "scan", dir)
	t.Logf("leaguetui scan:\n%s", table)
	for _, p := range players {
		if !strings.Contains(table, "openai/"+p.model) || !strings.Contains(table, ": "+string(p.want)+" at move ") {
			t.Errorf("the table lacks %s or its %s game:\n%s", p.model, p.want, table)
		}
	}
	moves := filepath.Join(t.TempDir(), "moves.jsonl")
	leaguetui(t, dir, "export", dir, "--format", "jsonl", "--out", moves)
	want := modelMoves(t, dir)
	checkExport(t, moves, want)
	seasonMoves := filepath.Join(t.TempDir(), "season.jsonl")
	leaguetui(t, dir, "export", "--season", seasonDir, "--format", "jsonl", "--out", seasonMoves)
	checkExport(t, seasonMoves, want)
	out := filepath.Join(t.TempDir(), "report")
	leaguetui(t, dir, "report", dir, "--out", out)
	page, err := os.ReadFile(filepath.Join(out, "index.html"))
	if err != nil || !strings.Contains(string(page), `id="failures"`) || !strings.Contains(string(page), `<a href="moves.jsonl">`) {
		t.Errorf("the report has no scan section or no link to moves.jsonl (%v)", err)
	}
	checkExport(t, filepath.Join(out, scan.MovesJSONL), want)
}

// checkCategories: one game not won per player, in its category, found at
// a move of its own.
func checkCategories(t *testing.T, r scan.Report) {
	t.Helper()
	want := map[string]scan.Category{}
	for _, p := range players {
		want[p.model] = p.want
	}
	if len(r.Games) != len(players) || len(r.Models) != len(players) {
		t.Fatalf("%d games not won and %d model rows, want %d of each: %+v", len(r.Games), len(r.Models), len(players), r)
	}
	for _, g := range r.Games {
		f := g.Decisive()
		if g.Category != want[g.Model] || f.Move == 0 || f.Seq == 0 || g.Outcome == "win" {
			t.Errorf("%s %s (%s): %s at move %d (%s), want %s", g.MatchID, g.Player, g.Model, g.Category, f.Move, f.Detail, want[g.Model])
		}
	}
	for _, m := range r.Models {
		if m.Games != 1 || m.NotWon != 1 || m.Counts[want[m.Model]] != 1 {
			t.Errorf("row %+v, want one game in %s", m, want[m.Model])
		}
	}
}

// checkCSV: the findings CSV has the header and a row for each game at
// least (a game has one finding or more).
func checkCSV(t *testing.T, path string, games int) {
	t.Helper()
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(raw)), "\n")
	if lines[0] != strings.Join(scan.CSVHead, ",") || len(lines) < 1+games {
		t.Errorf("the CSV has %d lines:\n%s", len(lines), raw)
	}
}

// modelMoves counts the model blocks of each match's move answers, per
// match and player, in the match files as a test reads them.
func modelMoves(t *testing.T, dir string) map[string]int {
	t.Helper()
	counts := map[string]int{}
	files := leaguetest.ReadMatchFiles[leaguetest.MatchFile[leaguetest.MatchResult]](t, dir, leaguetest.LeagueIn(t, dir))
	for _, f := range files {
		for _, e := range f.Transcript {
			if _, ok := e.Content["model"]; ok && strings.HasPrefix(e.From, "player:") {
				counts[f.MatchID+" "+strings.TrimPrefix(e.From, "player:")]++
			}
		}
	}
	if len(counts) != len(players) {
		t.Fatalf("model moves of %d players in the match files, want %d", len(counts), len(players))
	}
	return counts
}

// checkExport: the export has as many records of each match and player as
// the match files have model moves, each with its prompt and outcome.
func checkExport(t *testing.T, path string, want map[string]int) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	got := map[string]int{}
	s := bufio.NewScanner(f)
	s.Buffer(nil, 1<<20)
	for s.Scan() {
		var rec scan.MoveRecord
		if err := json.Unmarshal(s.Bytes(), &rec); err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		got[rec.MatchID+" "+rec.PlayerID]++
		if rec.Outcome != "draw" || rec.Model.Model == "" || (rec.Prompt == "" && rec.Model.BudgetSpent == "") {
			t.Errorf("%s: record %+v", path, rec)
		}
	}
	if len(got) != len(want) {
		t.Errorf("%s: records of %d players, the match files have %d", path, len(got), len(want))
	}
	for key, n := range want {
		if got[key] != n {
			t.Errorf("%s: %d records of %s, %d model moves in its match file", path, got[key], key, n)
		}
	}
}
