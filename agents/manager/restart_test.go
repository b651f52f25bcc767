package manager

import (
	"context"
	"fmt"
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/leaguetui/leaguetui/config"
	"github.com/leaguetui/leaguetui/engine"
)

// journaledLeague records a started league of four players and one
// referee in a new manager on dir, plays R1's first match's assignment and
// returns the manager (not listening) and the schedule.
func journaledLeague(t *testing.T, dir string) (*Manager, []engine.Round) {
	t.Helper()
	m, err := New(Options{Config: config.Default(), DataDir: dir, AdminToken: "adm-restart-test"})
	if err != nil {
		t.Fatal(err)
	}
	ids := registerFour(t, m)
	rounds, err := engine.RoundRobin(ids)
	if err != nil {
		t.Fatal(err)
	}
	mustRecord(t, m, engine.Event{Kind: engine.EventLeagueStarted, Start: &engine.StartInfo{Players: ids, LegacyRounds: rounds}})
	p := rounds[0].Matches[0]
	mustRecord(t, m, engine.Event{Kind: engine.EventMatchAssigned, Round: 1, MatchID: p.MatchID, Referee: "REF01"})
	return m, rounds
}

// registerFour journals four players, P01 to P04, and a referee, REF01,
// and returns the players' ids.
func registerFour(t *testing.T, m *Manager) []string {
	t.Helper()
	var ids []string
	for i := 1; i <= 4; i++ {
		id := fmt.Sprintf("P%02d", i)
		ids = append(ids, id)
		mustRecord(t, m, engine.Event{Kind: engine.EventAgentRegistered,
			Agent: &engine.AgentInfo{ID: id, Role: engine.RolePlayer, Endpoint: "http://127.0.0.1:1/" + id}})
	}
	mustRecord(t, m, engine.Event{Kind: engine.EventAgentRegistered,
		Agent: &engine.AgentInfo{ID: "REF01", Role: engine.RoleReferee, Endpoint: "http://127.0.0.1:1/REF01"}})
	return ids
}

func mustRecord(t *testing.T, m *Manager, ev engine.Event) {
	t.Helper()
	if _, err := m.record(ev); err != nil {
		t.Fatal(err)
	}
}

// TestRestartEndsInterruptedMatches (issue 14, item 3): a manager started
// again on a journal with a match running journals the restart, so neither
// it nor any reader of its feed shows that match running while the league
// waits to be resumed.
func TestRestartEndsInterruptedMatches(t *testing.T) {
	dir := t.TempDir()
	first, rounds := journaledLeague(t, dir)
	if err := first.journal.Close(); err != nil {
		t.Fatal(err)
	}
	first.closeFiles()
	first.lock.Release() // as a crash would: the next manager owns the folder
	m, err := New(Options{Config: config.Default(), DataDir: dir, AdminToken: "adm-restart-test", Hold: true})
	if err != nil {
		t.Fatal(err)
	}
	if err := m.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	defer m.Shutdown(context.Background())
	if m.league.RunningCount() != 0 || m.league.State != engine.LeaguePaused {
		t.Fatalf("after the restart: %d running, state %s", m.league.RunningCount(), m.league.State)
	}
	page, _, err := m.eventsAfter(0)
	if err != nil {
		t.Fatal(err)
	}
	reader := engine.NewLeague("", engine.DefaultScoring())
	var kinds []engine.EventKind
	for _, ev := range page.Events {
		if err := reader.Apply(ev); err != nil {
			t.Fatalf("feed event %d does not apply: %v", ev.Seq, err)
		}
		kinds = append(kinds, ev.Kind)
	}
	if reader.RunningCount() != 0 || kinds[len(kinds)-2] != engine.EventRestarted || kinds[len(kinds)-1] != engine.EventPaused {
		t.Errorf("feed ends with %v, %d running; want manager_restarted, paused and none running", kinds, reader.RunningCount())
	}
	if rec, _ := m.league.Match(rounds[0].Matches[0].MatchID); rec.Step != engine.StepInterrupted {
		t.Errorf("interrupted match's step %q", rec.Step)
	}
}

// TestResultAfterStopRefused (issue 14, item 4): once stopped, the league
// takes no result, so the journal holds none after its stopped event.
func TestResultAfterStopRefused(t *testing.T) {
	m, rounds := journaledLeague(t, t.TempDir())
	defer m.journal.Close()
	mustRecord(t, m, engine.Event{Kind: engine.EventStopped, Detail: "by the admin"})
	p := rounds[0].Matches[0]
	res := engine.Result{MatchID: p.MatchID, Round: 1, PlayerA: p.PlayerA, PlayerB: p.PlayerB, Status: engine.StatusDraw}
	if err := m.recordResult(res, "REF01", nil, nil); err == nil {
		t.Fatal("a result after the stop was recorded")
	}
	if done, _ := m.league.Progress(); done != 0 {
		t.Errorf("%d results after the stop", done)
	}
}

// TestLeagueStartedJournalsNoSchedule: league_started journals the seed,
// the players and the format, not the schedule; a manager started again
// on the journal rebuilds the same rounds. A journal written before, whose
// league_started carries the rounds, is read as it was (journaledLeague
// writes one).
func TestLeagueStartedJournalsNoSchedule(t *testing.T) {
	cfg := config.Default()
	cfg.Format = config.Format{Name: string(engine.FormatDoubleRoundRobin)}
	for _, tc := range []struct {
		name    string
		journal func(t *testing.T, dir string) (*Manager, []engine.Round)
		carried bool
	}{
		{"started now", func(t *testing.T, dir string) (*Manager, []engine.Round) { return startedLeague(t, dir, cfg) }, false},
		{"journal from before", journaledLeague, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			first, rounds := tc.journal(t, dir)
			if err := first.journal.Close(); err != nil {
				t.Fatal(err)
			}
			first.closeFiles()
			first.lock.Release()
			data, err := os.ReadFile(first.Layout().Journal())
			if err != nil {
				t.Fatal(err)
			}
			for _, line := range strings.Split(string(data), "\n") {
				if strings.Contains(line, `"league_started"`) && strings.Contains(line, `"rounds":[`) != tc.carried {
					t.Errorf("league_started journaled as %s", line)
				}
			}
			again, err := New(Options{Config: cfg, DataDir: dir, AdminToken: "adm-restart-test", Hold: true})
			if err != nil {
				t.Fatal(err)
			}
			defer func() { // its files' writers too, before the folder is removed
				again.journal.Close()
				again.closeFiles()
				again.lock.Release()
			}()
			if !reflect.DeepEqual(again.league.Rounds(), rounds) {
				t.Errorf("restarted with rounds %v, want %v", again.league.Rounds(), rounds)
			}
		})
	}
}

// startedLeague registers four players and a referee with a new manager
// on dir and starts its league as the admin would; it returns the manager
// (not listening) and the rounds it started with.
func startedLeague(t *testing.T, dir string, cfg config.Config) (*Manager, []engine.Round) {
	t.Helper()
	m, err := New(Options{Config: cfg, DataDir: dir, AdminToken: "adm-restart-test", Seed: 9, SeedSet: true})
	if err != nil {
		t.Fatal(err)
	}
	registerFour(t, m)
	if err := m.startLeague(); err != nil {
		t.Fatal(err)
	}
	if m.league.RoundCount() != 6 {
		t.Fatalf("a double round robin of 4 started with %d rounds, want 6", m.league.RoundCount())
	}
	return m, m.league.Rounds()
}
