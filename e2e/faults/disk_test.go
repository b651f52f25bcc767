//go:build linux

package faults_test

import (
	"context"
	"encoding/json"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/leaguetui/leaguetui/agents/store"
	"github.com/leaguetui/leaguetui/engine"
	"github.com/leaguetui/leaguetui/internal/leaguetest"
	"github.com/leaguetui/leaguetui/league/control"
)

// TestJournalWriteFailurePausesLeague makes the disk refuse writes in the
// middle of a league: the file-size limit of the manager's process is
// lowered to its journal's size, so the next append fails as on a full
// disk, and a referee and a player can write no file at all. The league
// pauses and says which path failed and that nothing acknowledged is lost,
// no result is taken that was not saved, and a resume is refused. With the
// disk fixed and the manager restarted, the league completes exactly as an
// uninterrupted run: the standings and every derived file (rounds.json,
// match files, histories) are the same, and no log line was cut.
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
	full := []int{l.referees[0].PID(), l.players[0].PID()}
	for _, pid := range full {
		setFileSizeLimit(t, pid, 1)
	}

	failure := awaitStorageFailure(t, l.ctl, cursor)
	if !strings.Contains(failure, "file too large") || !strings.Contains(failure, layout.Journal()) ||
		!strings.Contains(failure, "nothing acknowledged is lost") {
		t.Errorf("the failure says %q; want the write error, the journal's path and that nothing acknowledged is lost", failure)
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
	for _, pid := range append(full, l.manager.PID()) {
		setFileSizeLimit(t, pid, unix.RLIM_INFINITY)
	}
	l.manager.Kill()
	l.manager = l.startManager(t)
	compareOutcomes(t, l.outcome(t, results(finishFeed(t, l.ctl, 0))), want)
	checkWholeLogLines(t, l.dir)
}

// checkWholeLogLines checks that every line of every JSON-lines log is
// whole: a write the disk took only in part was cut away.
func checkWholeLogLines(t *testing.T, dir string) {
	t.Helper()
	_ = filepath.WalkDir(filepath.Join(dir, "logs"), func(path string, d fs.DirEntry, err error) error {
		if err != nil || !strings.HasSuffix(path, ".jsonl") {
			return err
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		if len(data) > 0 && data[len(data)-1] != '\n' {
			t.Errorf("%s ends in the middle of a line", path)
		}
		for i, line := range strings.Split(strings.TrimSuffix(string(data), "\n"), "\n") {
			if line != "" && !json.Valid([]byte(line)) {
				t.Errorf("%s line %d is cut: %q", path, i+1, line)
			}
		}
		return nil
	})
}

// awaitStorageFailure reads the feed until a page says the journal could
// not be written, and returns what it says. Every event served before is
// journaled, and none is a storage failure: that has no sequence number.
func awaitStorageFailure(t *testing.T, ctl *control.Client, cursor int64) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), leagueTimeout)
	defer cancel()
	for {
		page, err := ctl.Events(ctx, cursor, 5*time.Second)
		if err != nil {
			t.Fatalf("waiting for the storage failure on the feed: %v", err)
		}
		for _, ev := range page.Events {
			if ev.Kind == engine.EventLeagueCompleted {
				t.Fatalf("the league completed although its journal could not grow")
			}
		}
		if page.StorageFailure != "" {
			if page.State != engine.LeaguePaused {
				t.Errorf("feed state %s with a storage failure, want paused", page.State)
			}
			return page.StorageFailure
		}
		cursor = page.LastSeq
	}
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
