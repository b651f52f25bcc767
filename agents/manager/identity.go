package manager

import (
	"strings"

	"github.com/leaguetui/leaguetui/engine"
)

// nameHolder is the agent other than self that already goes by name, in
// any case: display names are unique, so that the standings cannot show
// two players as one. Call with m.mu held.
func (m *Manager) nameHolder(name, self string) (engine.AgentInfo, bool) {
	if name == "" {
		return engine.AgentInfo{}, false
	}
	for _, list := range [][]engine.AgentInfo{m.league.Players(), m.league.Referees()} {
		for _, a := range list {
			// Another's id is taken too: a player shown as "P05" must be P05.
			if a.ID != self && (strings.EqualFold(a.DisplayName, name) || strings.EqualFold(a.ID, name)) {
				return a, true
			}
		}
	}
	return engine.AgentInfo{}, false
}
