package noui_test

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/leaguetui/leaguetui/engine"
	"github.com/leaguetui/leaguetui/internal/leaguetest"
)

// exitWithin waits at most bound for the run to exit and returns its
// status and stderr; a run still going then fails the test.
func (p *headlessProcess) exitWithin(t *testing.T, bound time.Duration) (int, string) {
	t.Helper()
	select {
	case <-p.done:
	case <-time.After(bound):
		_ = p.cmd.Process.Kill()
		t.Fatalf("leaguetui did not exit within %s:\n%s", bound, p.stderr.String())
	}
	return p.wait(t)
}

// awaitCompletedInJournal polls the journal, every millisecond, until it
// holds league_completed; the run may end meanwhile.
func awaitCompletedInJournal(t *testing.T, dir string) {
	t.Helper()
	tick := time.NewTicker(time.Millisecond)
	defer tick.Stop()
	deadline := time.After(runTimeout)
	for {
		if events := journalEvents(t, dir); len(events) > 0 && events[len(events)-1].Kind == engine.EventLeagueCompleted {
			return
		}
		select {
		case <-tick.C:
		case <-deadline:
			t.Fatalf("the journal took no league_completed within %s", runTimeout)
		}
	}
}

// TestManagerKilledAsLeagueCompletes: the manager killed (SIGKILL) as
// soon as its journal takes league_completed, before or after it wrote
// the final standings.json. leaguetui exits 0 only with a standings.json
// that says completed and holds the standings it printed; otherwise it
// fails saying how to get them.
func TestManagerKilledAsLeagueCompletes(t *testing.T) {
	t.Parallel()
	if !leaguetest.HaveProc() {
		t.Skip("needs Linux /proc to find the manager")
	}
	for trial := range 3 {
		dir := t.TempDir()
		run := startHeadless(t, leaguetest.Args("--no-ui", "--free-ports", "--data", dir, "--seed", 40+trial, "--players", 3)...)
		run.waitForLine(t, "league started")
		manager := managerOf(t, run)
		awaitCompletedInJournal(t, dir)
		_ = leaguetest.SignalPID(manager, syscall.SIGKILL) // it may have exited already, the run with it: that is a trial too
		status, stderr := run.wait(t)
		t.Logf("trial %d: exit status %d; standings.json written by leaguetui: %v", trial, status,
			strings.Contains(stderr, "written from the standings it served"))
		if status != 0 {
			if !strings.Contains(stderr, "leaguetui --no-ui --data "+dir) {
				t.Errorf("trial %d: exit status %d without the command that gets the standings:\n%s", trial, status, stderr)
			}
			continue
		}
		var standings standingsFile
		readJSON(t, filepath.Join(dir, "leagues", leagueID, "standings.json"), &standings)
		if standings.State != "completed" {
			t.Errorf("trial %d: exit status 0, but standings.json says %s:\n%s", trial, standings.State, stderr)
		}
		checkPrintsStandings(t, run.stdout.String(), standings, false)
	}
}

// TestNoExitZeroOverAStaleStandingsFile: when neither the manager nor
// leaguetui can write the final standings.json (the path is a folder),
// the completed league's run fails saying so, rather than exit 0.
func TestNoExitZeroOverAStaleStandingsFile(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	blocked := filepath.Join(dir, "leagues", leagueID, "standings.json")
	if err := os.MkdirAll(filepath.Join(blocked, "in-the-way"), 0o755); err != nil {
		t.Fatal(err)
	}
	run := startHeadless(t, leaguetest.Args("--no-ui", "--free-ports", "--data", dir, "--seed", 3, "--players", 2)...)
	status, stderr := run.wait(t)
	if want := "the league completed, but its manager did not write the final " + blocked + ", and neither could leaguetui"; status != 1 ||
		!strings.Contains(stderr, want) {
		t.Errorf("exit status %d, want 1 and %q:\n%s", status, want, stderr)
	}
}

// TestManagerDeathDuringResumeIsSaidAtOnce: when the manager dies while a
// resumed league's agents register again, leaguetui says so as soon as
// it exits, rather than after each agent's registration time (30 s).
func TestManagerDeathDuringResumeIsSaidAtOnce(t *testing.T) {
	t.Parallel()
	if !leaguetest.HaveProc() {
		t.Skip("needs Linux /proc to find the manager")
	}
	dir := t.TempDir()
	args := leaguetest.Args("--no-ui", "--free-ports", "--data", dir, "--seed", 17, "--players", 8, "--referees", 2)
	first := startHeadless(t, args...)
	first.waitForLine(t, "[2/")
	first.killRun(t)
	before := registrations(journalEvents(t, dir))

	resumed := startHeadless(t, "--no-ui", "--free-ports", "--data", dir)
	resumed.awaitJournal(t, dir, func(events []engine.Event) bool { return registrations(events) > before })
	manager := managerOf(t, resumed)
	if err := leaguetest.SignalPID(manager, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	// The agents starting then would each wait up to 30 s for a
	// registration that cannot come; a bound well under that.
	status, stderr := resumed.exitWithin(t, 20*time.Second)
	said := regexp.MustCompile(fmt.Sprintf(`the manager \(PID %d\) exited \(signal: killed\); league at \d+ of \d+ matches, state saved; resume with: `,
		manager))
	if status != 1 || !said.MatchString(stderr) {
		t.Errorf("exit status %d, want 1 and the manager's exit with the resume command:\n%s", status, stderr)
	}
	assertNoAgentLeft(t, dir)
}
