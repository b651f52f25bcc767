package noui_test

import (
	"errors"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/leaguetui/leaguetui/internal/leaguetest"
)

// TestReopenedDataFolder (issue 14, item 2; issue 24, item 4): run again
// on a data folder that holds a completed league, leaguetui --no-ui names
// that league (its state, game, size and the seed it has, not a new one),
// refuses flags that disagree with it and says the two ways on (nothing on
// stdout; exit status 2, before anything starts, for a flag the folder
// remembers and for a seed that is not the league's: issue 49, item 6);
// run as it is, it says on
// stderr that the league was completed before this run, prints its final
// standings and exits 0.
func TestReopenedDataFolder(t *testing.T) {
	first := runHeadless(t, 2, 1, 5)
	dir := first.dataDir
	described := dir + " holds league " + leagueID + ": completed, even_odd, 2 players, seed 5, 1 of 1 matches played"
	tests := []struct {
		name string
		args []string
		want []string
		ok   bool // the league's standings on stdout, exit status 0
		// status is the exit status when not ok
		status int
	}{
		{"more players", []string{"--players", "16"}, []string{dir + " holds a league started otherwise",
			"--players 16 (it was started with --players 2)", "leave it out to resume that league", "another --data folder"}, false, 2},
		{"another seed", []string{"--seed", "9"}, []string{described, "--seed 9 (its seed is 5)", "leave out --seed 9", "--data NEW_FOLDER --seed 9"}, false, 2},
		{"as it is", nil, []string{described, "completed before this run", "standings.json", "another --data folder"}, true, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out := leaguetest.RunLeaguetui(t, dir, runTimeout, nil,
				append(leaguetest.Args("--no-ui", "--free-ports", "--data", dir), tt.args...)...)
			var exit *exec.ExitError
			switch {
			case tt.ok && out.Err != nil:
				t.Errorf("exit %v, want status 0", out.Err)
			case tt.ok:
				var standings standingsFile
				readJSON(t, filepath.Join(dir, "leagues", leagueID, "standings.json"), &standings)
				checkPrintsStandings(t, out.Stdout, standings, false)
			case !errors.As(out.Err, &exit) || exit.ExitCode() != tt.status:
				t.Errorf("exit %v, want status %d", out.Err, tt.status)
			case out.Stdout != "":
				t.Errorf("stdout holds a result:\n%s", out.Stdout)
			}
			for _, w := range tt.want {
				if !strings.Contains(out.Stderr, w) {
					t.Errorf("stderr lacks %q:\n%s", w, out.Stderr)
				}
			}
			if strings.Contains(out.Stderr, "repeat this league") {
				t.Errorf("a new seed was printed for the old league:\n%s", out.Stderr)
			}
		})
	}
}
