package manager

import (
	"crypto/subtle"
	"fmt"
	"slices"
	"strings"

	"github.com/leaguetui/leaguetui/agents/protocol"
	"github.com/leaguetui/leaguetui/engine"
)

// Who a league takes: its own players (Options.Reserved, by name), and
// strangers, every other player. A manager that knows its own (a league
// leaguetui started passes --reserve and --open-seats) takes at most
// Options.OpenSeats strangers, none of them under a name of an id's form.
// A name given a join code (Options.JoinCodes: a roster's external entry,
// one of leaguetui's own built-in players) is taken only with that code.
// No one else goes by a name that looks like a kept one, or like an id
// without being one (names.go).
// A manager started by hand with none of these takes anyone until the
// start, as before.

// newcomerRefusal is why the league refuses a player registering for the
// first time, or "". Call with m.mu held: the seats counted are those of
// the registrations staged so far, so that two registrations at once
// never both take the last seat.
func (m *Manager) newcomerRefusal(meta protocol.AgentMeta) string {
	if refused := m.nameRefusal(meta, engine.RolePlayer); refused != "" {
		return refused
	}
	if m.isOwn(meta.DisplayName) || !m.opts.LimitSeats {
		return ""
	}
	if m.opts.OpenSeats == 0 {
		return "this league has no open seat: it takes only its own players"
	}
	if m.strangers() >= m.opts.OpenSeats {
		return fmt.Sprintf("no open seat is left: this league takes %s beside its own, and all have registered",
			plural(m.opts.OpenSeats, "player"))
	}
	return ""
}

// nameRefusal is why an agent may not go by its display name, or "": a
// player, by the name of an external roster entry without its join code,
// or (a stranger) by a name that looks like one kept for the league's
// own; any agent, by a name that reads as an agent id but is written
// with look-alike characters ("Р01" with a Cyrillic Р, "PO1" with the
// letter O); a stranger, by a name of an id's form in a league that
// knows its own. Names are compared as they look (names.go). Call with
// m.mu held.
func (m *Manager) nameRefusal(meta protocol.AgentMeta, role engine.Role) string {
	name := meta.DisplayName
	if role == engine.RolePlayer {
		if refused := m.joinCodeRefusal(meta); refused != "" {
			return refused
		}
		if m.isOwn(name) {
			return ""
		}
	}
	switch reading := idReading(name); {
	case reading == "":
	case !idShaped(name):
		return fmt.Sprintf("display_name %q has the form of an agent id, %s, written with look-alike characters; choose another name",
			name, reading)
	case role == engine.RolePlayer && m.knowsItsOwn():
		return fmt.Sprintf("display_name %q has the form of an agent id, which only the league's own players may take; choose another name",
			name)
	}
	if role != engine.RolePlayer {
		return ""
	}
	if kept := m.keptLookAlike(name); kept != "" {
		return fmt.Sprintf("display_name %q looks like %q, a name kept for this league's own players; choose another name",
			name, kept)
	}
	return ""
}

// keptLookAlike is the name kept for the league's own players (--reserve,
// and the external entries' of --join-codes) that name looks like without
// being it, or "". Call with m.mu held.
func (m *Manager) keptLookAlike(name string) string {
	if m.keptKeys == nil {
		m.keptKeys = map[string]nameKey{}
		for _, kept := range m.opts.Reserved {
			m.keptKeys[kept] = keyOf(kept)
		}
		for kept := range m.opts.JoinCodes {
			m.keptKeys[kept] = keyOf(kept)
		}
	}
	if len(m.keptKeys) == 0 {
		return ""
	}
	key := keyOf(name)
	var alike []string
	for kept, k := range m.keptKeys {
		if key.like(k) && !strings.EqualFold(kept, name) {
			alike = append(alike, kept)
		}
	}
	if len(alike) == 0 {
		return ""
	}
	slices.Sort(alike) // one name, whatever the map's order
	return alike[0]
}

// joinCodeRefusal is why a newcomer registering under the name of an
// external roster entry may not have it, or "": it must present that
// entry's join code (player_meta.join_code).
func (m *Manager) joinCodeRefusal(meta protocol.AgentMeta) string {
	want, ok := m.opts.JoinCodes.Lookup(meta.DisplayName)
	switch {
	case !ok:
		return ""
	case meta.JoinCode == "":
		return fmt.Sprintf("display_name %q is kept for an external entry of this league's roster: "+
			"register with the join code its organiser gave you (player_meta.join_code)", meta.DisplayName)
	case subtle.ConstantTimeCompare([]byte(meta.JoinCode), []byte(want)) != 1:
		return fmt.Sprintf("player_meta.join_code is not the join code of %q; ask the league's organiser for it", meta.DisplayName)
	}
	return ""
}

// knowsItsOwn says the manager was told who its own players are, or how
// many others it takes: only then is anyone a stranger.
func (m *Manager) knowsItsOwn() bool { return len(m.opts.Reserved) > 0 || m.opts.LimitSeats }

// isOwn says name is one of the league's own players'.
func (m *Manager) isOwn(name string) bool {
	for _, own := range m.opts.Reserved {
		if strings.EqualFold(own, name) {
			return true
		}
	}
	return false
}

// strangers counts the players registered so far that are not the
// league's own. Call with m.mu held.
func (m *Manager) strangers() int {
	n := 0
	for _, p := range m.league.Players() {
		if !m.isOwn(p.DisplayName) {
			n++
		}
	}
	return n
}

// idShaped says name has the form of a player's or a referee's id, in any
// case (P07, ref02).
func idShaped(name string) bool {
	upper := strings.ToUpper(name)
	return isNumbered(upper, "P") || isNumbered(upper, "REF")
}

func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%d %ss", n, word)
}
