package scan

import (
	"encoding/json"
	"strings"

	"github.com/leaguetui/leaguetui/agents/protocol"
	"github.com/leaguetui/leaguetui/engine"
)

// move is one model move of a player as its match file has it: the
// player's answer with its model block, beside the call it answered.
type move struct {
	N        int // the player's answer, 1 for its first
	Seq      int // the answer's transcript entry
	MoveType string
	Chosen   string // the move it answered with, "" for none
	Model    protocol.ModelMove
	Legal    []string // the call's legal moves: its valid_options, or a race's links
	Path     []string // a race's path so far, the current page last
	Current  string   // a race's current page
}

// movesOf reads player's model moves from the transcript. The referee
// wrote from and to, so an answer is the player's whatever its content
// claims; its model block is the player's own word, taken as such.
func movesOf(f *protocol.MatchFile, player string) []move {
	var moves []move
	var call map[string]any
	answers := 0
	for _, e := range f.Transcript {
		switch {
		case e.To == "player:"+player && moveRequestOf(e.Content) != nil:
			call = e.Content
		case e.From == "player:"+player && isAnswer(e.MessageType):
			answers++
			mm, ok := modelOf(e.Content)
			if !ok {
				continue
			}
			m := move{N: answers, Seq: e.Seq, Chosen: choiceOf(e.Content), Model: mm}
			m.readCall(call)
			moves = append(moves, m)
		}
	}
	return moves
}

// isAnswer: the message type is a move answer (CHOOSE_PARITY_RESPONSE,
// GAME_MOVE_RESPONSE).
func isAnswer(messageType string) bool { return strings.HasSuffix(messageType, "_RESPONSE") }

func moveRequestOf(content map[string]any) map[string]any {
	request, _ := content["move_request"].(map[string]any)
	return request
}

// modelOf decodes an answer's model block.
func modelOf(content map[string]any) (protocol.ModelMove, bool) {
	var mm protocol.ModelMove
	block, ok := content["model"].(map[string]any)
	if !ok {
		return mm, false
	}
	raw, err := json.Marshal(block)
	if err != nil || json.Unmarshal(raw, &mm) != nil {
		return mm, false
	}
	return mm, true
}

// choiceOf is an answer's move: a GAME_MOVE_RESPONSE's move_data.choice
// or a CHOOSE_PARITY_RESPONSE's parity_choice.
func choiceOf(content map[string]any) string {
	if data, ok := content["move_data"].(map[string]any); ok {
		choice, _ := data["choice"].(string)
		return choice
	}
	choice, _ := content["parity_choice"].(string)
	return choice
}

// readCall reads what the call that asked for m showed the player.
func (m *move) readCall(call map[string]any) {
	request := moveRequestOf(call)
	if request == nil {
		return
	}
	m.MoveType, _ = request["move_type"].(string)
	m.Legal = engine.StringsOf(request["valid_options"])
	state, _ := request["context"].(map[string]any)
	if len(m.Legal) == 0 {
		m.Legal = engine.StringsOf(state["links"])
	}
	m.Path = engine.StringsOf(state["path"])
	m.Current, _ = state["current_page"].(string)
}

// gameErrorCodes are the codes of the GAME_ERRORs the referee sent player
// (E001: it did not answer in time).
func gameErrorCodes(f *protocol.MatchFile, player string) []string {
	var codes []string
	for _, e := range f.Transcript {
		if e.To == "player:"+player && e.MessageType == protocol.TypeGameError {
			code, _ := e.Content["error_code"].(string)
			codes = append(codes, code)
		}
	}
	return codes
}
