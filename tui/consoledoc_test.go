package tui

import (
	"os"
	"strings"
	"testing"

	"github.com/charmbracelet/bubbles/key"
)

// TestConsolePageNamesEveryKey: docs/console.md's table of keys names
// every key the console binds, as its help shows it, so a key added to a
// pane is a key documented.
func TestConsolePageNamesEveryKey(t *testing.T) {
	page, err := os.ReadFile("../docs/console.md")
	if err != nil {
		t.Fatal(err)
	}
	m := newTestModel(t, nil, t0)
	feed(m, completedLeague(t))
	g, l, c := m.keys, m.pc.ListKeys, m.yesNo
	bindings := []key.Binding{g.Start, g.Pause, g.Stop, g.NextPane, g.PrevPane, g.Filter, g.Help, g.Quit, g.ForceQ,
		l.Up, l.Down, l.PgUp, l.PgDown, l.Top, l.Bottom, l.Open, l.Back, c.Yes, c.No}
	for _, p := range m.panes {
		for _, group := range p.Help().full {
			bindings = append(bindings, group...)
		}
	}
	m.focus = paneStandings
	press(m, "c") // the crosstable has keys of its own
	for _, group := range m.panes[paneStandings].Help().full {
		bindings = append(bindings, group...)
	}
	for _, b := range bindings {
		if k := b.Help().Key; !strings.Contains(string(page), "`"+k+"`") {
			t.Errorf("docs/console.md does not name the key `%s` (%s)", k, b.Help().Desc)
		}
	}
}
