package tui

import (
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/leaguetui/leaguetui/agents/protocol"
	"github.com/leaguetui/leaguetui/league/control"
)

// A model player's rethinks, counted apart from its moves in its /health,
// show in the Agents pane's model cost.
func TestRethinksShownInAgents(t *testing.T) {
	m := newTestModel(t, nil, t0)
	m.Update(tea.WindowSizeMsg{Width: 140, Height: 30})
	feed(m, runningLeague(t))
	p1 := m.st.Agent("P01")
	var cost protocol.ModelCost
	cost.Add(protocol.ModelMove{Provider: "openai", Model: "fake", InputTokens: 240, OutputTokens: 24, LatencyMS: 300, Rethinks: 1}, 1)
	cost.Add(protocol.ModelMove{Provider: "openai", Model: "fake", InputTokens: 360, OutputTokens: 36, LatencyMS: 300, Rethinks: 2}, 2)
	m.Update(healthMsg{Probes: []control.Probe{{Endpoint: p1.Endpoint,
		Health: protocol.Health{State: "ACTIVE", Model: &cost}, At: t0}}})
	press(m, "4")
	if screen := m.screen(); !strings.Contains(screen, "600 in 60 out · no price · 300ms/move · 3 rethinks") {
		t.Errorf("agents pane without the model's rethinks:\n%s", screen)
	}
}
