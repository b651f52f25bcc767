package tui

import (
	"fmt"
	"maps"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/leaguetui/leaguetui/internal/leaguetest"
)

// TestReplayInTmux plays a short league headless, then replays it from
// its data folder in a real terminal: every match in schedule order, n
// and p stepping through them, and the folder left exactly as it was.
func TestReplayInTmux(t *testing.T) {
	bin := leaguetuiBinary(t)
	if _, err := exec.LookPath("tmux"); err != nil {
		leaguetest.SkipWithout(t, "tmux is not installed: the replay's real-terminal test needs it")
	}
	data := t.TempDir()
	cmd := exec.Command(bin, "--no-ui", "--quiet", "--free-ports", "--data", data, "--players", "4", "--referees", "1", "--seed", "5")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("leaguetui --no-ui: %v\n%s", err, out)
	}
	before := leaguetest.FolderState(t, data)
	x := leaguetest.NewTmux(t, 120, 40, fmt.Sprintf("exec %s replay %s", bin, data))
	x.WaitScreen(20*time.Second, "replay · league league_2025_even_odd", "match 1 of 6 · R1M1 · round 1", "GAME_INVITATION")
	x.Keys("n")
	x.WaitScreen(10*time.Second, "match 2 of 6 · R1M2 · round 1")
	x.Keys("G")
	x.WaitScreen(10*time.Second, "match 6 of 6 · R3M2 · round 3")
	x.Keys("n") // past the last: stays
	x.Keys("p")
	screen := x.WaitScreen(10*time.Second, "match 5 of 6 · R3M1 · round 3", "GAME_OVER")
	if !strings.Contains(screen, "result ") {
		t.Errorf("no result on the replay's screen:\n%s", screen)
	}
	x.Keys("q")
	x.WaitScreenFor(10*time.Second, "the replay to quit", func(s string) bool { return !strings.Contains(s, "replay · league") })
	if after := leaguetest.FolderState(t, data); !maps.Equal(after, before) {
		t.Error("the replay changed the data folder")
	}
}
