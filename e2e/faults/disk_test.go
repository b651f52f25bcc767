package faults_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/sys/unix"

	"github.com/leaguetui/leaguetui/agents/store"
	"github.com/leaguetui/leaguetui/engine"
	"github.com/leaguetui/leaguetui/internal/leaguetest"
)

// TestJournalWriteFailurePausesLeague makes the manager's disk refuse
// writes in the middle of a league: the file-size limit of the manager's
// process is lowered to its journal's size, so the next append fails as on
// a full disk. The league pauses and says why, no result is taken that was
// not saved, and a resume is refused. With the disk fixed and the manager
// restarted, the league completes exactly as an uninterrupted run.
func TestJournalWriteFailurePausesLeague(t *testing.T) {
	t.Parallel()
	want := uninterrupted(t)

	l := startCrashLeague(t)
	_, _, cursor := l.inFlight(t, 0, "", 3)
	layout := store.Layout{Root: l.dir, LeagueID: leagueID}
	info, err := os.Stat(layout.Journal())
	if err != nil {
		t.Fatal(err)
	}
	setFileSizeLimit(t, l.manager.PID(), uint64(info.Size()))

	events, _ := leaguetest.NextEvents(t, l.ctl, cursor, leagueTimeout, engine.EventStorageFailed, engine.EventLeagueCompleted)
	failure := events[len(events)-1]
	if failure.Kind != engine.EventStorageFailed {
		t.Fatalf("the league completed although its journal could not grow")
	}
	if !strings.Contains(failure.Detail, "file too large") || !strings.Contains(failure.Detail, layout.LeagueDir()) {
		t.Errorf("the failure says %q; want the write error and the folder", failure.Detail)
	}
	standings, err := l.ctl.Standings(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if standings.State != engine.LeaguePaused {
		t.Errorf("league state %s after the journal failed, want paused", standings.State)
	}
	if err := l.ctl.Resume(context.Background()); err == nil {
		t.Errorf("the league resumed although its journal cannot be written")
	}

	// The disk is fixed; the manager restarts and resumes from its journal.
	setFileSizeLimit(t, l.manager.PID(), unix.RLIM_INFINITY)
	l.manager.Kill()
	l.manager = l.startManager(t)
	compareOutcomes(t, l.outcome(t, results(finishFeed(t, l.ctl, 0))), want)
}

// setFileSizeLimit sets the soft RLIMIT_FSIZE of process pid: a write that
// would make a file longer fails with EFBIG.
func setFileSizeLimit(t *testing.T, pid int, limit uint64) {
	t.Helper()
	rlimit := unix.Rlimit{Cur: limit, Max: unix.RLIM_INFINITY}
	if err := unix.Prlimit(pid, unix.RLIMIT_FSIZE, &rlimit, nil); err != nil {
		t.Fatalf("prlimit: %v", err)
	}
}

// TestUnusableDataFolder: an agent, and a whole league, given a data folder
// that cannot be written say so at start and exit with status 1.
func TestUnusableDataFolder(t *testing.T) {
	t.Parallel()
	notAFolder := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(notAFolder, []byte("not a folder\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	data := filepath.Join(notAFolder, "data")
	for name, args := range map[string][]string{
		"manager": {"manager", "--port", "0", "--data", data},
		"league":  {"--no-ui", "--free-ports", "--data", data},
	} {
		t.Run(name, func(t *testing.T) {
			cmd := exec.Command(leaguetest.Binary(t), args...)
			cmd.Env = append(os.Environ(), "LEAGUETUI_ADMIN_TOKEN="+adminToken)
			out, err := cmd.CombinedOutput()
			if cmd.ProcessState == nil || cmd.ProcessState.ExitCode() != 1 {
				t.Fatalf("exit %v, want status 1\n%s", err, out)
			}
			if !strings.Contains(string(out), "is not writable") || !strings.Contains(string(out), notAFolder) {
				t.Errorf("output %q does not say the data folder is not writable", out)
			}
		})
	}
}
