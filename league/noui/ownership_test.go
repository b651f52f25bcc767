package noui_test

import (
	"errors"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/leaguetui/leaguetui/agents/player"
	"github.com/leaguetui/leaguetui/internal/leaguetest"
)

// TestParentKilledLeavesNothingRunning kills `leaguetui --no-ui` with
// SIGKILL in the middle of a league: its manager, referees and players die
// with it (none is left running, checked by PID), and the resume command
// then completes the league with every file as an uninterrupted run of the
// same seed leaves it.
func TestParentKilledLeavesNothingRunning(t *testing.T) {
	t.Parallel()
	if !leaguetest.HaveProc() {
		t.Skip("needs Linux /proc to list the children")
	}
	const players, referees, seed = 8, 2, 31
	dir := t.TempDir()
	first := startHeadless(t, leaguetest.Args("--no-ui", "--free-ports", "--data", dir, "--seed", seed,
		"--players", players, "--referees", referees)...)
	first.waitForLine(t, "[6/")
	children, err := leaguetest.ChildPIDs(first.cmd.Process.Pid)
	if err != nil {
		t.Fatal(err)
	}
	if len(children) != 1+players+referees {
		t.Fatalf("%d children of leaguetui --no-ui, want %d", len(children), 1+players+referees)
	}
	if err := first.cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	first.wait(t)
	for _, pid := range children {
		awaitExit(t, pid, 10*time.Second)
	}
	assertNoAgentLeft(t, dir)

	resumed := startHeadless(t, "--no-ui", "--free-ports", "--data", dir)
	if status, stderr := resumed.wait(t); status != 0 || !strings.Contains(stderr, "resuming league") {
		t.Fatalf("the resume command: exit status %d\n%s", status, stderr)
	}
	assertNoAgentLeft(t, dir)
	got := checkLeagueFiles(t, dir, players)
	wantDir := runHeadless(t, players, referees, seed).dataDir
	want := checkLeagueFiles(t, wantDir, players)
	compareLeagues(t, dir, wantDir, got, want, players)
}

// compareLeagues checks that two completed leagues of the same seed agree:
// the standings, every match's result and choices, and every player's
// history (timestamps and referees aside: those may differ).
func compareLeagues(t *testing.T, gotDir, wantDir string, got, want leagueFiles, players int) {
	t.Helper()
	if !slices.Equal(got.standings.Standings, want.standings.Standings) {
		t.Errorf("standings differ from an uninterrupted run's:\n got %+v\nwant %+v", got.standings.Standings, want.standings.Standings)
	}
	for id, w := range want.matches {
		if g := got.matches[id]; !reflect.DeepEqual(outcome(g.Result), outcome(w.Result)) || !maps.Equal(g.Players, w.Players) {
			t.Errorf("match file %s: %+v %+v; uninterrupted: %+v %+v", id, g.Players, g.Result, w.Players, w.Result)
		}
	}
	for i := 1; i <= players; i++ {
		g, w := historyByMatch(t, gotDir, playerID(i)), historyByMatch(t, wantDir, playerID(i))
		if !reflect.DeepEqual(g, w) {
			t.Errorf("%s history differs from an uninterrupted run's:\n got %+v\nwant %+v", playerID(i), g, w)
		}
		var gs, ws player.History
		readJSON(t, filepath.Join(gotDir, "players", playerID(i), "history.json"), &gs)
		readJSON(t, filepath.Join(wantDir, "players", playerID(i), "history.json"), &ws)
		if gs.Strategy != ws.Strategy || !reflect.DeepEqual(gs.Stats, ws.Stats) {
			t.Errorf("%s history: strategy %q, stats %+v; uninterrupted: %q, %+v", playerID(i), gs.Strategy, gs.Stats, ws.Strategy, ws.Stats)
		}
	}
}

// historyByMatch is a player's history.json without its timestamps, by match.
func historyByMatch(t *testing.T, dir, id string) map[string]player.HistoryEntry {
	t.Helper()
	var h player.History
	readJSON(t, filepath.Join(dir, "players", id, "history.json"), &h)
	out := map[string]player.HistoryEntry{}
	for _, e := range h.Matches {
		e.Timestamp = ""
		out[e.MatchID] = e
	}
	return out
}

// TestSecondOwnerRefused: while `leaguetui --no-ui` runs a league, a
// second leaguetui, or a manager started by hand, on the same data folder
// is refused at once, naming the process that owns it.
func TestSecondOwnerRefused(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	first := startHeadless(t, "--no-ui", "--free-ports", "--data", dir, "--players", "12")
	first.waitForLine(t, "league started")
	owner := fmt.Sprintf("PID %d (", first.cmd.Process.Pid)
	for name, args := range map[string][]string{
		"leaguetui": {"--no-ui", "--free-ports", "--data", dir},
		"manager":   {"manager", "--port", "0", "--data", dir},
	} {
		cmd := exec.Command(leaguetest.Binary(t), args...)
		cmd.Env = append(os.Environ(), "LEAGUETUI_ADMIN_TOKEN=secret")
		out, err := cmd.CombinedOutput()
		var exit *exec.ExitError
		if !errors.As(err, &exit) || exit.ExitCode() != 1 {
			t.Fatalf("%s on a data folder in use: %v, want exit status 1\n%s", name, err, out)
		}
		if !strings.Contains(string(out), owner) || !strings.Contains(string(out), "--no-ui") {
			t.Errorf("%s on a data folder in use says %q; want it to name %s leaguetui --no-ui …)", name, out, owner)
		}
	}
	_ = first.cmd.Process.Kill()
	first.wait(t)
}
