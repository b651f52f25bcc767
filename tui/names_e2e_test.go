package tui

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/leaguetui/leaguetui/internal/leaguetest"
)

// TestDisplayNamesInTmux (issue 49): in a real 120x40 terminal, the split
// layout docs/console.md describes, a league whose roster names its
// built-in players shows those names in the standings pane, before the
// start and once the league has completed.
func TestDisplayNamesInTmux(t *testing.T) {
	bin := leaguetuiBinary(t)
	if _, err := exec.LookPath("tmux"); err != nil {
		leaguetest.SkipWithout(t, "tmux is not installed: the console's real-terminal test needs it")
	}
	dir := t.TempDir()
	roster := filepath.Join(dir, "roster.json")
	names := []string{"alice", "bob", "carol"}
	if err := os.WriteFile(roster, []byte(`{"players": [{"name": "alice", "strategy": "random"},
		{"name": "bob", "strategy": "frequency"}, {"name": "carol", "strategy": "pattern"}]}`), 0o600); err != nil {
		t.Fatal(err)
	}
	x := leaguetest.NewTmux(t, 120, 40, fmt.Sprintf("exec %s --free-ports --data %s --roster %s --referees 1 --seed 3",
		bin, filepath.Join(dir, "data"), roster))
	inStandings := func(screen string) {
		t.Helper()
		for _, name := range names {
			line := screenLine(screen, " "+name+" ")
			// The standings are the left pane until the split's separator.
			left, _, _ := strings.Cut(line, "│")
			if !strings.Contains(left, " "+name+" ") {
				t.Errorf("%s is not in the standings pane:\n%s", name, screen)
			}
		}
	}
	x.Keys("3")
	inStandings(x.WaitSettledScreen(90*time.Second, append([]string{"press s to start", "━ Standings (focus)"}, names...)...))
	x.Keys("s")
	inStandings(x.WaitSettledScreen(90*time.Second, append([]string{"✓ completed", "━ Standings (focus)"}, names...)...))
	x.Keys("q")
}
