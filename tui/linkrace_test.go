package tui

import (
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/leaguetui/leaguetui/agents/protocol"
	"github.com/leaguetui/leaguetui/engine"
)

// A link race's match flow: the header and log name the game, and a running
// match shows each player's page and step as its referee reports turns.
func TestLinkRaceMatchFlowShowsEachPlayersPage(t *testing.T) {
	l := newLeague(t).register(4, 1)
	l.start(7)
	l.events[len(l.events)-1].Start.GameType = engine.LinkRaceType
	p := l.pairing("R1M1")
	l.add(engine.Event{Kind: engine.EventMatchAssigned, Round: p.Round, MatchID: "R1M1", Referee: "REF01"})
	l.add(engine.Event{Kind: engine.EventMatchStep, Round: p.Round, MatchID: "R1M1", Referee: "REF01", Step: "turn 3",
		Detail: "A: Harbor Tower (step 3) · B: Castle Garden (step 3)"})
	m := newTestModel(t, nil, t0)
	m.Update(tea.WindowSizeMsg{Width: 140, Height: 30})
	m.Update(feedMsg{Page: protocol.FeedPage{Events: l.events, LastSeq: l.seq}})
	m.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("1")}) // the rounds pane
	m.Update(frameMsg{})
	screen := m.View()
	for _, want := range []string{"link_race", "turn 3: A: Harbor Tower (step 3)"} {
		if !strings.Contains(screen, want) {
			t.Errorf("screen lacks %q:\n%s", want, screen)
		}
	}
	var logged bool
	for _, e := range m.pc.State.Logs() {
		logged = logged || strings.HasPrefix(e.Text, "league started: link_race")
	}
	if !logged {
		t.Error("the log does not say the league plays link_race")
	}
}
