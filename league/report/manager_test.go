package report_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/leaguetui/leaguetui/agents/protocol"
	"github.com/leaguetui/leaguetui/config"
	"github.com/leaguetui/leaguetui/internal/leaguetest"
	"github.com/leaguetui/leaguetui/league/control"
	"github.com/leaguetui/leaguetui/league/report"
)

// The report replays the journal through engine.League, as the manager
// does: from the same data folder, the report's table and ratings are the
// manager's (GET /standings, and the standings.json it wrote) to the last
// digit, scored with the league's own points (a config's, not the default
// ones) and rated with its own option for technical losses, which a player
// answering nonsense gives it.
func TestReportTableIsTheManagers(t *testing.T) {
	dir, conf := t.TempDir(), t.TempDir()
	points := config.Scoring{Win: 5, Draw: 2, Loss: 1, TechnicalLoss: 0}
	leagueFile := filepath.Join(conf, "leagues", config.LeagueIDFor("even_odd")+".json")
	if err := os.MkdirAll(filepath.Dir(leagueFile), 0o755); err != nil {
		t.Fatal(err)
	}
	settings := fmt.Sprintf(`{"scoring": {"win_points": %d, "draw_points": %d, "loss_points": %d, "technical_loss_points": %d}}`,
		points.Win, points.Draw, points.Loss, points.TechnicalLoss)
	if err := os.WriteFile(leagueFile, []byte(settings), 0o644); err != nil {
		t.Fatal(err)
	}
	mgr := leaguetest.StartManager(t, dir, adminToken, "--seed", "7", "--config", conf, "--ratings-exclude-technical")
	leaguetest.StartReferee(t, dir, mgr.Endpoint, "REF01")
	for _, name := range []string{"random1", "random2", "random3"} {
		leaguetest.StartPlayer(t, dir, mgr.Endpoint, name, "--strategy", "random")
	}
	leaguetest.StartBadPlayer(t, dir, mgr.Endpoint, "nonsense", "invalid")
	ctl := control.New(mgr.Endpoint, adminToken)
	if err := ctl.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	leaguetest.UntilCompleted(t, ctl, 0, leagueTimeout)
	served, err := ctl.Standings(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	waitStandingsFile(t, dir, served.MatchesDone)
	var written protocol.StandingsFile
	leaguetest.ReadJSON(t, filepath.Join(dir, "leagues", leaguetest.LeagueIn(t, dir), "standings.json"), &written)

	// What the test relies on: the league's points and option took, and
	// a technical loss was given, so neither default could pass for them.
	technical := 0
	for _, row := range served.Standings {
		want := row.Wins*points.Win + row.Draws*points.Draw + (row.Losses-row.TechnicalLosses)*points.Loss +
			row.TechnicalLosses*points.TechnicalLoss
		if row.Points != want {
			t.Fatalf("the manager gives %s %d points, not the config's %d", row.PlayerID, row.Points, want)
		}
		technical += row.TechnicalLosses
	}
	if technical == 0 || served.Ratings == nil || served.Ratings.TechnicalLosses != protocol.TechnicalLossesExcluded {
		t.Fatalf("no technical loss, or ratings that count them: %+v", served.Ratings)
	}

	l, err := report.Load(dir, "") // the manager still runs: the report only reads
	if err != nil {
		t.Fatal(err)
	}
	if len(l.Problems) > 0 {
		t.Errorf("the report found problems in a league that completed: %q", l.Problems)
	}
	got := l.Standings
	for _, doc := range []*protocol.StandingsFile{&got, &served, &written} {
		doc.LastUpdated = "" // the time each was made
	}
	if !reflect.DeepEqual(got, served) || !reflect.DeepEqual(got, written) {
		t.Errorf("the report's standings\n%+v\nthe manager's GET /standings\n%+v\nits standings.json\n%+v", got, served, written)
	}
	if !reflect.DeepEqual(l.Ratings, served.Ratings.Players) {
		t.Errorf("the report's ratings %+v, the manager's %+v", l.Ratings, served.Ratings.Players)
	}
}
