package protocol

import "sort"

// FieldSpelling is a field of one message part that other implementations
// spell other ways, all of which the liberal decoders accept
// (protocol.md §8): the documentation's list of them is made from this.
type FieldSpelling struct {
	Part   string   // the message part, e.g. "envelope"
	Field  string   // the canonical key
	Others []string // the other spellings, the first present wins
}

// FieldSpellings lists every alias table of the liberal decoders, by
// part, then field.
func FieldSpellings() []FieldSpelling {
	parts := []struct {
		name  string
		table *aliasTable
	}{
		{"envelope", envelopeAliases}, {"player_meta / referee_meta", agentMetaAliases},
		{"ROUND_ANNOUNCEMENT matches[]", announcedMatchAliases}, {"GAME_JOIN_ACK", joinAckAliases},
		{"CHOOSE_PARITY_RESPONSE", choiceAliases}, {"GAME_OVER game_result", gameResultAliases},
		{"MATCH_RESULT_REPORT result", reportResultAlias}, {"*_REGISTER_RESPONSE", registerRespAlias},
		{"GAME_INVITATION", invitationAliases}, {"LEAGUE_QUERY", leagueQueryAliases},
	}
	var out []FieldSpelling
	for _, p := range parts {
		var fields []string
		for f := range p.table.spellings {
			fields = append(fields, f)
		}
		sort.Strings(fields)
		for _, f := range fields {
			out = append(out, FieldSpelling{Part: p.name, Field: f, Others: p.table.spellings[f]})
		}
	}
	return out
}

// WrapperMethods are the methods whose params carry a league message
// inside, which routing unwraps: MCP tools/call (params.arguments),
// league.handle ({envelope, payload}), and params.message under the rest.
func WrapperMethods() []string {
	return append([]string{MethodToolsCall, methodLeague}, wrappers...)
}

//go:generate go run ../../internal/protogen
