package gameprog

import (
	"bytes"
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

	"github.com/leaguetui/leaguetui/agents/protocol"
	"github.com/leaguetui/leaguetui/config"
	"github.com/leaguetui/leaguetui/internal/leaguetest"
)

// TestKilledGameProgramLeagueResumes: leaguetui killed with SIGKILL in the
// middle of a league of a game program (tic-tac-toe in Python), and run
// again with the command it prints for a resume (no --game: the data
// folder knows its game), ends with the standings and the match results of
// an uninterrupted run of the same seed; no agent and no game program
// outlives the kill.
func TestKilledGameProgramLeagueResumes(t *testing.T) {
	needPython(t)
	if !leaguetest.HaveProc() {
		t.Skip("needs Linux /proc to see the agents die")
	}
	game := example(t, "tic_tac_toe.json")
	leagueID := config.LeagueIDFor("tic_tac_toe")
	dir := t.TempDir()
	var agents []int
	killed := leaguetest.RunLeaguetui(t, dir, leagueTimeout, func(pid int) {
		if agents != nil || leaguetest.JournaledResults(dir, leagueID) < 2 {
			return
		}
		// While a match is played: a game program is running.
		if under := leaguetest.Descendants(pid); slices.ContainsFunc(under, isGameProgram) {
			agents = under
			_ = leaguetest.SignalPID(pid, syscall.SIGKILL)
		}
	}, "--no-ui", "--free-ports", "--players", "4", "--referees", "2", "--data", dir, "--game", game, "--seed", "5")
	var exit *exec.ExitError
	if !errors.As(killed.Err, &exit) || agents == nil {
		t.Fatalf("the first run was not killed mid-league (%v):\n%s", killed.Err, killed.Stderr)
	}
	for _, pid := range agents {
		awaitGone(t, pid)
	}
	if got := leaguetest.JournaledResults(dir, leagueID); got >= 6 {
		t.Fatalf("the kill came after the league's %d results: nothing was left to resume", got)
	} else {
		t.Logf("killed with %d of 6 results journaled; %d processes under leaguetui", got, len(agents))
	}

	began := time.Now()
	resumed := leaguetest.RunLeaguetui(t, dir, leagueTimeout, nil, "--no-ui", "--data", dir, "--free-ports")
	if resumed.Err != nil {
		t.Fatalf("the resume failed: %v\n%s", resumed.Err, resumed.Stderr)
	}
	t.Logf("the resume took %s", time.Since(began))
	wantDir, _ := runLeague(t, "--game", game, "--seed", "5")
	if got, want := standingsOf(t, dir, leagueID), standingsOf(t, wantDir, leagueID); got != want {
		t.Errorf("standings after the resume\n%s\nuninterrupted\n%s", got, want)
	}
	if got, want := resultsOf(t, dir, leagueID), resultsOf(t, wantDir, leagueID); got != want {
		t.Errorf("results after the resume\n%s\nuninterrupted\n%s", got, want)
	}
}

func isGameProgram(pid int) bool {
	return strings.Contains(leaguetest.CommandLine(pid), "tic_tac_toe.py")
}

// awaitGone waits until process pid has exited, as the agents of a killed
// leaguetui do (their parent-death signal), and the game programs with
// their referees.
func awaitGone(t *testing.T, pid int) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		if _, err := os.Stat(fmt.Sprintf("/proc/%d", pid)); os.IsNotExist(err) {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("agent %d (%s) outlived the leaguetui killed with SIGKILL", pid, leaguetest.CommandLine(pid))
		}
		time.Sleep(5 * time.Millisecond) // a poll interval
	}
}

func standingsOf(t *testing.T, dir, leagueID string) string {
	t.Helper()
	var doc protocol.StandingsFile
	leaguetest.ReadJSON(t, filepath.Join(dir, "leagues", leagueID, "standings.json"), &doc)
	return fmt.Sprintf("%+v", doc.Standings)
}

// resultsOf is every match's result, by match id: the referee that played
// it is timing and left out.
func resultsOf(t *testing.T, dir, leagueID string) string {
	t.Helper()
	var out bytes.Buffer
	for _, m := range leaguetest.ReadMatchFiles[leaguetest.MatchFile[ticTacToeResult]](t, dir, leagueID) {
		r := m.Result
		winner := "-"
		if r.Winner != nil {
			winner = *r.Winner
		}
		fmt.Fprintf(&out, "%s %v: %s %s %s %s %v\n", m.MatchID, m.Players, r.Status, winner, r.Board, r.Moves, r.Statuses)
	}
	return out.String()
}
