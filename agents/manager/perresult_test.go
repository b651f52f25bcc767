package manager_test

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"github.com/leaguetui/leaguetui/agents/protocol"
	"github.com/leaguetui/leaguetui/agents/store"
	"github.com/leaguetui/leaguetui/config"
	"github.com/leaguetui/leaguetui/internal/leaguetest"
	"github.com/leaguetui/leaguetui/league/control"
)

// resultsMeasured is how many results each league reports while its
// manager's writes are counted: fewer than the 8 matches of the first round
// of 16 players, so no round ends inside the measure.
const resultsMeasured = 7

// TestPerResultWorkDoesNotGrowWithPlayers: a result costs the manager the
// same writes to its data folder, and the same bytes up to a few longer
// ids, in a league of 16 players and in one of 256. Each league is a real
// manager process with fake players and one fake referee that runs one
// match at a time and reports a draw as soon as it is asked to start one.
// The standings writer's interval is longer than the test, so its writes
// come from Close alone: what is counted is the work each result causes.
func TestPerResultWorkDoesNotGrowWithPlayers(t *testing.T) {
	small := measureResults(t, 16)
	large := measureResults(t, 256)
	t.Logf("per %d results: 16 players %d writes, %d bytes; 256 players %d writes, %d bytes",
		resultsMeasured, small.writes, small.bytes, large.writes, large.bytes)
	if large.writes > small.writes {
		t.Errorf("%d results made %d writes with 256 players, %d with 16: per-result writes grow with the league",
			resultsMeasured, large.writes, small.writes)
	}
	// Player ids (P001) and match ids (R1M100) are a few characters longer.
	const slackPerResult = 64
	if large.bytes > small.bytes+slackPerResult*resultsMeasured {
		t.Errorf("%d results wrote %d bytes with 256 players, %d with 16: per-result bytes grow with the league",
			resultsMeasured, large.bytes, small.bytes)
	}
}

type writeCount struct{ writes, bytes int64 }

// measureResults runs a league of n fake players and counts the manager's
// writes from just before the first result to just after the last one
// measured (that is, after the next match's assignment, which each result
// triggers, is journaled). Then it stops the manager and checks that the
// standings file it leaves has every result.
func measureResults(t *testing.T, n int) writeCount {
	t.Helper()
	dir := t.TempDir()
	mgr := leaguetest.Start(t, "manager", filepath.Join(dir, "test-output"), false,
		[]string{"LEAGUETUI_ADMIN_TOKEN=" + adminToken, "LEAGUETUI_STANDINGS_INTERVAL=1h", "LEAGUETUI_REFEREE_KEY=" + leaguetest.RefereeKey},
		"manager", "--port", "0", "--data", dir, "--seed", "5")
	url := mgr.Endpoint
	ctl := control.New(url, adminToken)

	starts := make(chan string, n)
	ref := register(t, url, "referee", ackingPeer(t, starts, nil).Endpoint)
	players := ackingPeer(t, nil, nil)
	for i := range n {
		register(t, url, "player", fmt.Sprintf("%s?player=%d", players.Endpoint, i))
	}
	if err := ctl.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	next := func() string {
		t.Helper()
		select {
		case id := <-starts:
			return id
		case <-time.After(60 * time.Second):
			t.Fatal("no start_match reached the referee")
			return ""
		}
	}
	match := next()
	before := managerWrites(t, ctl)
	for range resultsMeasured {
		reportDraw(t, url, ref, match)
		match = next() // assigned and journaled after the result
	}
	after := managerWrites(t, ctl)

	if err := mgr.Stop(30 * time.Second); err != nil {
		t.Fatal(err)
	}
	var standings protocol.StandingsFile
	if err := store.ReadJSON(filepath.Join(dir, "leagues", config.Default().LeagueID, "standings.json"), &standings); err != nil {
		t.Fatalf("standings.json after the manager closed: %v", err)
	}
	if standings.MatchesDone != resultsMeasured || len(standings.Standings) != n {
		t.Errorf("standings.json at close: %d matches done, %d rows; want %d and %d",
			standings.MatchesDone, len(standings.Standings), resultsMeasured, n)
	}
	return writeCount{writes: after.writes - before.writes, bytes: after.bytes - before.bytes}
}

// managerWrites reads the manager's write counters from GET /health.
func managerWrites(t *testing.T, ctl *control.Client) writeCount {
	t.Helper()
	h, err := ctl.Health(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if h.FileWrites == 0 || h.BytesWritten == 0 {
		t.Fatalf("health %+v counts no file_writes and bytes_written of a started manager", h)
	}
	return writeCount{writes: h.FileWrites, bytes: h.BytesWritten}
}

// reportDraw reports a match as a draw, the way a referee does.
func reportDraw(t *testing.T, url string, ref agent, matchID string) {
	t.Helper()
	msg := leaguetest.With(leaguetest.Envelope("MATCH_RESULT_REPORT", ref.sender), map[string]any{
		"auth_token": ref.token, "league_id": config.Default().LeagueID, "round_id": 1, "match_id": matchID,
		"game_type": "even_odd", "result": map[string]any{"status": "DRAW"},
	})
	if reply := leaguetest.Call(t, url, "report_match_result", msg); reply.String("message_type") != "MATCH_RESULT_ACK" {
		t.Fatalf("report of %s: %s, want MATCH_RESULT_ACK", matchID, reply.Body)
	}
}
