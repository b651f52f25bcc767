package tui

import (
	"fmt"
	"maps"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"syscall"
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
	if !roundedMatchDuration.MatchString(screen) {
		t.Errorf("the match's line does not end with a rounded duration (413ms, 2.4s):\n%s", screen)
	}
	x.Keys("q")
	x.WaitScreenFor(10*time.Second, "the replay to quit", func(s string) bool { return !strings.Contains(s, "replay · league") })
	if after := leaguetest.FolderState(t, data); !maps.Equal(after, before) {
		t.Error("the replay changed the data folder")
	}
	// A replay whose terminal closes ends (SIGHUP), as the console does.
	y := leaguetest.NewTmux(t, 120, 40, fmt.Sprintf("exec %s replay %s", bin, data))
	y.WaitScreen(20*time.Second, "replay · league league_2025_even_odd")
	pid, _ := strconv.Atoi(y.Pane("#{pane_pid}"))
	y.Close()
	for deadline := time.Now().Add(10 * time.Second); leaguetest.CommandLine(pid) != ""; {
		if time.Now().After(deadline) {
			_ = leaguetest.SignalPID(pid, syscall.SIGKILL)
			t.Fatalf("the replay (pid %d) ran on after its terminal closed", pid)
		}
		time.Sleep(10 * time.Millisecond) // a poll interval
	}
	// Without a terminal, it says what to run instead, a command that
	// works: not --no-ui, which replay does not take.
	out, err := exec.Command(bin, "replay", data).CombinedOutput()
	if err == nil || !strings.Contains(string(out), "leaguetui report "+data) || strings.Contains(string(out), "--no-ui") {
		t.Errorf("replay without a terminal: %v, %q; want it to advise leaguetui report %s", err, out, data)
	}
}

// roundedMatchDuration is the end of the replay's match line: its
// duration in whole milliseconds, or tenths of a second.
var roundedMatchDuration = regexp.MustCompile(`match 5 of 6 · R3M1 · round 3 · referee \S+ · (\d+ms|\d+(\.\d)?s)\s*\n`)

func TestRoundedDurations(t *testing.T) {
	for d, want := range map[time.Duration]string{
		413344777 * time.Nanosecond: "413ms",
		2437 * time.Millisecond:     "2.4s",
		83600 * time.Millisecond:    "1m24s",
		0:                           "0s",
		999700 * time.Microsecond:   "1s",
	} {
		if got := rounded(d).String(); got != want {
			t.Errorf("rounded(%v) = %s, want %s", d, got, want)
		}
	}
}
