package tui

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/leaguetui/leaguetui/agents/protocol"
	"github.com/leaguetui/leaguetui/internal/leaguetest"
	"github.com/leaguetui/leaguetui/league/control"
)

func TestHealthTickProbesAgents(t *testing.T) {
	fake := newFakeManager(t)
	m := New(t.Context(), Options{Control: control.New(fake.srv.URL, ""), Now: time.Now, HealthEvery: time.Hour, NoColor: true})
	// P01 answers /health; every other agent's port refuses connections.
	// Both are made here, so whatever else runs on the machine (a league
	// on the default ports) cannot change the outcome.
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_ = json.NewEncoder(w).Encode(protocol.Health{ID: "P01", Role: "player", State: "ACTIVE"})
	}))
	t.Cleanup(up.Close)
	l := waitingLeague(t)
	for _, ev := range l.events {
		if ev.Agent == nil {
			continue
		}
		ev.Agent.Endpoint = leaguetest.RefusingEndpoint(t)
		if ev.Agent.ID == "P01" {
			ev.Agent.Endpoint = up.URL + "/mcp"
		}
	}
	feed(m, l)
	_, cmd := m.Update(healthTickMsg{})
	var probes *healthMsg
	for _, msg := range runCmd(t, cmd) {
		if h, ok := msg.(healthMsg); ok {
			probes = &h
		}
	}
	if probes == nil || len(probes.Probes) != 1+2+6 {
		t.Fatalf("probes: %+v", probes)
	}
	if _, again := m.Update(healthTickMsg{}); again != nil && !m.healthBusy {
		t.Error("a second tick while probing should not probe again")
	}
	m.Update(*probes)
	// The fake manager has no /health; P01 answers; P02 and REF01 refuse.
	if !m.st.manager.Down || m.st.Agent("P01").Down || !m.st.Agent("P02").Down || !m.st.Agent("REF01").Down || m.healthBusy {
		t.Errorf("down: manager %v P01 %v P02 %v REF01 %v busy %v", m.st.manager.Down, m.st.Agent("P01").Down,
			m.st.Agent("P02").Down, m.st.Agent("REF01").Down, m.healthBusy)
	}
}
