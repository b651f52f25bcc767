package manager

import (
	"strings"

	"github.com/leaguetui/leaguetui/engine"
)

// nameClash is the agent a name is taken by, and by what.
type nameClash struct {
	holder engine.AgentInfo
	as     string // what of the holder's the name is, or looks like: its display name or its id
	what   string // "name" or "id"
	exact  bool   // the name is as, in some case; otherwise it looks like it
}

// nameHolder is the agent other than self that already goes by name, or
// by a name that looks like it (lookAlike: "cаrol" with a Cyrillic а
// beside "carol", "PO5" beside the id P05), in any case: display names are
// unique, so that the standings cannot show two players as one. An agent
// that goes by name itself comes before one whose name looks like it.
// Call with m.mu held.
func (m *Manager) nameHolder(name, self string) (nameClash, bool) {
	if name == "" {
		return nameClash{}, false
	}
	players, referees := m.league.Players(), m.league.Referees()
	m.trimNameKeys(len(players) + len(referees))
	key := keyOf(name)
	var alike nameClash
	found := false
	for _, list := range [][]engine.AgentInfo{players, referees} {
		for _, a := range list {
			if a.ID == self {
				continue
			}
			// Another's id is taken too: a player shown as "P05" must be P05.
			switch {
			case strings.EqualFold(a.DisplayName, name):
				return nameClash{holder: a, as: a.DisplayName, what: "name", exact: true}, true
			case strings.EqualFold(a.ID, name):
				return nameClash{holder: a, as: a.ID, what: "id", exact: true}, true
			case found:
			case key.like(m.nameKeyOf(a.DisplayName)):
				alike, found = nameClash{holder: a, as: a.DisplayName, what: "name"}, true
			case key.like(m.nameKeyOf(a.ID)):
				alike, found = nameClash{holder: a, as: a.ID, what: "id"}, true
			}
		}
	}
	return alike, found
}
