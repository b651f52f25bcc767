package protocol

import "github.com/leaguetui/leaguetui/agents/protocol/internal/wirejson"

// START_MATCH in one pass: a referee reads one for every match it runs,
// and its general path (the aliases looked for, then encoding/json's
// reflection) cost it 30 allocations and several times the walk.
// startMatchShape reads it as that path would (FuzzMessageOnePass holds
// the two to the same values) and leaves it to it where it could not.
var startMatchShape = wirejson.Shape[StartMatch]{
	Fields: append(envelopeFields(func(m *StartMatch) *Envelope { return &m.Envelope }),
		stringField("game_type", func(m *StartMatch) *string { return &m.GameType }),
		stringField("referee_id", func(m *StartMatch) *string { return &m.RefereeID }),
		stringField("player_A_id", func(m *StartMatch) *string { return &m.PlayerAID }),
		stringField("player_B_id", func(m *StartMatch) *string { return &m.PlayerBID }),
		stringField("player_A_endpoint", func(m *StartMatch) *string { return &m.PlayerAEndpoint }),
		stringField("player_B_endpoint", func(m *StartMatch) *string { return &m.PlayerBEndpoint }),
		wirejson.Field[StartMatch]{Name: "league_seed", Read: func(m *StartMatch, raw []byte) bool { return wirejson.ReadInt(raw, &m.LeagueSeed) }},
		wirejson.Field[StartMatch]{Name: "standings", Read: func(m *StartMatch, raw []byte) bool {
			return wirejson.ReadMap(raw, &m.Standings, readStanding)
		}},
		stringField("player_A_ticket", func(m *StartMatch) *string { return &m.PlayerATicket }),
		stringField("player_B_ticket", func(m *StartMatch) *string { return &m.PlayerBTicket })),
	Aliases: mergedSpellings(envelopeAliases, announcedMatchAliases),
}

// readStanding reads one player's record as encoding/json reads it into a
// map's value (a fresh Standing); null, which it makes the zero record,
// is left to the general path.
func readStanding(raw []byte, s *Standing) bool {
	return wirejson.ReadObject(raw, s, &standingShape)
}
