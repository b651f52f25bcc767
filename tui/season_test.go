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

// TestSeasonFitsEveryPane (issue 49): at 80x24, in the split layout of
// 120x40 (a 66-cell pane) and at 200x50, the season's table keeps each
// player's rating on screen, dropping less needed columns first.
func TestSeasonFitsEveryPane(t *testing.T) {
	leagues := []engine.SeasonLeague{{ID: "week1", Results: []engine.Result{
		{PlayerA: "alice", PlayerB: "bob", Status: engine.StatusWin, Winner: "alice"},
		{PlayerA: "bob", PlayerB: "alice", Status: engine.StatusDraw}}, Rows: []engine.SeasonTotal{
		{Name: "alice", Played: 2, Wins: 1, Draws: 1, Points: 4}, {Name: "bob", Played: 2, Draws: 1, Losses: 1, Points: 1}}}}
	table := engine.SeasonTable(leagues, engine.RatingOptions{})
	for _, size := range paneSizes {
		m := New(context.Background(), Options{Now: func() time.Time { return t0 }, Location: time.UTC, NoColor: true, HealthEvery: -1,
			Season: func() ([]engine.SeasonRow, error) { return table, nil }})
		m.Update(tea.WindowSizeMsg{Width: size[0], Height: size[1]})
		feed(m, completedLeague(t))
		press(m, "3", "e")
		screen := m.screen()
		for _, r := range table {
			line := screenLine(screen, " "+r.Name+" ")
			if line == "" || !strings.Contains(line, ratingCell(protocolRating(r), true)) {
				t.Errorf("%dx%d: the rating of %s is cut:\n%s", size[0], size[1], r.Name, screen)
			}
		}
		if size[0] == 200 && (!strings.Contains(screen, "leagues") || !strings.Contains(screen, "ranks") || !strings.Contains(screen, "tie")) {
			t.Errorf("200x50: the leagues, ranks or tie column is dropped with room for it:\n%s", screen)
		}
		for _, r := range table {
			ranks, tie := protocolRating(r).RankCells()
			if line := screenLine(screen, " "+r.Name+" "); size[0] == 200 && (ranks != "1-2" || tie != "1" || !strings.Contains(line, " "+padLeft(ranks, 5)+" "+padLeft(tie, 3)+" ")) {
				t.Errorf("200x50: %s's rank interval %s and tie group %s (two games: 1-2 and 1) are not on its row: %q", r.Name, ranks, tie, line)
			}
		}
	}
}
