package mcpts

import (
	"bufio"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/leaguetui/leaguetui/agents/protocol"
	"github.com/leaguetui/leaguetui/agents/store"
	"github.com/leaguetui/leaguetui/config"
	"github.com/leaguetui/leaguetui/engine"
	"github.com/leaguetui/leaguetui/internal/leaguetest"
)

// TestTypeScriptSDKClientPlaysEvenOddThroughSeats: seats.mjs, the official
// TypeScript SDK's client, plays two MCP-client seats of a whole even/odd
// league beside two built-in players, with no technical loss.
func TestTypeScriptSDKClientPlaysEvenOddThroughSeats(t *testing.T) {
	playThroughSeats(t, "even_odd")
}

// TestTypeScriptSDKClientPlaysLinkRaceThroughSeats: the same for a whole
// link-race league, whose turns list the page's links as the legal moves.
func TestTypeScriptSDKClientPlaysLinkRaceThroughSeats(t *testing.T) {
	playThroughSeats(t, "link_race")
}

// playThroughSeats runs leaguetui --no-ui with --mcp-seats 2 playing game,
// has seats.mjs take and play both seats from seats.json, and checks that
// the league completed with every player's matches played and none lost
// on technicalities.
func playThroughSeats(t *testing.T, game string) {
	node := nodeAndSDK(t)
	if testing.Short() {
		t.Skip("builds the binary and starts agent processes")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()
	dataDir := t.TempDir()
	league := exec.CommandContext(ctx, leaguetest.Binary(t), "--no-ui", "--free-ports", "--data", dataDir,
		"--game", game, "--players", "2", "--mcp-seats", "2", "--referees", "1", "--seed", "11")
	league.Env = append(os.Environ(), leaguetest.ChildEnv()...)
	stderr, err := league.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := league.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = league.Process.Kill(); leaguetest.KillLeftovers(t, dataDir) })
	lines := bufio.NewScanner(stderr)
	var said strings.Builder
	for !strings.Contains(said.String(), "MCP-client seats at ") && lines.Scan() {
		said.WriteString(lines.Text() + "\n")
	}
	if !strings.Contains(said.String(), "MCP-client seats at ") {
		t.Fatalf("leaguetui never said where its seats are:\n%s", said.String())
	}
	go func() {
		for lines.Scan() { // the rest of stderr, so the league never blocks on it
		}
	}()

	seats := store.Layout{Root: dataDir}.Seats()
	out, err := exec.CommandContext(ctx, node, "seats.mjs", "--seats", seats, "--seed", "11").CombinedOutput()
	t.Logf("node seats.mjs\n%s", out)
	if err != nil {
		t.Fatalf("the TypeScript SDK's seats failed: %v", err)
	}
	if err := league.Wait(); err != nil {
		t.Fatalf("leaguetui: %v\n%s", err, said.String())
	}
	layout := store.Layout{Root: dataDir, LeagueID: config.LeagueIDFor(game)}
	host, _ := layout.ProcessOutput("seats")
	leaguetest.CheckNoDataRace(t, host)
	var standings protocol.StandingsFile
	leaguetest.ReadJSON(t, layout.Standings(), &standings)
	if standings.State != engine.LeagueCompleted || len(standings.Standings) != 4 {
		t.Fatalf("league %s with %d players, want completed with 4", standings.State, len(standings.Standings))
	}
	for _, row := range standings.Standings {
		if row.Played == 0 || row.TechnicalLosses != 0 {
			t.Errorf("%s (%s): %d played, %d technical losses", row.DisplayName, row.PlayerID, row.Played, row.TechnicalLosses)
		}
	}
}

// nodeAndSDK is node's path, skipping (failing under CI=true) without
// Node.js or the installed SDK.
func nodeAndSDK(t *testing.T) string {
	t.Helper()
	if _, err := os.Stat(filepath.Join("node_modules", "@modelcontextprotocol", "sdk")); err != nil {
		leaguetest.SkipWithout(t, "e2e/mcp-ts/node_modules is missing: run `npm ci --prefix e2e/mcp-ts` to play seats with the MCP TypeScript SDK")
	}
	node, err := exec.LookPath("node")
	if err != nil {
		leaguetest.SkipWithout(t, "node is not installed: the MCP TypeScript SDK check needs Node.js 18 or later")
	}
	return node
}
