package protocol

import (
	"encoding/json"
	"maps"
	"strings"

	"github.com/leaguetui/leaguetui/agents/protocol/internal/wirejson"
)

// A match's messages in one pass. Each match brings a player a
// GAME_INVITATION, a CHOOSE_PARITY_CALL and a GAME_OVER, and its referee
// their GAME_JOIN_ACK and CHOOSE_PARITY_RESPONSE, each decoded by
// encoding/json's reflection after a look for other spellings: a fifth of
// a player's CPU. wirejson.ReadObject reads each in a single walk, in the
// shapes below, and leaves to Decode's general path any message it could
// read otherwise than encoding/json (FuzzMessageOnePass holds the two to
// the same values).
var (
	invitationShape = wirejson.Shape[GameInvitation]{
		Fields: append(envelopeFields(func(m *GameInvitation) *Envelope { return &m.Envelope }),
			stringField("game_type", func(m *GameInvitation) *string { return &m.GameType }),
			stringField("role_in_match", func(m *GameInvitation) *string { return &m.RoleInMatch }),
			stringField("opponent_id", func(m *GameInvitation) *string { return &m.OpponentID }),
			stringField("player_id", func(m *GameInvitation) *string { return &m.PlayerID })),
		Aliases: mergedSpellings(envelopeAliases, invitationAliases),
	}
	moveCallShape = wirejson.Shape[MoveCall]{
		Fields: append(envelopeFields(func(m *MoveCall) *Envelope { return &m.Envelope }),
			stringField("player_id", func(m *MoveCall) *string { return &m.PlayerID }),
			stringField("game_type", func(m *MoveCall) *string { return &m.GameType }),
			wirejson.Field[MoveCall]{Name: "context", Read: func(m *MoveCall, raw []byte) bool {
				return wirejson.ReadObject(raw, &m.Context, &moveContextShape)
			}},
			stringField("deadline", func(m *MoveCall) *string { return &m.Deadline }),
			wirejson.Field[MoveCall]{Name: "move_request", Read: readMoveRequest}),
		Aliases: envelopeAliases.spellings,
	}
	moveContextShape = wirejson.Shape[MoveContext]{
		Fields: []wirejson.Field[MoveContext]{
			stringField("opponent_id", func(c *MoveContext) *string { return &c.OpponentID }),
			{Name: "round_id", Read: func(c *MoveContext, raw []byte) bool { return c.RoundID.UnmarshalJSON(raw) == nil }},
			{Name: "your_standings", Read: func(c *MoveContext, raw []byte) bool {
				return wirejson.ReadObject(raw, &c.YourStandings, &standingShape)
			}},
		},
	}
	standingShape = wirejson.Shape[Standing]{
		Fields: []wirejson.Field[Standing]{
			{Name: "wins", Read: func(s *Standing, raw []byte) bool { return wirejson.ReadInt(raw, &s.Wins) }},
			{Name: "losses", Read: func(s *Standing, raw []byte) bool { return wirejson.ReadInt(raw, &s.Losses) }},
			{Name: "draws", Read: func(s *Standing, raw []byte) bool { return wirejson.ReadInt(raw, &s.Draws) }},
		},
	}
	moveRequestShape = wirejson.Shape[MoveRequest]{
		Fields: []wirejson.Field[MoveRequest]{
			stringField("move_type", func(r *MoveRequest) *string { return &r.MoveType }),
			{Name: "valid_options", Read: func(r *MoveRequest, raw []byte) bool { return json.Unmarshal(raw, &r.ValidOptions) == nil }},
			{Name: "turn", Read: func(r *MoveRequest, raw []byte) bool { return wirejson.ReadInt(raw, &r.Turn) }},
			{Name: "context", Read: func(r *MoveRequest, raw []byte) bool { return json.Unmarshal(raw, &r.Context) == nil }},
		},
	}
	joinAckShape = wirejson.Shape[joinAckRead]{
		Fields: append(envelopeFields(func(m *joinAckRead) *Envelope { return &m.Envelope }),
			stringField("player_id", func(m *joinAckRead) *string { return &m.PlayerID }),
			stringField("arrival_timestamp", func(m *joinAckRead) *string { return &m.ArrivalTimestamp }),
			wirejson.Field[joinAckRead]{Name: "accept", Read: func(m *joinAckRead, raw []byte) bool {
				m.acceptGiven = string(raw) != "null" // null leaves the accept a missing one makes
				return wirejson.ReadBool(raw, &m.Accept)
			}}),
		Aliases: mergedSpellings(envelopeAliases, joinAckAliases),
	}
	moveAnswerShape = wirejson.Shape[MoveAnswer]{
		Fields: append(envelopeFields(func(m *MoveAnswer) *Envelope { return &m.Envelope }),
			stringField("player_id", func(m *MoveAnswer) *string { return &m.PlayerID }),
			stringField("parity_choice", func(m *MoveAnswer) *string { return &m.Choice }),
			wirejson.Field[MoveAnswer]{Name: "model", Read: func(m *MoveAnswer, raw []byte) bool { return json.Unmarshal(raw, &m.Model) == nil }}),
		Aliases: mergedSpellings(envelopeAliases, choiceAliases),
	}
	gameOverShape = wirejson.Shape[GameOver]{
		Fields: append(envelopeFields(func(m *GameOver) *Envelope { return &m.Envelope }),
			stringField("game_type", func(m *GameOver) *string { return &m.GameType }),
			// encoding/json hands the value, null included, to GameResult's own UnmarshalJSON.
			wirejson.Field[GameOver]{Name: "game_result", Read: func(m *GameOver, raw []byte) bool { return m.GameResult.UnmarshalJSON(raw) == nil }},
			stringField("reason", func(m *GameOver) *string { return &m.Reason })),
		Aliases: envelopeAliases.spellings,
	}
)

// envelopeFields are the envelope's fields, for the shape of a message
// that embeds it (env gives the message's envelope).
func envelopeFields[T any](env func(*T) *Envelope) []wirejson.Field[T] {
	str := func(name string, field func(*Envelope) *string) wirejson.Field[T] {
		return stringField(name, func(m *T) *string { return field(env(m)) })
	}
	return []wirejson.Field[T]{
		str("protocol", func(e *Envelope) *string { return &e.Protocol }),
		str("message_type", func(e *Envelope) *string { return &e.MessageType }),
		str("sender", func(e *Envelope) *string { return &e.Sender }),
		str("timestamp", func(e *Envelope) *string { return &e.Timestamp }),
		str("conversation_id", func(e *Envelope) *string { return &e.ConversationID }),
		str("auth_token", func(e *Envelope) *string { return &e.AuthToken }),
		str("league_id", func(e *Envelope) *string { return &e.LeagueID }),
		// encoding/json hands the value, null included, to RoundID's UnmarshalJSON.
		{Name: "round_id", Read: func(m *T, raw []byte) bool { return env(m).RoundID.UnmarshalJSON(raw) == nil }},
		str("match_id", func(e *Envelope) *string { return &e.MatchID }),
	}
}

// stringField reads a string field of a T (a known name without a copy).
func stringField[T any](name string, field func(*T) *string) wirejson.Field[T] {
	return wirejson.Field[T]{Name: name, Read: func(m *T, raw []byte) bool { return readKnownString(raw, field(m)) }}
}

// readMoveRequest reads move_request as encoding/json reads it into its
// pointer: null leaves it nil, an object fills a new one.
func readMoveRequest(m *MoveCall, raw []byte) bool {
	if string(raw) == "null" {
		return true
	}
	var r MoveRequest
	if !wirejson.ReadObject(raw, &r, &moveRequestShape) {
		return false
	}
	m.MoveRequest = &r
	return true
}

// mergedSpellings is the spellings of tables in one map, as canonical
// reads them one table after the other (no two share a key).
func mergedSpellings(tables ...*aliasTable) map[string][]string {
	out := map[string][]string{}
	for _, t := range tables {
		maps.Copy(out, t.spellings)
	}
	return out
}

// decodeOnePass reads msg in one pass where it has a shape, and says
// whether it did.
func decodeOnePass(data []byte, msg Message) bool {
	switch msg := msg.(type) {
	case *GameInvitation:
		return wirejson.ReadObject(data, msg, &invitationShape)
	case *MoveCall:
		return wirejson.ReadObject(data, msg, &moveCallShape)
	case *GameOver:
		return wirejson.ReadObject(data, msg, &gameOverShape)
	case *GameJoinAck:
		var read joinAckRead
		if !wirejson.ReadObject(data, &read, &joinAckShape) {
			return false
		}
		if !read.acceptGiven {
			read.Accept = true // as GameJoinAck.UnmarshalJSON: a player that answered has joined
		}
		*msg = read.GameJoinAck
		return true
	case *MoveAnswer:
		return decodeAnswerOnePass(data, msg)
	case *MatchResultReport:
		return wirejson.ReadObject(data, msg, &reportShape)
	case *StartMatch:
		return wirejson.ReadObject(data, msg, &startMatchShape)
	}
	return false
}

// joinAckRead is a GAME_JOIN_ACK being read, and whether it said whether
// it accepts.
type joinAckRead struct {
	GameJoinAck
	acceptGiven bool
}

// decodeAnswerOnePass reads a move answer that names its choice (a
// GAME_MOVE_RESPONSE's move_data is decodeChoice's), normalized as
// decodeChoice normalizes it.
func decodeAnswerOnePass(data []byte, answer *MoveAnswer) bool {
	if !wirejson.ReadObject(data, answer, &moveAnswerShape) {
		return false
	}
	if answer.Choice == "" {
		*answer = MoveAnswer{} // as it was: ReadObject reads only into a zero answer
		return false
	}
	answer.Choice = strings.ToLower(strings.TrimSpace(answer.Choice))
	return true
}
