package season_test

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/leaguetui/leaguetui/league/season"
)

// The kill test runs this test binary as a child that adds a league to a
// season (childEnv names the season folder and the data folder), and kills
// it with SIGKILL: either at a named step of the add, where the child says
// so and waits (stepEnv), or after a delay, anywhere in it.
const (
	childEnv = "LEAGUETUI_SEASON_TEST_ADD"
	dataEnv  = "LEAGUETUI_SEASON_TEST_DATA"
	stepEnv  = "LEAGUETUI_SEASON_TEST_STEP"
)

// addAsChild is the child's whole life: one add, then exit.
func addAsChild() {
	seasonDir, dataDir := os.Getenv(childEnv), os.Getenv(dataEnv)
	if step := os.Getenv(stepEnv); step != "" {
		season.PauseAt(step, func() {
			fmt.Println("at", step)
			select {} // until killed
		})
	}
	if _, err := season.Add(seasonDir, dataDir, "", nil, nil); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	fmt.Println("added")
	os.Exit(0)
}

// startChild starts a child adding the league.
func startChild(t *testing.T, seasonDir, dataDir, step string) (*exec.Cmd, *bufio.Reader) {
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), childEnv+"="+seasonDir, dataEnv+"="+dataDir, stepEnv+"="+step)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	return cmd, bufio.NewReader(out)
}

// checkWhole checks a season after a kill: it reads, and holds the league
// wholly (then exactly as a full add writes it) or not at all.
func checkWhole(t *testing.T, seasonDir string, whole *season.LeagueFile, where string) int {
	t.Helper()
	s, err := season.Read(seasonDir)
	if err != nil {
		t.Fatalf("%s: the season does not read: %v", where, err)
	}
	switch {
	case len(s.Leagues) > 1:
		t.Fatalf("%s: the season holds %d leagues", where, len(s.Leagues))
	case len(s.Leagues) == 1 && fmt.Sprint(s.Leagues[0]) != fmt.Sprint(*whole):
		t.Fatalf("%s: the season holds part of the league: %+v", where, s.Leagues[0])
	}
	return len(s.Leagues)
}

func TestKillWhileAddingLeavesTheLeagueWhollyInOrOut(t *testing.T) {
	l := playLeague(t, "", 5, "ann", "bob", "cat")
	// The league as a full add keeps it, and how long an add takes.
	reference := filepath.Join(t.TempDir(), "season")
	began := time.Now()
	cmd, out := startChild(t, reference, l.dataDir, "")
	if line, _ := out.ReadString('\n'); line != "added\n" {
		t.Fatalf("the child said %q", line)
	}
	cmd.Wait()
	took := time.Since(began)
	ref, err := season.Read(reference)
	if err != nil || len(ref.Leagues) != 1 {
		t.Fatalf("reference add: %v", err)
	}
	whole := &ref.Leagues[0]

	in, outCount := 0, 0
	kill := func(where string, cmd *exec.Cmd, seasonDir string) {
		_ = cmd.Process.Signal(syscall.SIGKILL)
		cmd.Wait()
		if checkWhole(t, seasonDir, whole, where) == 1 {
			in++
		} else {
			outCount++
		}
		// Adding again (the same command run again) adds it once.
		for range 2 {
			if _, err := season.Add(seasonDir, l.dataDir, "", nil, nil); err != nil {
				t.Fatalf("%s: adding again: %v", where, err)
			}
		}
		if checkWhole(t, seasonDir, whole, where+", then added again") != 1 {
			t.Fatalf("%s: adding again did not add the league", where)
		}
		entries, _ := os.ReadDir(filepath.Join(seasonDir, "leagues"))
		if len(entries) != 1 {
			t.Errorf("%s: the leagues folder holds %d files after adding again", where, len(entries))
		}
	}
	// At each step of the add.
	for _, step := range season.Steps() {
		seasonDir := filepath.Join(t.TempDir(), "season")
		cmd, out := startChild(t, seasonDir, l.dataDir, step)
		if line, _ := out.ReadString('\n'); line != "at "+step+"\n" {
			t.Fatalf("the child said %q, not that it is at %s", line, step)
		}
		kill("killed at "+step, cmd, seasonDir)
	}
	// And at 40 moments spread over an add's time, wherever they fall
	// (in the middle of the league file's write among them).
	for i := range 40 {
		seasonDir := filepath.Join(t.TempDir(), "season")
		cmd, _ := startChild(t, seasonDir, l.dataDir, "")
		timer := time.AfterFunc(took*time.Duration(i)/40, func() { _ = cmd.Process.Signal(syscall.SIGKILL) })
		cmd.Wait()
		timer.Stop()
		kill(fmt.Sprintf("killed after %v", took*time.Duration(i)/40), cmd, seasonDir)
	}
	t.Logf("after a kill the season held the league %d times and lacked it %d times; each added once after", in, outCount)
	if in == 0 || outCount == 0 {
		t.Errorf("no kill fell before the league was in (%d) or none after (%d)", outCount, in)
	}
}
