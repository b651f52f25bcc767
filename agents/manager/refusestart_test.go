package manager_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/leaguetui/leaguetui/engine"
	"github.com/leaguetui/leaguetui/internal/leaguetest"
	"github.com/leaguetui/leaguetui/league/control"
)

// TestRefereeRefusingStartMatch: a referee of another implementation that
// answers start_match with "unknown message type" (-32000, badreferee
// --mode refuse_start) beside one of ours. Each match it is given goes to
// ours at once; at its third refusal in a row it is taken for a referee
// that declines start_match and is sent none again: the match announced
// to it waits for its report a match deadline (--suspend-referee-after 4
// counts the three refusals as misses, and that wait as the fourth), and
// then it is suspended and ours plays the rest.
// The league completes with standings that are its results', and the feed
// (the console's log pane, --no-ui's stderr) says why: the refusals, the
// error the referee answered, the suspension.
func TestRefereeRefusingStartMatch(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	out := filepath.Join(dir, "test-output")
	mgr := leaguetest.StartManager(t, dir, adminToken, "--seed", "5", "--open-referees", "--retry-delay", "50ms",
		"--suspend-referee-after", "4", "--games-per-pair", "2",
		// a match deadline of seconds, which the match waited for the refusing referee takes
		"--join-timeout", "300ms", "--move-timeout", "300ms", "--generic-timeout", "500ms", "--report-timeout", "500ms", "--attempts", "1")
	url := mgr.Endpoint
	ctl := control.New(url, adminToken)
	refuser := leaguetest.StartProgram(t, leaguetest.BadRefereeBinary(t), "refusing referee", out, true, nil,
		"--manager", url, "--name", "refuser", "--mode", "refuse_start", "--refuse-code", "-32000")
	leaguetest.StartReferee(t, dir, url, "ours")
	for _, name := range []string{"P01", "P02", "P03", "P04"} {
		leaguetest.StartPlayer(t, dir, url, name, "--seed", "9")
	}
	if err := ctl.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	events := leaguetest.UntilCompleted(t, ctl, 0, 3*time.Minute)

	const refusing, ours = "REF01", "REF02" // in the order they registered
	results := map[string]engine.Result{}
	var declines, suspensions []engine.Event
	for _, ev := range events {
		switch ev.Kind {
		case engine.EventMatchResult:
			if _, again := results[ev.MatchID]; again {
				t.Errorf("%s has two results", ev.MatchID)
			}
			results[ev.MatchID] = *ev.Result
			if ev.Result.Status == engine.StatusTechnicalLoss {
				t.Errorf("%s ended in a technical loss: %s", ev.MatchID, ev.Detail)
			}
			if ev.Referee != ours {
				t.Errorf("%s was played by %s, want %s: the refusing referee plays nothing", ev.MatchID, ev.Referee, ours)
			}
		case engine.EventStalled:
			if strings.Contains(ev.Detail, "refused start_match") {
				declines = append(declines, ev)
			}
		case engine.EventRefereeSuspended:
			suspensions = append(suspensions, ev)
		}
	}
	if want := 12; len(results) != want { // 4 players, every pair twice
		t.Errorf("%d results, want %d", len(results), want)
	}

	// The standings are the results' (win 3, draw 1).
	points := map[string]int{}
	for _, r := range results {
		for id, p := range engine.DefaultScoring().Points(r) {
			points[id] += p
		}
	}
	doc, err := ctl.Standings(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if doc.State != engine.LeagueCompleted || len(doc.Standings) != 4 {
		t.Errorf("standings: %s with %d rows, want completed with 4", doc.State, len(doc.Standings))
	}
	for _, row := range doc.Standings {
		if row.Points != points[row.PlayerID] {
			t.Errorf("%s has %d points in the standings, %d by the results", row.PlayerID, row.Points, points[row.PlayerID])
		}
	}

	// Why, in the feed: once, with what the referee answered.
	if len(declines) != 1 || declines[0].Referee != refusing ||
		!strings.Contains(declines[0].Detail, "refused start_match 3 times in a row") ||
		!strings.Contains(declines[0].Detail, "-32000") || !strings.Contains(declines[0].Detail, "unknown message type") {
		t.Errorf("notices of the refusals %+v, want one naming %s, its 3 refusals and the error -32000 it answered", declines, refusing)
	}
	if len(suspensions) != 1 || suspensions[0].AgentID != refusing || !strings.Contains(suspensions[0].Detail, "it refused start_match") {
		t.Errorf("suspensions %+v, want %s's, saying it refused start_match", suspensions, refusing)
	}

	// Asked three times, then no more, though it was in play for a match
	// deadline after.
	_ = refuser.Stop(10 * time.Second)
	raw, err := os.ReadFile(filepath.Join(out, "refusing_referee.out"))
	if err != nil {
		t.Fatal(err)
	}
	if asked := strings.Count(string(raw), "badreferee: refused "); asked != 3 {
		t.Errorf("the refusing referee was sent start_match %d times, want 3: it is asked no more after its third refusal", asked)
	}
}
