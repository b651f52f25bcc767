package tui

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/leaguetui/leaguetui/agents/protocol"
	"github.com/leaguetui/leaguetui/league/control"
)

// TestHeaderSaysRefereesAreOpen: a manager whose /health says it admits
// any referee (--open-referees) is shown so in the header, since any
// referee may then report results.
func TestHeaderSaysRefereesAreOpen(t *testing.T) {
	for _, open := range []bool{false, true} {
		fake := newFakeManager(t)
		m := New(t.Context(), Options{Control: control.New(fake.srv.URL, ""), Now: time.Now, HealthEvery: time.Hour, NoColor: true})
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			_ = json.NewEncoder(w).Encode(protocol.Health{ID: "league_manager", State: "ACTIVE", OpenReferees: open})
		}))
		t.Cleanup(srv.Close)
		m.st.manager.Endpoint = srv.URL + "/mcp"
		m.header.SetSize(120, 2)
		m.Update(healthMsg{Probes: control.ProbeAgents(t.Context(), []string{m.st.manager.Endpoint}, 1, 5*time.Second)})
		if got := strings.Contains(m.header.View(), "open referees"); got != open {
			t.Errorf("open_referees %v: the header says open %v:\n%s", open, got, m.header.View())
		}
	}
}
