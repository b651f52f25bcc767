package protocol

import "github.com/leaguetui/leaguetui/agents/protocol/internal/wirejson"

// knownStrings are the protocol's own names, each held once: message
// types, method names, the protocol and JSON-RPC versions, seats, the
// game and its moves, outcomes and statuses. A match's messages carry a
// dozen of them, and a decoder copying each out of a body it only
// borrows made a string of each, on every request.
var knownStrings = func() map[string]string {
	out := map[string]string{}
	add := func(names ...string) {
		for _, name := range names {
			out[name] = name
		}
	}
	for _, m := range Messages {
		add(m.Type)
		add(m.Methods...)
		add(m.Also...)
		add(m.TypeAliases...)
	}
	add(Version, "2.0", MethodToolsCall, methodMCPMsg, methodProtoMsg, methodHandleMsg, methodLeague,
		RolePlayerA, RolePlayerB, StatusAccepted, StatusRejected,
		"even_odd", "even", "odd", "choose_parity", "WIN", "DRAW", "TECHNICAL_LOSS", "LOSS",
		"invited", "joined", "choosing", "technical loss") // a referee's steps
	return out
}()

// readKnownString is wirejson.ReadString, giving a value that is one of
// knownStrings the string held for it rather than a copy. The same value,
// the same answer: a known string is plain ASCII with no escape, so the
// bytes between the quotes are what it decodes to.
func readKnownString(raw []byte, dst *string) bool {
	if n := len(raw); n >= 2 && raw[0] == '"' && raw[n-1] == '"' {
		if known, ok := knownStrings[string(raw[1:n-1])]; ok {
			*dst = known
			return true
		}
	}
	return wirejson.ReadString(raw, dst)
}
