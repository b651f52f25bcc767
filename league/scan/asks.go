package scan

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/leaguetui/leaguetui/agents/protocol"
	"github.com/leaguetui/leaguetui/engine"
)

// toolCallMark opens the tool call in a model's reply as the player keeps
// it (agents/llm): "tool call: NAME ARGUMENTS".
const toolCallMark = "tool call: "

// rethoughtOf finds what went wrong in the asks of a move the player
// asked again (rethinks): every ask but the last whose answer was no legal
// move. They did not end the game, the last ask did.
func rethoughtOf(m move) []Finding {
	var out []Finding
	asks := m.Model.Asks
	for i := 0; i+1 < len(asks); i++ {
		a := asks[i]
		if a.ErrorType == "" {
			continue
		}
		c := askCategory(a, m)
		out = append(out, Finding{Category: c, Move: m.N, Seq: m.Seq, Rethought: true,
			Detail: fmt.Sprintf("ask %d of %d: %s, then asked again: %s", i+1, len(asks), a.ErrorType, quote(a.Reply))})
	}
	return out
}

// askCategory is the category of one ask's error, as classify names a
// move's.
func askCategory(a protocol.ModelAsk, m move) Category {
	switch a.ErrorType {
	case engine.ErrorNoToolCall:
		c, _ := noMove(protocol.ModelMove{Reasoning: &protocol.Reasoning{Reply: a.Reply}})
		return c
	case engine.ErrorInvalidTool:
		return ToolMisuse
	case engine.ErrorInvalidLink:
		if _, ok := nearest(askedPage(a.Reply), m.Legal); ok {
			return NearMiss
		}
		return InvalidLink
	}
	return Other
}

// askedPage is the first string argument of the tool call a reply ends
// with, "" when it has none.
func askedPage(reply string) string {
	i := strings.LastIndex(reply, toolCallMark)
	if i < 0 {
		return ""
	}
	_, raw, _ := strings.Cut(reply[i+len(toolCallMark):], " ")
	var args map[string]any
	if json.Unmarshal([]byte(raw), &args) != nil {
		return ""
	}
	for _, v := range args {
		if s, ok := v.(string); ok {
			return s
		}
	}
	return ""
}
