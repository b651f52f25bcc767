package tui

import (
	"fmt"
	"path/filepath"
	"strconv"
	"syscall"
	"testing"
	"time"

	"github.com/leaguetui/leaguetui/internal/leaguetest"
	"github.com/leaguetui/leaguetui/league/season"
)

// TestConsoleSeasonInTmux runs the console with --season in a real
// terminal: when the league completes, the console adds it to the season
// (the folder holds it while the console is still open), and e in the
// standings pane shows the season's table; the pane says how many
// adjacent pairs --until-separated left unsure.
func TestConsoleSeasonInTmux(t *testing.T) {
	bin := leaguetuiBinary(t)
	data, seasonDir := t.TempDir(), filepath.Join(t.TempDir(), "season")
	x := leaguetest.NewTmux(t, 120, 40, fmt.Sprintf("exec %s --free-ports --data %s --players 4 --referees 1 --seed 3 --season %s --until-separated 3",
		bin, data, seasonDir))
	x.WaitScreen(60*time.Second, "press s to start")
	pid, err := strconv.Atoi(x.Pane("#{pane_pid}"))
	if err != nil {
		t.Fatal(err)
	}
	children := childPIDs(pid)
	t.Cleanup(func() { // should the test fail half-way: end what it started, by PID
		for _, child := range children {
			if alive(child) {
				_ = leaguetest.SignalPID(child, syscall.SIGKILL)
			}
		}
	})
	x.Keys("s")
	x.Keys("3")
	final := x.WaitScreen(120*time.Second, "✓ completed", "until-separated ")
	if screenLine(final, "adjacent pairs unsure") == "" {
		t.Errorf("the standings pane does not say how many adjacent pairs are unsure:\n%s", final)
	}
	var s *season.Season
	eventually(t, 30*time.Second, "the console adds the league to the season", func() bool {
		s, err = season.Read(seasonDir)
		return err == nil && len(s.Leagues) == 1
	})
	x.Keys("e")
	screen := x.WaitScreen(30*time.Second, "Season", "leagues", "e back")
	for _, r := range s.Table() {
		if screenLine(screen, " "+r.Name+" ") == "" {
			t.Errorf("the season's row of %q is not on screen:\n%s", r.Name, screen)
		}
	}
	x.Keys("q")
	eventually(t, 60*time.Second, "leaguetui exits", func() bool { return x.Pane("#{pane_dead}") == "1" })
}
