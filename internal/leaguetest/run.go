package leaguetest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/leaguetui/leaguetui/agents/protocol"
)

// Run is a run of the leaguetui binary that has exited.
type Run struct {
	Stdout, Stderr string
	Err            error // from Wait: nil for exit status 0
}

// RunLeaguetui runs the leaguetui binary with args (its agents get
// ChildEnv) until it exits, calling observe with its PID every 2 ms
// meanwhile: to look at its children or its environment, never to wait
// for something. Past timeout it kills the run and its agents (the
// processes that mention dataDir, by PID) and fails the test.
func RunLeaguetui(t testing.TB, dataDir string, timeout time.Duration, observe func(pid int), args ...string) Run {
	t.Helper()
	return RunBinary(t, Binary(t), dataDir, timeout, observe, args...)
}

// RunBinary is RunLeaguetui for another build of leaguetui, such as one of
// BinaryWithGames.
func RunBinary(t testing.TB, exe, dataDir string, timeout time.Duration, observe func(pid int), args ...string) Run {
	t.Helper()
	cmd := exec.Command(exe, args...)
	cmd.Env = append(os.Environ(), ChildEnv()...) // leaguetui passes it on to its agents
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	watch := time.NewTicker(2 * time.Millisecond)
	defer watch.Stop()
	deadline := time.After(timeout)
	for {
		select {
		case err := <-exited:
			return Run{Stdout: stdout.String(), Stderr: stderr.String(), Err: err}
		case <-deadline:
			_ = cmd.Process.Kill()
			<-exited
			KillLeftovers(t, dataDir)
			t.Fatalf("leaguetui %v did not finish within %s\nstderr:\n%s", args, timeout, stderr.String())
		case <-watch.C:
			if observe != nil {
				observe(cmd.Process.Pid)
			}
		}
	}
}

// KillLeftovers ends the agents a failed run left behind: the processes
// started with its data folder, by PID.
func KillLeftovers(t testing.TB, dataDir string) {
	left, _ := ProcessesMentioning(dataDir)
	for pid := range left {
		_ = SignalPID(pid, syscall.SIGKILL)
		t.Logf("killed left-over process %d", pid)
	}
}

// Args formats numbers for a command line.
func Args(values ...any) []string {
	out := make([]string, len(values))
	for i, v := range values {
		out[i] = fmt.Sprint(v)
	}
	return out
}

// ReadMatchFiles decodes every match file of league leagueID in the data
// folder dir, in file-name order.
func ReadMatchFiles[T any](t testing.TB, dir, leagueID string) []T {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "matches", leagueID, "*.json"))
	if err != nil {
		t.Fatal(err)
	}
	out := make([]T, len(files))
	for i, f := range files {
		ReadJSON(t, f, &out[i])
	}
	return out
}

// ReadJSON decodes the JSON file at path into into, failing the test if it
// cannot.
func ReadJSON(t testing.TB, path string, into any) {
	t.Helper()
	raw, err := os.ReadFile(path)
	if err == nil {
		err = json.Unmarshal(raw, into)
	}
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
}

// MatchFile is a referee's match file as tests read it: R is the result as
// the game under test has it (MatchResult beside the game's own fields).
type MatchFile[R any] struct {
	protocol.MatchFile
	Result R `json:"result"`
}

// GameError is one error of the seed's taxonomy a game recorded in a match
// file's result ("errors"), with the side ("A", "B") it is about.
type GameError struct {
	ErrorType string         `json:"error_type"`
	Player    string         `json:"player"`
	Metadata  map[string]any `json:"metadata"`
}

// CheckStandings fails the test unless standings.json of the league says
// it completed and gives every player of results the points their scores
// add up to.
func CheckStandings(t testing.TB, dir, leagueID string, results []MatchResult) {
	t.Helper()
	points := map[string]int{}
	for _, r := range results {
		for id, p := range r.Score {
			points[id] += p
		}
	}
	var standings protocol.StandingsFile
	ReadJSON(t, filepath.Join(dir, "leagues", leagueID, "standings.json"), &standings)
	if standings.State != "completed" || len(standings.Standings) != len(points) {
		t.Errorf("standings: state %q, %d rows for %d players", standings.State, len(standings.Standings), len(points))
	}
	for _, row := range standings.Standings {
		if row.Points != points[row.PlayerID] {
			t.Errorf("%s: %d points in the standings, %d in the match files", row.PlayerID, row.Points, points[row.PlayerID])
		}
	}
}

// MatchResult is the part of a match file's result every game has.
type MatchResult struct {
	Status string         `json:"status"`
	Winner *string        `json:"winner_player_id"`
	Score  map[string]int `json:"score"`
}

// WriteRoster writes a roster of players (each entry as docs/roster.md
// gives it) into a file of its own and returns its path.
func WriteRoster(t testing.TB, players ...map[string]any) string {
	t.Helper()
	return WriteJSON(t, map[string]any{"players": players})
}

// WriteJSON writes v as JSON into a file of its own, roster.json in a
// temporary folder, and returns its path.
func WriteJSON(t testing.TB, v any) string {
	t.Helper()
	data, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "roster.json")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}
