package tui

import (
	"strings"
	"testing"

	"github.com/leaguetui/leaguetui/agents/control"
	"github.com/leaguetui/leaguetui/agents/protocol"
)

// A model player's cost from its /health shows in the Agents pane and in
// the standings; other players show none.
func TestModelCostShownInAgentsAndStandings(t *testing.T) {
	m := newTestModel(t, nil, t0)
	feed(m, runningLeague(t))
	p1 := m.st.Agent("P01")
	cost := &protocol.ModelCost{Provider: "openai", Model: "fake", Moves: 4, InputTokens: 12345, OutputTokens: 48,
		LatencyMS: 800, Failures: 1}
	m.Update(healthMsg{Probes: []control.Probe{{Endpoint: p1.Endpoint,
		Health: protocol.Health{State: "ACTIVE", Model: cost}, At: t0}}})
	press(m, "4")
	if screen := m.screen(); !strings.Contains(screen, "model cost") || !strings.Contains(screen, "12.3k in 48 out · 200ms/move · 1 failed") {
		t.Errorf("agents pane without the model's cost:\n%s", screen)
	}
	press(m, "3")
	screen := m.screen()
	if !strings.Contains(screen, "tok in/out") || !strings.Contains(screen, "12.3k/48") {
		t.Errorf("standings without the model's tokens:\n%s", screen)
	}
}

func TestNoModelCostColumnsWithoutModelPlayers(t *testing.T) {
	m := newTestModel(t, nil, t0)
	feed(m, runningLeague(t))
	for _, key := range []string{"3", "4"} {
		press(m, key)
		if screen := m.screen(); strings.Contains(screen, "tok in/out") || strings.Contains(screen, "model cost") {
			t.Errorf("a league without model players shows their columns:\n%s", screen)
		}
	}
}
