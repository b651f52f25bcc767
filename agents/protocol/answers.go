package protocol

import (
	"github.com/segmentio/encoding/json"

	"github.com/leaguetui/leaguetui/agents/protocol/internal/wirejson"
	"github.com/leaguetui/leaguetui/engine"
)

// HoldsJoin tells an inline join answer from a mere acknowledgement such
// as {"status":"joined"} that promises a GAME_JOIN_ACK later. The referee
// reads a player's join with it, and `leaguetui check` reads it the same.
// It reads the answer's top-level keys in one pass; what the scanner
// leaves to encoding/json (escaped keys, invalid JSON) is read through a
// map, as it always was (FuzzHoldsJoin holds the two to the same answer).
func HoldsJoin(raw json.RawMessage) bool {
	accept, joinAck := false, false
	if wirejson.ScanObject(raw, func(key, value []byte) bool {
		switch string(key) {
		case "accept", "accepted":
			accept = true
		case "message_type": // the last one counts, as in a map
			joinAck = isJoinAckType(value)
		}
		return true
	}) {
		return accept || joinAck
	}
	return holdsJoinThroughMap(raw)
}

// isJoinAckType reports a message_type value that decodes to
// GAME_JOIN_ACK, in any spelling of the string.
func isJoinAckType(raw []byte) bool {
	if string(raw) == `"`+TypeGameJoinAck+`"` {
		return true
	}
	var messageType string
	return wirejson.ReadString(raw, &messageType) && messageType == TypeGameJoinAck
}

// holdsJoinThroughMap is HoldsJoin through encoding/json and a map.
func holdsJoinThroughMap(raw json.RawMessage) bool {
	var probe map[string]json.RawMessage
	if Unmarshal(raw, &probe) != nil {
		return false
	}
	_, accept := probe["accept"]
	_, accepted := probe["accepted"]
	var mt string
	_ = Unmarshal(probe["message_type"], &mt)
	return accept || accepted || mt == TypeGameJoinAck
}

// ReadMove reads a player's answer to a move call as the referee does,
// liberally (every spelling Decode takes); ok is false when the answer
// holds no move at all (an acknowledgement, a move to be posted later).
// A model player's own failure is the answer's Error.
func ReadMove(raw json.RawMessage) (answer engine.Answer, ok bool) {
	var resp MoveAnswer
	if Decode(raw, &resp) != nil || resp.Choice == "" && !resp.HasMoveData && !resp.Model.Failed() {
		return engine.Answer{}, false
	}
	answer = engine.Answer{MoveType: resp.MoveType, Choice: resp.Choice}
	if resp.Model.Failed() && !resp.Model.Fallback {
		answer.Error = resp.Model.ErrorType // the player's own model failed: the game ends its game
	}
	return answer, true
}

// AnswerField names the field that carries an answer of answerType, for
// errors that say what an answer lacked: a player that answers without it
// is told the field, not only the message it was meant to be.
func AnswerField(answerType string) string {
	switch answerType {
	case TypeChooseParityResponse:
		return "parity_choice"
	case TypeGameMoveResponse:
		return "move_data.choice"
	case TypeGameJoinAck:
		return "accept"
	}
	return ""
}

// MissingAnswer is the sentence for a reply that held no answer of
// answerType: "answered without CHOOSE_PARITY_RESPONSE's parity_choice".
func MissingAnswer(answerType string) string {
	if field := AnswerField(answerType); field != "" {
		return "answered without " + answerType + "'s " + field
	}
	return "answered without " + answerType
}
