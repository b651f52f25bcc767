package roster_test

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/leaguetui/leaguetui/internal/leaguetest"
)

// TestOpenSeatsInConsole: a console league from a roster (a built-in
// player and a Python program it starts) with an open seat waits for them,
// says where to register and who joined, and starts by itself once an
// outside player has taken the seat, which gets the first id the roster's
// players do not need.
func TestOpenSeatsInConsole(t *testing.T) {
	bin := leaguetest.Binary(t)
	data := t.TempDir()
	roster := writeRoster(t, map[string]any{"name": "bob", "strategy": "random"}, pythonPlayer(t, "alice"))
	x := leaguetest.NewTmux(t, 200, 40, fmt.Sprintf("exec %s --free-ports --data %s --roster %s --referees 1 --seed 3 --open-seats 1 %s",
		bin, data, roster, strings.Join(fast, " ")))
	t.Cleanup(func() { leaguetest.KillLeftovers(t, data) })
	screen := x.WaitScreen(60*time.Second, "register at http://127.0.0.1:", "waiting for 1 open seat", "○ waiting")
	url := regexp.MustCompile(`register at (http://127\.0\.0\.1:\d+/mcp)`).FindStringSubmatch(screen)
	if url == nil {
		t.Fatalf("no /mcp URL to register at on the screen:\n%s", screen)
	}
	leaguetest.StartPlayer(t, t.TempDir(), url[1], "zed", "--strategy", "random")
	screen = x.WaitScreen(60*time.Second, "✓ completed")
	for _, want := range []string{"bob", "alice", "zed", "P03"} {
		if !strings.Contains(screen, want) {
			t.Errorf("the completed league's screen does not show %s:\n%s", want, screen)
		}
	}
	log, _ := os.ReadFile(filepath.Join(data, "logs", "system", "console.log.jsonl"))
	if !leaguetest.ContainsAll(string(log), "joined: alice (P02)", "joined: zed (P03)", "everyone has joined") {
		t.Errorf("the console's log does not say zed joined and everyone was there:\n%s", log)
	}
	x.Keys("q")
	awaitExit(t, x)
}

// awaitExit waits for the console in x to exit.
func awaitExit(t *testing.T, x *leaguetest.Tmux) {
	t.Helper()
	x.WaitScreenFor(30*time.Second, "the console to exit", func(string) bool { return x.Pane("#{pane_dead}") == "1" })
}

// TestSecondConsoleControls: the admin token of a console-started league
// is in the data folder, readable by its owner only, and in the info view;
// a second console attached with it starts the league.
func TestSecondConsoleControls(t *testing.T) {
	bin := leaguetest.Binary(t)
	data := t.TempDir()
	first := leaguetest.NewTmux(t, 160, 40, fmt.Sprintf("exec env -u LEAGUETUI_ADMIN_TOKEN %s --free-ports --data %s --players 2 --referees 1 --seed 3", bin, data))
	t.Cleanup(func() { leaguetest.KillLeftovers(t, data) })
	screen := first.WaitScreen(60*time.Second, "press s to start")
	base := regexp.MustCompile(`local (http://127\.0\.0\.1:\d+)`).FindStringSubmatch(screen)
	if base == nil {
		t.Fatalf("no manager URL in the header:\n%s", screen)
	}
	tokenFile := filepath.Join(data, "admin.token")
	info, err := os.Stat(tokenFile)
	if err != nil {
		t.Fatal(err)
	}
	if info.Mode().Perm() != 0o600 {
		t.Errorf("%s has mode %v, want 0600", tokenFile, info.Mode().Perm())
	}
	token, err := os.ReadFile(tokenFile)
	if err != nil {
		t.Fatal(err)
	}
	first.Keys("?")
	first.WaitScreen(10*time.Second, "admin token: "+strings.TrimSpace(string(token)), tokenFile)
	first.Keys("Escape")

	second := leaguetest.NewTmux(t, 160, 40, fmt.Sprintf("exec env -u LEAGUETUI_ADMIN_TOKEN %s --attach %s --admin-token-file %s", bin, base[1], tokenFile))
	second.WaitScreen(30*time.Second, "press s to start")
	second.Keys("s")
	second.WaitScreen(60*time.Second, "✓ completed")
	first.WaitScreen(30*time.Second, "✓ completed")
	second.Keys("q")
	awaitExit(t, second)
	first.Keys("q")
	awaitExit(t, first)
}
