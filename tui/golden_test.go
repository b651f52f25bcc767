package tui

import (
	"fmt"
	"testing"
	"time"

	"github.com/charmbracelet/x/exp/golden"
	"github.com/charmbracelet/x/exp/teatest"
)

// TestGolden runs the console in a Bubble Tea program (teatest) at 80x24,
// 120x40 and 200x50, feeds it a synthetic league in each state, and compares the
// screen with testdata/TestGolden/<state>_<size>.golden. The clock is fixed
// a few seconds after the last event, so the screens are stable. Run
// `go test ./tui -run TestGolden -update` to rewrite them after a change
// you have looked at.
func TestGolden(t *testing.T) {
	scenarios := []struct {
		name   string
		league func(testing.TB) *league
		keys   []string
	}{
		{"waiting", waitingLeague, nil},
		{"running", runningLeague, nil},
		{"running_matches", runningLeague, []string{"2"}},
		{"running_rounds", runningLeague, []string{"1"}},
		{"pausing", pausingLeague, nil},
		{"paused", pausedLeague, nil},
		{"completed", completedLeague, nil},
		{"completed_crosstable", completedLeague, []string{"c"}},
		{"completed_log", completedLeague, []string{"5"}},
		{"completed_agents", completedLeague, []string{"4"}},
		{"stop_question", runningLeague, []string{"x"}},
		{"help", runningLeague, []string{"?"}},
		// A roster's names (issue 49): in every pane that shows players.
		{"named_standings", namedLeague, nil},
		{"named_running_matches", namedRunningLeague, []string{"2"}},
		{"named_running_rounds", namedRunningLeague, []string{"1"}},
		{"named_crosstable", namedLeague, []string{"c"}},
		{"named_agents", namedLeague, []string{"4"}},
		// Two games a pair: the crosstable shows each pair's score so far.
		{"two_games_crosstable", twoGamesLeague, []string{"c"}},
		{"two_games_standings", twoGamesLeague, nil},
	}
	sizes := [][2]int{{80, 24}, {120, 40}, {200, 50}}
	for _, sc := range scenarios {
		for _, size := range sizes {
			t.Run(fmt.Sprintf("%s_%dx%d", sc.name, size[0], size[1]), func(t *testing.T) {
				l := sc.league(t)
				now := l.at.Add(3 * time.Second)
				m := New(t.Context(), Options{Now: func() time.Time { return now }, Location: time.UTC,
					NoColor: true, HealthEvery: -1, Seed: 42})
				m.st.ManagerURL, m.st.LeagueID = "http://127.0.0.1:8000", "league_2025_even_odd"
				tm := teatest.NewTestModel(t, m, teatest.WithInitialTermSize(size[0], size[1]))
				tm.Send(l.page())
				for _, k := range sc.keys {
					tm.Send(keyMsg(k))
				}
				if err := tm.Quit(); err != nil {
					t.Fatal(err)
				}
				final := tm.FinalModel(t, teatest.WithFinalTimeout(5*time.Second)).(*Model)
				if final.pc.Width != size[0] || final.pc.Height != size[1] {
					t.Fatalf("size %dx%d", final.pc.Width, final.pc.Height)
				}
				golden.RequireEqual(t, []byte(final.screen()))
			})
		}
	}
}
