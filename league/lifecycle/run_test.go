package lifecycle_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/leaguetui/leaguetui/engine"
	"github.com/leaguetui/leaguetui/internal/leaguetest"
	"github.com/leaguetui/leaguetui/internal/leaguetest/fakellm"
	"github.com/leaguetui/leaguetui/league/lifecycle"
)

// TestHeadlessLeagueStartToSeason: a headless league is launched, begun
// (a new league, started with its seed), played to its end and completed:
// its exports are written and it is added to its season; stopped, none of
// its processes is left. Opened again, it was completed before: nothing
// plays, no agent starts, and the season holds it already.
func TestHeadlessLeagueStartToSeason(t *testing.T) {
	seasonDir, csvDir := filepath.Join(t.TempDir(), "season"), t.TempDir()
	spec := newSpec(t, 4, 2, 7, "--season", seasonDir)
	rec := &recorder{}
	league := launch(t, spec, rec, lifecycle.Options{CSVDir: csvDir})
	begun, err := league.Begin(t.Context())
	if err != nil || begun.How != lifecycle.New || begun.Seed != 7 || !begun.Plays() {
		t.Fatalf("begin: %+v, %v; want a new league of seed 7", begun, err)
	}
	final := completeFeed(t, league)
	if err := league.Complete(&final); err != nil {
		t.Fatalf("complete: %v", err)
	}
	stop(t, league, spec)
	wantCompleted(t, standings(t, spec), 4)
	for _, name := range []string{"standings.csv", "crosstable.csv", "matches.csv", "results.jsonl"} {
		if !fileExists(filepath.Join(csvDir, name)) {
			t.Errorf("no export %s in %s", name, csvDir)
		}
	}
	added := seasonFile(seasonDir)
	if raw, err := os.ReadFile(added); err != nil || !strings.Contains(string(raw), spec.Config.LeagueID) {
		t.Fatalf("the season %s has no file of league %s (%v)", seasonDir, spec.Config.LeagueID, err)
	}
	rec.wantTold(t, "launching 4 players, 2 referees", "launched, resumed false", "beginning 0, seed 7",
		"say INFO: league "+spec.Config.LeagueID+" added to the season "+seasonDir, "stopped 7 agents")

	again := &recorder{}
	reopened := launch(t, spec, again, lifecycle.Options{})
	begun, err = reopened.Begin(t.Context())
	if err != nil || begun.How != lifecycle.CompletedBefore || begun.Plays() {
		t.Fatalf("begin again: %+v, %v; want the league completed before", begun, err)
	}
	if n := len(reopened.Referees) + len(reopened.Players); n != 0 {
		t.Errorf("a league completed before started %d agents", n)
	}
	if err := reopened.Complete(nil); err != nil {
		t.Fatalf("complete again: %v", err)
	}
	stop(t, reopened, spec)
	again.wantTold(t, "launched, resumed true", "beginning 2", "holds league "+spec.Config.LeagueID+" already", "stopped 1 agents")
	if now := seasonFile(seasonDir); now != added {
		t.Errorf("the season's file of the league is %q after a second completion, want %q alone", now, added)
	}
}

// TestPausedLeagueResumes: a league paused mid-league and stopped is
// opened again from its data folder paused; Begin resumes it, and it plays
// its remaining matches to the end.
func TestPausedLeagueResumes(t *testing.T) {
	spec := newSpec(t, 10, 2, 7)
	league := launch(t, spec, &recorder{}, lifecycle.Options{})
	if _, err := league.Begin(t.Context()); err != nil {
		t.Fatal(err)
	}
	leaguetest.NextEvents(t, league.Control, 0, leagueTimeout, engine.EventMatchResult)
	if err := league.Control.Pause(t.Context()); err != nil {
		t.Fatal(err)
	}
	eventually(t, "the league pauses", func() bool {
		doc, err := league.Control.Standings(t.Context())
		return err == nil && doc.State == engine.LeaguePaused
	})
	stop(t, league, spec)
	paused := standings(t, spec)
	if paused.MatchesDone >= paused.MatchesTotal {
		t.Fatalf("not paused mid-league: %d of %d matches done", paused.MatchesDone, paused.MatchesTotal)
	}

	rec := &recorder{}
	reopened := launch(t, spec, rec, lifecycle.Options{})
	if reopened.Resumed == nil || reopened.Resumed.State != engine.LeaguePaused {
		t.Fatalf("reopened: %+v, want the paused league", reopened.Resumed)
	}
	begun, err := reopened.Begin(t.Context())
	if err != nil || begun.How != lifecycle.Resuming || begun.Seed != 7 {
		t.Fatalf("begin: %+v, %v; want the league resumed with its seed", begun, err)
	}
	final := completeFeed(t, reopened)
	stop(t, reopened, spec)
	wantCompleted(t, final, 10)
	wantCompleted(t, standings(t, spec), 10)
	rec.wantTold(t, "launched, resumed true", "beginning 1, seed 7", "stopped 13 agents")
	t.Logf("paused at %d of %d matches, resumed to the end", paused.MatchesDone, paused.MatchesTotal)
}

// TestBackgroundStartsWhenJoined: the console's league (Background) waits
// for its open seat, starts once a stranger has taken it, and is added to
// its season once it has completed, with no terminal.
func TestBackgroundStartsWhenJoined(t *testing.T) {
	seasonDir := filepath.Join(t.TempDir(), "season")
	spec := newSpec(t, 2, 1, 5, "--open-seats", "1", "--season", seasonDir)
	rec := &recorder{}
	league := launch(t, spec, rec, lifecycle.Options{})
	if league.Waiter() == nil {
		t.Fatal("a league with an open seat waits for nobody")
	}
	league.Background(t.Context())
	rec.awaitLine(t, "joining 0")
	if doc, err := league.Control.Standings(t.Context()); err != nil || doc.State != engine.LeagueWaiting {
		t.Fatalf("before the seat is taken the league is %q (%v), want waiting", doc.State, err)
	}
	leaguetest.StartPlayer(t, t.TempDir(), league.Manager.Endpoint, "zed")
	completeFeed(t, league)
	eventually(t, "the league added to its season", func() bool { return seasonFile(seasonDir) != "" })
	rec.awaitLine(t, "added to the season")
	stop(t, league, spec)
	wantCompleted(t, standings(t, spec), 3)
	rec.wantTold(t, "joining 0: joined [], complete false", "joining 1: joined [zed (P03)], complete true",
		"joining 2", "added to the season", "stopped 4 agents")
}

// TestLeagueBudgetStopsTheLeague: the league's model budget, spent, stops
// the league: the presenter is told why, the league ends stopped before
// its last match, and the data folder's ledger holds at least the budget.
func TestLeagueBudgetStopsTheLeague(t *testing.T) {
	fake := fakellm.Start(fakellm.Good)
	t.Cleanup(fake.Close)
	t.Setenv("OPENAI_API_KEY", "sk-lifecycle-test")
	const budget = 400
	spec := newSpec(t, 4, 1, 3, "--llm-model", "fake", "--strategies", "llm,random", "--games-per-pair", "10",
		"--llm-provider", "openai", "--llm-base-url", fake.OpenAIURL(), "--suspend-after", "0",
		"--league-budget-tokens", "400", "--llm-fallback", "random")
	rec := &recorder{}
	league := launch(t, spec, rec, lifecycle.Options{})
	if _, err := league.Begin(t.Context()); err != nil {
		t.Fatal(err)
	}
	events, _ := leaguetest.NextEvents(t, league.Control, 0, leagueTimeout, engine.EventLeagueCompleted, engine.EventStopped)
	if last := events[len(events)-1]; last.Kind != engine.EventStopped {
		t.Fatalf("the league ended with %s, want stopped by its budget", last.Kind)
	}
	said := rec.awaitLine(t, "the league's model budget is spent")
	if !strings.Contains(said, "say WARN") || !strings.Contains(said, "stopping the league") {
		t.Errorf("the presenter was told %q", said)
	}
	doc, err := league.Control.Standings(t.Context())
	if err != nil || doc.State != engine.LeagueStopped || doc.MatchesDone >= doc.MatchesTotal {
		t.Fatalf("standings: %s, %d of %d matches (%v); want stopped before the end", doc.State, doc.MatchesDone, doc.MatchesTotal, err)
	}
	stop(t, league, spec)
	raw, err := os.ReadFile(filepath.Join(spec.DataDir, "models", spec.Config.LeagueID, "spend.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	var spent int64
	for _, line := range strings.Split(strings.TrimSpace(string(raw)), "\n") {
		var e struct {
			InputTokens  int64 `json:"input_tokens"`
			OutputTokens int64 `json:"output_tokens"`
		}
		if err := json.Unmarshal([]byte(line), &e); err != nil {
			t.Fatalf("ledger line %q: %v", line, err)
		}
		spent += e.InputTokens + e.OutputTokens
	}
	if spent < budget {
		t.Errorf("the ledger holds %d tokens, under the budget of %d that stopped the league", spent, budget)
	}
}
