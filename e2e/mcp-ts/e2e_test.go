// Package mcpts runs the end-to-end check of match.mjs: the official MCP
// TypeScript SDK client against real agent processes of the leaguetui binary.
// It needs Node.js and `npm ci --prefix e2e/mcp-ts`; without them it skips.
package mcpts

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/leaguetui/leaguetui/agents/protocol"
	"github.com/leaguetui/leaguetui/config"
	"github.com/leaguetui/leaguetui/engine"
	"github.com/leaguetui/leaguetui/internal/leaguetest"
	"github.com/leaguetui/leaguetui/league/control"
	"github.com/leaguetui/leaguetui/league/launcher"
)

func TestTypeScriptSDKClientPlaysAMatchOverMCP(t *testing.T) {
	if _, err := os.Stat(filepath.Join("node_modules", "@modelcontextprotocol", "sdk")); err != nil {
		leaguetest.SkipWithout(t, "e2e/mcp-ts/node_modules is missing: run `npm ci --prefix e2e/mcp-ts` to check the agents with the MCP TypeScript SDK")
	}
	node, err := exec.LookPath("node")
	if err != nil {
		leaguetest.SkipWithout(t, "node is not installed: the MCP TypeScript SDK check needs Node.js 18 or later")
	}
	if testing.Short() {
		t.Skip("builds the binary and starts agent processes")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	exe := buildBinary(ctx, t)
	dataDir := t.TempDir()
	league, err := launcher.Launch(ctx, launcher.Spec{Config: config.Default(), Executable: exe,
		DataDir: dataDir, Players: 2, Referees: 1, Seed: 42, Given: launcher.Given{Seed: true}, FreePorts: true})
	if league != nil {
		defer league.Stop()
	}
	if err != nil {
		t.Fatal(err)
	}

	args := []string{"match.mjs", "--manager", league.Manager.Endpoint, "--referee", league.Referees[0].Endpoint}
	for _, p := range league.Players {
		// The match tickets the manager would give referee E2E for the match.
		ticket := leaguetest.MatchTicket(t, dataDir, config.Default().LeagueID, p.ID, "E2E-M1", "E2E")
		args = append(args, "--player", p.ID+"="+p.Endpoint, "--ticket", p.ID+"="+ticket)
	}
	out, err := exec.CommandContext(ctx, node, args...).CombinedOutput()
	t.Logf("node %v\n%s", args, out)
	if err != nil {
		t.Fatalf("the TypeScript SDK check failed: %v", err)
	}

	// The agents still play their league afterwards, over plain JSON-RPC.
	if err := league.Control.Start(ctx); err != nil {
		t.Fatal(err)
	}
	standings := awaitCompleted(ctx, t, league.Control)
	if standings.MatchesDone != 1 {
		t.Fatalf("league %s with %d of %d matches", standings.State, standings.MatchesDone, standings.MatchesTotal)
	}
	for _, row := range standings.Standings {
		if row.TechnicalLosses != 0 {
			t.Errorf("%s has %d technical losses", row.PlayerID, row.TechnicalLosses)
		}
	}
}

// buildBinary builds leaguetui into the test's temporary folder.
func buildBinary(ctx context.Context, t *testing.T) string {
	t.Helper()
	exe := filepath.Join(t.TempDir(), "leaguetui")
	build := exec.CommandContext(ctx, "go", "build", "-o", exe, "github.com/leaguetui/leaguetui/cmd/leaguetui")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return exe
}

// awaitCompleted follows the manager's event feed until the league
// completes, then reads the standings.
func awaitCompleted(ctx context.Context, t *testing.T, ctl *control.Client) protocol.StandingsFile {
	t.Helper()
	events, _ := leaguetest.NextEvents(t, ctl, 0, 2*time.Minute, engine.EventLeagueCompleted, engine.EventStopped)
	if events[len(events)-1].Kind == engine.EventStopped {
		t.Fatal("the league was stopped")
	}
	standings, err := ctl.Standings(ctx)
	if err != nil {
		t.Fatal(err)
	}
	return standings
}
