package tui

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/leaguetui/leaguetui/engine"
)

// helpKeys are the keys a help lists, short and full.
func helpKeys(h keyHelp) (short []string, full []string) {
	for _, b := range h.short {
		short = append(short, b.Help().Key)
	}
	for _, group := range h.full {
		for _, b := range group {
			full = append(full, b.Help().Key)
		}
	}
	return short, full
}

// seasonModel is a console over a completed league with a season of one
// league, the standings pane in focus.
func seasonModel(t *testing.T) (*Model, *standingsPane) {
	t.Helper()
	m := New(context.Background(), Options{Now: func() time.Time { return t0 }, Location: time.UTC, NoColor: true, HealthEvery: -1,
		Season: func() ([]engine.SeasonRow, error) {
			return engine.SeasonTable([]engine.SeasonLeague{{ID: "week1",
				Results: []engine.Result{{PlayerA: "ann", PlayerB: "bob", Status: engine.StatusWin, Winner: "ann"}},
				Rows:    []engine.SeasonTotal{{Name: "ann", Played: 1, Wins: 1, Points: 3}, {Name: "bob", Played: 1, Losses: 1}}}},
				engine.RatingOptions{}), nil
		}})
	m.Update(tea.WindowSizeMsg{Width: 100, Height: 24})
	feed(m, completedLeague(t))
	m.focus = paneStandings
	return m, m.panes[paneStandings].(*standingsPane)
}

// TestStandingsScreens: each of the pane's four screens is its own type,
// chosen from the pane's state, with its own title, keys and drawing; the
// season's table opens over any other screen and closes back to it.
func TestStandingsScreens(t *testing.T) {
	m, sp := seasonModel(t)
	tableKeys := []string{"↑/k", "↓/j", "o", "r", "c", "v", "e"}
	crossKeys := []string{"↑/k", "↓/j", "←/h", "→/l", "enter", "c"}
	check := func(step string, want standingsScreen, title string, keys []string, footer string) {
		t.Helper()
		got := sp.screen()
		if s, ok := got.(seasonScreen); ok {
			got = seasonScreen{p: s.p} // its under screen is checked through its keys
		}
		if got != want {
			t.Errorf("%s: screen %T, want %T", step, got, want)
		}
		if sp.Title() != title {
			t.Errorf("%s: title %q, want %q", step, sp.Title(), title)
		}
		if short, _ := helpKeys(sp.Help()); !slices.Equal(short, keys) {
			t.Errorf("%s: keys %v, want %v", step, short, keys)
		}
		if view := sp.View(); !strings.Contains(view, footer) || view != sp.View() {
			t.Errorf("%s: the view lacks %q, or draws twice otherwise:\n%s", step, footer, view)
		}
	}
	check("at first", tableScreen{sp}, "Standings", tableKeys, "sorted by rank ▲ low to high · 6 players")
	press(m, "c")
	check("c", crossScreen{sp}, "Crosstable", crossKeys, "W win · D draw · L loss")
	press(m, "e")
	check("c e", seasonScreen{p: sp}, "Season", crossKeys, " e back · elo: one fit")
	press(m, "o") // the season's table takes no sort key
	if sp.sortBy != sortRank {
		t.Errorf("o over the season sorted the table by %v", sp.sortBy)
	}
	press(m, "e")
	check("c e e", crossScreen{sp}, "Crosstable", crossKeys, "W win · D draw · L loss")
	press(m, "c")
	check("c e e c", tableScreen{sp}, "Standings", tableKeys, "sorted by rank")

	press(m, "j")
	selected := sp.rows()[1].PlayerID
	press(m, "v")
	check("v", losScreen{sp}, "Likelihood of superiority", tableKeys, " v back · LOS = Φ(Δ/se)")
	if sp.los.playerID != selected || !strings.Contains(sp.View(), "LOS of "+selected) {
		t.Errorf("v opened the LOS of %q, want the selected %q:\n%s", sp.los.playerID, selected, sp.View())
	}
	press(m, "e")
	check("v e", seasonScreen{p: sp}, "Season", tableKeys, " e back")
	press(m, "e")
	check("v e e", losScreen{sp}, "Likelihood of superiority", tableKeys, " v back")
	press(m, "c") // from the LOS view straight to the crosstable, the LOS closed
	if sp.los != nil || !sp.cross {
		t.Errorf("c in the LOS view: los %v, cross %v", sp.los, sp.cross)
	}
	press(m, "c", "o")
	check("o", tableScreen{sp}, "Standings", tableKeys, "sorted by player ▲ low to high")
}

// TestStandingsScreenKeys: a key goes to the screen shown, and a screen
// leaves the keys it does not take to the console (false).
func TestStandingsScreenKeys(t *testing.T) {
	_, sp := seasonModel(t)
	keyOf := func(s string) tea.KeyMsg { return tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(s)} }
	for _, tt := range []struct {
		name    string
		open    func()
		key     string
		handled bool
	}{
		{"table takes o", func() {}, "o", true},
		{"table leaves l", func() {}, "l", false},
		{"crosstable takes l", func() { sp.cross = true }, "l", true},
		{"crosstable leaves o", func() { sp.cross = true }, "o", false},
		{"LOS takes r", func() { sp.los = &losView{playerID: "P01"} }, "r", true},
		{"LOS leaves l", func() { sp.los = &losView{playerID: "P01"} }, "l", false},
		{"season leaves o", func() { sp.toggleSeason() }, "o", false},
		{"season takes j", func() { sp.toggleSeason() }, "j", true},
	} {
		sp.cross, sp.los, sp.season, sp.sortBy = false, nil, nil, sortRank
		tt.open()
		if _, handled := sp.Update(keyOf(tt.key)); handled != tt.handled {
			t.Errorf("%s: handled %v", tt.name, handled)
		}
	}
	sp.cross, sp.los, sp.season = false, nil, nil
	sp.ctx.Season = nil // e without a season opens nothing, and takes the key all the same
	sp.list.cursor = 3
	if _, handled := sp.Update(keyOf("e")); !handled || sp.season != nil || sp.list.cursor != 0 {
		t.Errorf("e without a season: handled %v, season %v, cursor %d", handled, sp.season, sp.list.cursor)
	}
	if !key.Matches(keyOf("e"), sp.keySeason) {
		t.Error("e is not the season's key")
	}
}
