package manager

import (
	"errors"
	"strings"
	"unicode/utf8"

	"github.com/leaguetui/leaguetui/agents/protocol"
	"github.com/leaguetui/leaguetui/engine"
)

// Limits on what an agent's registration makes the manager keep: each of
// these strings lives as long as the league and goes out in standings and
// round messages, so none may grow the manager or a broadcast at will.
const (
	maxDisplayName = 64 // characters
	maxMetaString  = 64 // bytes of a version or a game type
	maxGameTypes   = 16
)

// checkMeta refuses an agent's metadata the league cannot keep or show
// safely, with E003 (the specification has no code for an invalid field;
// a valid one is what is missing), and writes its endpoint in the one
// spelling that makes one endpoint one agent.
func checkMeta(role engine.Role, meta *protocol.AgentMeta) error {
	endpoint, err := protocol.NormalizeEndpoint(meta.ContactEndpoint)
	if err != nil {
		return protocol.Reject(protocol.ErrMissingField, "%s_meta.contact_endpoint: %v", role, err)
	}
	meta.ContactEndpoint = endpoint
	if err := checkDisplayName(meta.DisplayName); err != nil {
		return protocol.Reject(protocol.ErrMissingField, "%s_meta.display_name %s", role, err)
	}
	if len(meta.GameTypes) > maxGameTypes {
		return protocol.Reject(protocol.ErrMissingField, "%s_meta.game_types lists more than %d games", role, maxGameTypes)
	}
	for _, s := range append([]string{meta.Version, meta.ProtocolVersion}, meta.GameTypes...) {
		if len(s) > maxMetaString || protocol.Printable(s) != s {
			return protocol.Reject(protocol.ErrMissingField, "%s_meta: %q is not a printable string of at most %d bytes",
				role, protocol.Printable(truncate(s, maxMetaString)), maxMetaString)
		}
	}
	return nil
}

// checkDisplayName accepts at most maxDisplayName printable characters of
// valid UTF-8: no control character, no escape sequence, no invisible
// format character. Empty is allowed: the agent's id stands in for it.
func checkDisplayName(name string) error {
	switch {
	case utf8.RuneCountInString(name) > maxDisplayName:
		return errors.New("is longer than 64 characters")
	case protocol.Printable(name) != name:
		return errors.New("holds characters that are not printable (control characters, escape sequences or invalid UTF-8): " +
			protocol.Printable(truncate(name, 4*maxDisplayName)))
	case strings.TrimSpace(name) != name:
		return errors.New("begins or ends with spaces")
	}
	return nil
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}

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
