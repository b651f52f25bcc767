package main_test

import (
	"errors"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/leaguetui/leaguetui/internal/leaguetest"
)

// TestDataFolderDisagreementExits2 (issue 49, item 6): every flag that
// disagrees with the league a data folder holds is refused before
// anything starts, headless or in the console, with exit status 2 (a bad
// setting, as docs/running.md has it) and one line that names the league
// and says what to do: --seed as well as --players, whether the folder
// remembers how its league was started or (an older folder) not. The
// folder is left as it was.
func TestDataFolderDisagreementExits2(t *testing.T) {
	dir := t.TempDir()
	first := leaguetest.RunLeaguetui(t, dir, time.Minute, nil, "--no-ui", "--free-ports", "--data", dir,
		"--seed", "5", "--players", "2", "--referees", "1")
	if first.Err != nil {
		t.Fatalf("the first league: %v\n%s", first.Err, first.Stderr)
	}
	described := dir + " holds league league_2025_even_odd: completed, even_odd, 2 players, seed 5, 1 of 1 matches played"
	check := func(t *testing.T, args []string, want ...string) {
		t.Helper()
		before := leaguetest.FolderState(t, dir)
		r := leaguetest.RunLeaguetui(t, dir, time.Minute, nil, append([]string{"--free-ports", "--data", dir}, args...)...)
		var exit *exec.ExitError
		if !errors.As(r.Err, &exit) || exit.ExitCode() != 2 {
			t.Errorf("%v: exit %v, want status 2\nstderr:\n%s", args, r.Err, r.Stderr)
		}
		if r.Stdout != "" || strings.Count(r.Stderr, "\n") != 1 {
			t.Errorf("%v: want nothing on stdout and one line on stderr; stdout %q, stderr:\n%s", args, r.Stdout, r.Stderr)
		}
		for _, w := range want {
			if !strings.Contains(r.Stderr, w) {
				t.Errorf("%v: stderr lacks %q:\n%s", args, w, r.Stderr)
			}
		}
		if !maps.Equal(before, leaguetest.FolderState(t, dir)) {
			t.Errorf("%v: the data folder was written", args)
		}
	}
	seed := []string{described, "--seed 9 (its seed is 5) disagrees", "leave out --seed 9", "--data NEW_FOLDER --seed 9"}
	t.Run("seed", func(t *testing.T) { check(t, []string{"--no-ui", "--seed", "9"}, seed...) })
	t.Run("seed in the console", func(t *testing.T) { check(t, []string{"--seed", "9"}, seed...) })
	t.Run("players", func(t *testing.T) {
		check(t, []string{"--no-ui", "--players", "3"}, "holds a league started otherwise", "--players 3 (it was started with --players 2)",
			"leave it out to resume that league", "another --data folder")
	})
	// A folder of a leaguetui that did not remember the flags: the
	// journal's league says the same.
	if err := os.Remove(filepath.Join(dir, "league-start.json")); err != nil {
		t.Fatal(err)
	}
	t.Run("players, older folder", func(t *testing.T) {
		check(t, []string{"--no-ui", "--players", "3"}, described, "--players 3 (it has 2) disagrees", "leave out --players 3",
			"--data NEW_FOLDER --players 3")
	})
	t.Run("seed and players, older folder", func(t *testing.T) {
		check(t, []string{"--no-ui", "--players", "3", "--seed", "9"}, described, "--players 3 (it has 2) and --seed 9 (its seed is 5) disagree",
			"leave out --players 3 --seed 9")
	})
}
