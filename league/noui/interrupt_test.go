package noui_test

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/leaguetui/leaguetui/internal/leaguetest"
)

// TestInterruptDrainsAndResumes presses Ctrl-C (SIGINT) once in the middle
// of a `leaguetui --no-ui` league: no new match starts, the running ones
// finish, leaguetui exits with status 130 and says how to resume. Run
// again on the same data folder, it resumes and completes the league with
// the same players, every match played once.
func TestInterruptDrainsAndResumes(t *testing.T) {
	t.Parallel()
	const players = 12
	dir := t.TempDir()
	args := []string{"--no-ui", "--free-ports", "--data", dir, "--seed", "21",
		"--players", fmt.Sprint(players), "--referees", "2"}

	first := startHeadless(t, args...)
	first.waitForLine(t, "[10/")
	if err := first.cmd.Process.Signal(syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	status, stderr := first.wait(t)
	if status != 130 {
		t.Fatalf("exit status %d after Ctrl-C, want 130\n%s", status, stderr)
	}
	resume := "resume with: leaguetui --no-ui --data " + dir + " --free-ports"
	lines := strings.Split(strings.TrimSpace(stderr), "\n")
	if last := lines[len(lines)-1]; !strings.Contains(last, "league paused at") || !strings.HasSuffix(last, resume) {
		t.Errorf("last line %q, want it to say the league paused and %q", last, resume)
	}
	assertNoAgentLeft(t, dir)

	// Drained: the league is paused short of the end, nothing was handed
	// to a referee after the pause, and every match handed out before it
	// has its result in the journal.
	assigned, reported := map[string]bool{}, map[string]int{}
	paused, assignedAfterPause := false, 0
	for _, ev := range readJournal(t, dir) {
		switch ev.Kind {
		case "paused":
			paused = true
		case "resumed":
			paused = false
		case "match_assigned":
			assigned[ev.MatchID] = true
			if paused {
				assignedAfterPause++
			}
		case "match_result":
			reported[ev.MatchID]++
		}
	}
	for id := range assigned {
		if reported[id] != 1 {
			t.Errorf("%s was handed to a referee but has %d results after the drain, want 1", id, reported[id])
		}
	}
	if total := players * (players - 1) / 2; !paused || assignedAfterPause > 0 || len(reported) == 0 || len(reported) >= total {
		t.Fatalf("after the drain: paused %v, %d matches handed out after the pause, %d of %d reported; want paused, none, some but not all",
			paused, assignedAfterPause, len(reported), total)
	}

	// Resumed with the same command, no --seed: the journal's league goes on.
	second := startHeadless(t, "--no-ui", "--free-ports", "--data", dir)
	status, stderr = second.wait(t)
	if status != 0 {
		t.Fatalf("resumed run: exit status %d\n%s", status, stderr)
	}
	wantResume := fmt.Sprintf("leaguetui: resuming league %s (seed 21) from its journal: %d of %d matches done",
		leagueID, len(reported), players*(players-1)/2)
	if !strings.Contains(stderr, wantResume) {
		t.Errorf("resumed run does not say %q:\n%s", wantResume, stderr)
	}
	resumed := checkLeagueFiles(t, dir, players)
	// Players restarted with their histories choose as if never stopped:
	// the league ends as an uninterrupted run of the same seed.
	whole := checkLeagueFiles(t, runHeadless(t, players, 2, 21).dataDir, players)
	if !slices.Equal(resumed.standings.Standings, whole.standings.Standings) {
		t.Errorf("standings after the resume differ from an uninterrupted run's:\n got %+v\nwant %+v",
			resumed.standings.Standings, whole.standings.Standings)
	}
	var info struct {
		Players []struct {
			ID string `json:"id"`
		} `json:"players"`
	}
	readJSON(t, filepath.Join(dir, "leagues", leagueID, "league.json"), &info)
	if len(info.Players) != players {
		t.Errorf("league.json lists %d players after the resume, want the same %d", len(info.Players), players)
	}
	assertNoAgentLeft(t, dir)
}

// headlessProcess is a `leaguetui --no-ui` run whose stderr is read line
// by line as it comes.
type headlessProcess struct {
	cmd    *exec.Cmd
	lines  chan string
	stderr strings.Builder // every line, once wait returns
	stdout strings.Builder // once wait returns
	done   chan struct{}
}

func startHeadless(t *testing.T, args ...string) *headlessProcess {
	t.Helper()
	cmd := exec.Command(leaguetest.Binary(t), args...)
	cmd.Env = append(os.Environ(), leaguetest.ChildEnv()...)
	p := &headlessProcess{cmd: cmd, lines: make(chan string, 1024), done: make(chan struct{})}
	cmd.Stdout = &p.stdout
	pipe, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() {
		defer close(p.done)
		scanner := bufio.NewScanner(pipe)
		for scanner.Scan() {
			p.stderr.WriteString(scanner.Text() + "\n")
			select {
			case p.lines <- scanner.Text():
			default: // nobody waits for lines any more
			}
		}
	}()
	t.Cleanup(func() {
		if p.cmd.ProcessState == nil {
			_ = p.cmd.Process.Kill()
			_ = p.cmd.Wait()
		}
	})
	return p
}

// waitForLine reads stderr until a line starts with prefix.
func (p *headlessProcess) waitForLine(t *testing.T, prefix string) {
	t.Helper()
	deadline := time.After(runTimeout)
	for {
		select {
		case line := <-p.lines:
			if strings.HasPrefix(line, prefix) {
				return
			}
		case <-p.done:
			t.Fatalf("leaguetui ended before printing %q", prefix)
		case <-deadline:
			t.Fatalf("no line %q within %s", prefix, runTimeout)
		}
	}
}

// wait waits for the process to exit and returns its status and stderr.
func (p *headlessProcess) wait(t *testing.T) (int, string) {
	t.Helper()
	exited := make(chan error, 1)
	go func() { <-p.done; exited <- p.cmd.Wait() }()
	select {
	case err := <-exited:
		var exit *exec.ExitError
		if err != nil && !errors.As(err, &exit) {
			t.Fatal(err)
		}
		return p.cmd.ProcessState.ExitCode(), p.stderr.String()
	case <-time.After(runTimeout):
		_ = p.cmd.Process.Kill()
		t.Fatalf("leaguetui did not exit within %s", runTimeout)
		return 0, ""
	}
}

// assertNoAgentLeft checks that no agent of the data folder still runs.
func assertNoAgentLeft(t *testing.T, dir string) {
	t.Helper()
	left, err := leaguetest.ProcessesMentioning(dir)
	if err != nil {
		t.Fatal(err)
	}
	for pid, line := range left {
		t.Errorf("process %d still runs after leaguetui exited: %s", pid, line)
		_ = leaguetest.SignalPID(pid, syscall.SIGKILL)
	}
}

// readJournal reads the league's journal, one event a line.
func readJournal(t *testing.T, dir string) []journalEvent {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(dir, "leagues", leagueID, "journal.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	var events []journalEvent
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		var ev journalEvent
		if err := json.Unmarshal([]byte(line), &ev); err != nil {
			t.Fatalf("journal line %q: %v", line, err)
		}
		events = append(events, ev)
	}
	return events
}
