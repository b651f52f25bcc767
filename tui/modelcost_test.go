package tui

import (
	"strings"
	"testing"

	"github.com/leaguetui/leaguetui/agents/protocol"
	"github.com/leaguetui/leaguetui/league/control"
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
	if screen := m.screen(); !strings.Contains(screen, "model cost") || !strings.Contains(screen, "12.3k in 48 out · no price · 200ms/move") {
		t.Errorf("agents pane without the model's cost:\n%s", screen)
	}
	press(m, "3")
	screen := m.screen()
	if !strings.Contains(screen, "tok in/out") || !strings.Contains(screen, "12.3k/48") || !strings.Contains(screen, "no price") {
		t.Errorf("standings without the model's tokens:\n%s", screen)
	}
}

// A priced model player's money, its tokens at its price, shows beside
// its tokens in the Agents pane and the standings.
func TestModelMoneyShownInAgentsAndStandings(t *testing.T) {
	m := newTestModel(t, nil, t0)
	feed(m, runningLeague(t))
	p1 := m.st.Agent("P01")
	cost := protocol.ModelCost{Provider: "openai", Model: "gpt-4o-mini", Moves: 2}
	price := &protocol.Price{InputPerMillion: 0.15, OutputPerMillion: 0.60}
	cost.Add(protocol.ModelMove{Provider: "openai", Model: "gpt-4o-mini", InputTokens: 10000, OutputTokens: 2000, Price: price}, 1)
	cost.Add(protocol.ModelMove{Provider: "openai", Model: "gpt-4o-mini", InputTokens: 2345, OutputTokens: 500, Price: price}, 2)
	// 12345 × 0.15 + 2500 × 0.60 per million tokens
	const money = "~$0.003352"
	m.Update(healthMsg{Probes: []control.Probe{{Endpoint: p1.Endpoint,
		Health: protocol.Health{State: "ACTIVE", Model: &cost}, At: t0}}})
	press(m, "4")
	if screen := m.screen(); !strings.Contains(screen, "12.3k in 2.5k out · "+money) {
		t.Errorf("agents pane without the model's money %s:\n%s", money, screen)
	}
	press(m, "3")
	if screen := m.screen(); !strings.Contains(screen, "est. cost") || !strings.Contains(screen, money) {
		t.Errorf("standings without the model's money %s:\n%s", money, screen)
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
