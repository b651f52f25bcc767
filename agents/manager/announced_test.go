package manager_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/leaguetui/leaguetui/engine"
	"github.com/leaguetui/leaguetui/internal/leaguetest"
	"github.com/leaguetui/leaguetui/league/control"
	"github.com/leaguetui/leaguetui/league/process"
)

// TestRefereesFromTheAnnouncement runs our manager with two referees of
// another implementation's kind (badreferee --mode announced): they serve
// no start_match (-32601) and play the matches each round announcement
// gives them, a second after it, well after our start_match was declined.
// Every match is played by the referee it was announced to,
// each report is taken, no match is handed to a referee that never heard
// of it, and no referee is suspended, although --suspend-referee-after 1
// suspends one at its first miss. Four of our players play.
func TestRefereesFromTheAnnouncement(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	mgr := leaguetest.StartManager(t, dir, adminToken, "--seed", "9", "--open-referees", "--retry-delay", "50ms",
		"--suspend-referee-after", "1", "--games-per-pair", "2")
	url := mgr.Endpoint
	ctl := control.New(url, adminToken)
	var referees []*process.Child
	for i := range 2 {
		ref := leaguetest.StartProgram(t, leaguetest.BadRefereeBinary(t), fmt.Sprintf("announced referee %d", i+1),
			filepath.Join(dir, "test-output"), true, nil, "--manager", url, "--name", fmt.Sprintf("other%d", i+1), "--mode", "announced",
			"--start-delay", "1s")
		referees = append(referees, ref)
	}
	for i := range 4 {
		leaguetest.StartPlayer(t, dir, url, fmt.Sprintf("P%02d", i+1), "--seed", "9")
	}
	if err := ctl.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	events := leaguetest.UntilCompleted(t, ctl, 0, time.Minute)

	assignedTo := map[string][]string{}
	results := 0
	for _, ev := range events {
		switch ev.Kind {
		case engine.EventMatchAssigned:
			assignedTo[ev.MatchID] = append(assignedTo[ev.MatchID], ev.Referee)
		case engine.EventMatchResult:
			results++
			if r := ev.Result; r.Status == engine.StatusTechnicalLoss {
				t.Errorf("%s ended in a technical loss (%v): %s", r.MatchID, r.Offenders, ev.Detail)
			}
		case engine.EventRefereeSuspended:
			t.Errorf("referee %s suspended: %s", ev.AgentID, ev.Detail)
		case engine.EventStalled:
			t.Errorf("the league stalled: %s", ev.Detail)
		}
	}
	// Each referee declined start_match once, in each form the manager
	// tries (never run_match), and was asked no more, where asking again
	// at every try made hundreds of calls a league.
	for i, ref := range referees {
		_ = ref.Stop(10 * time.Second)
		out, err := os.ReadFile(filepath.Join(dir, "test-output", fmt.Sprintf("announced_referee_%d.out", i+1)))
		if err != nil {
			t.Fatal(err)
		}
		seen := map[string]bool{}
		for _, line := range strings.Split(string(out), "\n") {
			if method, ok := strings.CutPrefix(line, "badreferee: declined "); ok {
				if seen[method] {
					t.Errorf("announced referee %d was sent start_match as %s again after declining it", i+1, method)
				}
				seen[method] = true
			}
		}
		if len(seen) == 0 || seen["run_match"] {
			t.Errorf("announced referee %d declined start_match as %v; want it asked once, never as run_match", i+1, seen)
		}
	}
	if want := 12; results != want { // 4 players, every pair twice
		t.Errorf("%d results, want %d", results, want)
	}
	for match, referees := range assignedTo {
		for _, r := range referees[1:] {
			if r != referees[0] {
				t.Errorf("%s was handed from %s to %s, which never heard of it", match, referees[0], r)
			}
		}
	}
}
