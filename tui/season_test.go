package tui

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/leaguetui/leaguetui/engine"
)

// TestStandingsShowTheSeason: with a season, e in the standings pane
// shows the season's table as the season reads it (every player's
// leagues, games and one rating over them), and e again goes back.
func TestStandingsShowTheSeason(t *testing.T) {
	results := []engine.Result{
		{PlayerA: "ann", PlayerB: "bob", Status: engine.StatusWin, Winner: "ann"},
		{PlayerA: "bob", PlayerB: "ann", Status: engine.StatusDraw},
		{PlayerA: "bob", PlayerB: "cat", Status: engine.StatusWin, Winner: "bob"},
	}
	leagues := []engine.SeasonLeague{{ID: "week1", Results: results, Rows: []engine.SeasonTotal{
		{Name: "ann", Played: 2, Wins: 1, Draws: 1, Points: 4}, {Name: "bob", Played: 3, Wins: 1, Draws: 1, Losses: 1, Points: 4},
		{Name: "cat", Played: 1, Losses: 1}}}}
	reads := 0
	m := New(context.Background(), Options{Now: func() time.Time { return t0 }, Location: time.UTC, NoColor: true, HealthEvery: -1,
		Season: func() ([]engine.SeasonRow, error) {
			reads++
			return engine.SeasonTable(leagues, engine.RatingOptions{}), nil
		}})
	m.Update(tea.WindowSizeMsg{Width: 100, Height: 24})
	feed(m, completedLeague(t))
	m.focus = paneStandings
	press(m, "e")
	screen := m.screen()
	table := engine.SeasonTable(leagues, engine.RatingOptions{})
	if reads != 1 || !strings.Contains(screen, "Season") || !strings.Contains(screen, "leagues") {
		t.Fatalf("e did not open the season (%d reads):\n%s", reads, screen)
	}
	for _, r := range table {
		line := screenLine(screen, " "+r.Name+" ")
		if line == "" || !strings.Contains(line, fmt.Sprintf(" %+.0f ", r.Rating.Elo)) {
			t.Errorf("the season's row of %s (elo %+.0f) is not on screen:\n%s", r.Name, r.Rating.Elo, screen)
		}
	}
	press(m, "e")
	if screen := m.screen(); strings.Contains(screen, "Season") || !strings.Contains(screen, "Standings") {
		t.Errorf("e again did not go back to the standings:\n%s", screen)
	}
}
