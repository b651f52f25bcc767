package report_test

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/leaguetui/leaguetui/agents/store"
	"github.com/leaguetui/leaguetui/engine"
	"github.com/leaguetui/leaguetui/league/report"
)

// TestBootstrapIsTheLeaguesSeed: a completed league's report gives each
// rating the bootstrap interval of engine.BootstrapRatings over the
// league's games from the league's seed, the same on every load, in
// standings.csv's boot_low and boot_high beside the rank interval and tie
// group; and the joint fit of the seat and the draws.
func TestBootstrapIsTheLeaguesSeed(t *testing.T) {
	const seed = 11
	dir := t.TempDir()
	layout, err := store.NewLayout(dir, "boot")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Dir(layout.Journal()), 0o755); err != nil {
		t.Fatal(err)
	}
	ids := []string{"P01", "P02", "P03", "P04"}
	start, err := engine.NewStartInfo(engine.FormatSpec{Format: engine.FormatDoubleRoundRobin, GamesPerPair: 3}, "even_odd", ids, seed)
	if err != nil {
		t.Fatal(err)
	}
	rounds, err := start.Schedule()
	if err != nil {
		t.Fatal(err)
	}
	events := []engine.Event{{Kind: engine.EventAgentRegistered, Agent: &engine.AgentInfo{ID: "REF01", Role: engine.RoleReferee, Endpoint: "r"}}}
	for _, id := range ids {
		events = append(events, engine.Event{Kind: engine.EventAgentRegistered, Agent: &engine.AgentInfo{ID: id, Role: engine.RolePlayer, Endpoint: id}})
	}
	events = append(events, engine.Event{Kind: engine.EventLeagueStarted, Start: start})
	var results []engine.Result
	for _, r := range rounds {
		for k, p := range r.Matches {
			winner := min(p.PlayerA, p.PlayerB) // the lower id wins, but not always: every player loses
			if (r.Number+k)%3 == 0 {
				winner = max(p.PlayerA, p.PlayerB)
			}
			ev := result(p, winner)
			events = append(events, assign(p), ev)
			results = append(results, *ev.Result)
		}
		events = append(events, engine.Event{Kind: engine.EventRoundCompleted, Round: r.Number})
	}
	events = append(events, engine.Event{Kind: engine.EventLeagueCompleted})
	journal, _, err := store.OpenJournal(layout.Journal())
	if err != nil {
		t.Fatal(err)
	}
	at := time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC)
	for i, ev := range events {
		ev.Seq, ev.Time = int64(i+1), at.Add(time.Duration(i)*time.Second)
		if err := journal.Append(ev); err != nil {
			t.Fatal(err)
		}
	}
	if err := journal.Close(); err != nil {
		t.Fatal(err)
	}

	want := engine.BootstrapRatings(ids, results, engine.RatingOptions{}, report.BootstrapResamples, seed)
	var first [][]string
	for range 2 {
		l, err := report.Load(dir, "")
		if err != nil {
			t.Fatal(err)
		}
		if l.State != engine.LeagueCompleted {
			t.Fatalf("league %s", l.State)
		}
		boot := l.Bootstrap()
		for _, iv := range want {
			if !iv.Rated || boot[iv.PlayerID] != iv {
				t.Errorf("%s: the report's bootstrap %+v, the engine's %+v", iv.PlayerID, boot[iv.PlayerID], iv)
			}
		}
		rows := l.StandingsRows()
		col := func(name string) int { return slices.Index(rows[0], name) }
		for _, row := range rows[1:] {
			iv := boot[row[col("player_id")]]
			if row[col("boot_low")] != strconv.FormatFloat(iv.Low, 'f', 1, 64) || row[col("boot_high")] != strconv.FormatFloat(iv.High, 'f', 1, 64) ||
				row[col("rank_low")] == "" || row[col("tie_group")] == "" {
				t.Errorf("standings.csv row %v, bootstrap %+v", row, iv)
			}
		}
		if first != nil && !slices.EqualFunc(first, rows, slices.Equal) {
			t.Errorf("two loads gave\n%v\n%v", first, rows)
		}
		first = rows
		checkJointFit(t, l, engine.FitSeatAndDraws(ids, results, engine.RatingOptions{}))
	}
}

// checkJointFit: the report gives the league's joint fit of the seat and
// the draws, the engine's over the league's games, in a sentence under
// the ratings, as the season's table gives a season's.
func checkJointFit(t *testing.T, l *report.League, want engine.JointFit) {
	t.Helper()
	if got := l.JointFit(); !want.Known || got.Described() != want.Described() {
		t.Fatalf("the report's joint fit %+v, the engine's %+v", got, want)
	}
	dir := t.TempDir()
	if err := l.WriteHTML(dir); err != nil {
		t.Fatal(err)
	}
	page, err := os.ReadFile(filepath.Join(dir, report.HTMLFile))
	if err != nil {
		t.Fatal(err)
	}
	if line := "Seat and draws, " + want.Described() + "."; !strings.Contains(string(page), line) {
		t.Errorf("the report does not say %q", line)
	}
}

// TestRatingsPageSaysTheBootstrap holds docs/ratings.md's bootstrap
// section to the report's constants.
func TestRatingsPageSaysTheBootstrap(t *testing.T) {
	data, err := os.ReadFile("../../docs/ratings.md")
	if err != nil {
		t.Fatal(err)
	}
	page := strings.Join(strings.Fields(string(data)), " ")
	for _, want := range []string{
		fmt.Sprintf("as many as there were, %d times", report.BootstrapResamples),
		"2 × elo − q97.5 to 2 × elo − q2.5",
		fmt.Sprintf("a league of more than %d players has no bootstrap interval", report.BootstrapMaxPlayers),
	} {
		if !strings.Contains(page, want) {
			t.Errorf("docs/ratings.md does not say %q", want)
		}
	}
}
