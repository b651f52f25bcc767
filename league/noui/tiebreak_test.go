package noui_test

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/leaguetui/leaguetui/engine"
	"github.com/leaguetui/leaguetui/league/report"
)

// TestHeadlessTiebreakers runs a real league of 4 players whose config
// folder's league file sets scoring.tiebreakers: standings.json, the
// report's replay of the journal (what a resumed manager and the console
// replay too) and the engine's own table of its results agree on the
// order those tie-breakers give, and the final table says so.
func TestHeadlessTiebreakers(t *testing.T) {
	t.Parallel()
	cfgDir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(cfgDir, "leagues"), 0o755); err != nil {
		t.Fatal(err)
	}
	file := `{"league_id": "` + leagueID + `", "scoring": {"win_points": 3, "draw_points": 1, "loss_points": 0,
	  "technical_loss_points": 0, "tiebreakers": ["points", "Head-To-Head", "sonneborn_berger", "wins"]}}`
	if err := os.WriteFile(filepath.Join(cfgDir, "leagues", leagueID+".json"), []byte(file), 0o644); err != nil {
		t.Fatal(err)
	}
	const players, referees = 4, 2
	// Seed 2: P01 and P04 end on 2 points, no win and 2 draws each; the
	// default order puts P01 first by id, the tie-breakers put P04 first.
	run := runHeadless(t, players, referees, 2, "--config", cfgDir)
	var standings standingsFile
	readJSON(t, filepath.Join(run.dataDir, "leagues", leagueID, "standings.json"), &standings)

	scoring := engine.DefaultScoring()
	scoring.Tiebreakers = "head_to_head,sonneborn_berger,wins"
	var results []engine.Result
	ids := []string{}
	replayed, err := report.Load(run.dataDir, leagueID)
	if err != nil {
		t.Fatal(err)
	}
	if replayed.Scoring != scoring {
		t.Errorf("the journal's scoring %+v, want %+v", replayed.Scoring, scoring)
	}
	for _, m := range replayed.Matches {
		if m.Result == nil {
			t.Fatalf("match %s has no result", m.MatchID)
		}
		results = append(results, *m.Result)
	}
	for _, r := range standings.Standings {
		ids = append(ids, r.PlayerID)
	}
	want := []string{}
	for _, r := range engine.Standings(scoring, ids, results) {
		want = append(want, r.PlayerID)
	}
	var fromReport []string
	for _, r := range replayed.Standings.Standings {
		fromReport = append(fromReport, r.PlayerID)
	}
	if !slices.Equal(ids, want) || !slices.Equal(fromReport, want) {
		t.Errorf("standings.json order %v, the report's %v; the tie-breakers give %v", ids, fromReport, want)
	}
	var byDefault []string
	for _, r := range engine.Standings(engine.DefaultScoring(), ids, results) {
		byDefault = append(byDefault, r.PlayerID)
	}
	if slices.Equal(want, byDefault) {
		t.Errorf("the tie-breakers order the table %v as the default does: the league shows nothing", want)
	}
	if len(ids) != players || standings.State != "completed" {
		t.Errorf("standings.json: %d rows, state %q; want %d, completed", len(ids), standings.State, players)
	}
	if !strings.Contains(run.stdout, "ranked by points, head-to-head, Sonneborn-Berger, wins, then player id") {
		t.Errorf("stdout does not say how the table is ranked:\n%s", run.stdout)
	}
}
