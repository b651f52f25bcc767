package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/leaguetui/leaguetui/agents/protocol"
	"github.com/leaguetui/leaguetui/agents/store"
	"github.com/leaguetui/leaguetui/config"
)

// jsonBlocks are the ```json blocks of a markdown page.
func jsonBlocks(page string) []string {
	var out []string
	for _, m := range regexp.MustCompile("(?s)```json\n(.*?)```").FindAllStringSubmatch(page, -1) {
		out = append(out, strings.TrimSpace(m[1]))
	}
	return out
}

// strictDecode decodes raw into a new value of v's type, refusing a field
// the type does not have: an example must not show a field leaguetui does
// not know.
func strictDecode(raw []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	return dec.Decode(reflect.New(reflect.TypeOf(v)).Interface())
}

// checkMessage validates one league message against the message table's
// entry for its type: the envelope, the fields its MCP tool requires, and
// no field its Go type lacks.
func checkMessage(raw json.RawMessage, spec protocol.MessageSpec, goType any, messageType string, isRequest bool) error {
	var f map[string]json.RawMessage
	if err := json.Unmarshal(raw, &f); err != nil {
		return fmt.Errorf("not an object: %v", err)
	}
	var head protocol.Envelope
	_ = json.Unmarshal(raw, &head)
	switch {
	case len(f) == 1 && f["status"] != nil:
		return nil // a bare acknowledgement, which league.v2 allows for notices
	case head.Protocol != protocol.Version:
		return fmt.Errorf("protocol %q", head.Protocol)
	case head.MessageType != messageType:
		return fmt.Errorf("message_type %q, want %q", head.MessageType, messageType)
	case head.Sender == "" || head.ConversationID == "":
		return fmt.Errorf("sender or conversation_id missing")
	}
	if _, utc, err := protocol.ParseTime(head.Timestamp); err != nil || !utc {
		return fmt.Errorf("timestamp %q is not UTC ISO-8601", head.Timestamp)
	}
	if spec.Tool != nil && isRequest {
		for _, name := range spec.Tool.Required {
			if _, ok := f[name]; !ok {
				return fmt.Errorf("%s lacks %s, which the table requires", messageType, name)
			}
		}
	}
	var game struct {
		GameType string `json:"game_type"`
	}
	_ = json.Unmarshal(raw, &game)
	if game.GameType != "" && strings.HasPrefix(head.LeagueID, "league_2025_") && head.LeagueID != config.LeagueIDFor(game.GameType) {
		return fmt.Errorf("league_id %q in a %s league, which leaguetui calls %s", head.LeagueID, game.GameType, config.LeagueIDFor(game.GameType))
	}
	if err := strictDecode(raw, goType); err != nil {
		return fmt.Errorf("%s does not decode as %T: %v", messageType, goType, err)
	}
	return nil
}

// checkExamples validates every JSON example of a page: a request is
// routed by the message table to the type its params name and validated
// as that type; a result is validated as the answer of the request before
// it; a bare message as its own type.
func checkExamples(t *testing.T, name, page string) {
	blocks := jsonBlocks(page)
	if len(blocks) == 0 {
		t.Fatalf("%s has no JSON example", name)
	}
	var last protocol.MessageSpec // the spec of the last request seen
	for i, block := range blocks {
		var frame struct {
			JSONRPC string          `json:"jsonrpc"`
			Method  string          `json:"method"`
			Params  json.RawMessage `json:"params"`
			Result  json.RawMessage `json:"result"`
			ID      json.RawMessage `json:"id"`
			Type    string          `json:"message_type"`
		}
		if err := json.Unmarshal([]byte(block), &frame); err != nil {
			t.Errorf("%s example %d is not JSON: %v\n%s", name, i+1, err, block)
			continue
		}
		var err error
		switch {
		case frame.Method != "":
			in, ok := protocol.Route(frame.Method, frame.Params)
			spec, known := protocol.Spec(in.MessageType)
			if !ok || !known {
				err = fmt.Errorf("method %q routes to no message", frame.Method)
				break
			}
			last = spec
			err = checkMessage(in.Body, spec, spec.Body, spec.Type, true)
		case frame.Result != nil:
			if last.Type == "" {
				err = fmt.Errorf("a result with no request before it")
				break
			}
			var head protocol.Envelope
			_ = json.Unmarshal(frame.Result, &head)
			reply := last.Reply
			if head.MessageType == protocol.TypeLeagueError {
				reply = protocol.LeagueError{} // a refusal answers any request
			}
			err = checkMessage(frame.Result, last, reply, head.MessageType, false)
			if err == nil && head.MessageType != "" && !slices.Contains(answerTypes(last), head.MessageType) {
				err = fmt.Errorf("%s is no answer to %s", head.MessageType, last.Type)
			}
		case frame.Type != "":
			spec, known := protocol.Spec(frame.Type)
			if !known {
				err = fmt.Errorf("message_type %q is not in the table", frame.Type)
				break
			}
			err = checkMessage([]byte(block), spec, spec.Body, spec.Type, true)
		case strings.Contains(block, `"command"`):
			continue // a roster entry (roster.md), not a message
		case strings.Contains(block, `"mcp_url"`):
			// The data folder's seats.json (MCP-client seats), read as
			// its Go type reads it.
			dec := json.NewDecoder(strings.NewReader(block))
			dec.DisallowUnknownFields()
			err = dec.Decode(&store.SeatsFile{})
		default:
			err = fmt.Errorf("neither a request, a result nor a league message")
		}
		if err == nil && frame.JSONRPC != "" && frame.JSONRPC != "2.0" {
			err = fmt.Errorf("jsonrpc %q", frame.JSONRPC)
		}
		if err != nil {
			t.Errorf("%s example %d: %v\n%s", name, i+1, err, block)
		}
	}
}

// answerTypes are the message types that may answer spec's message.
func answerTypes(spec protocol.MessageSpec) []string {
	types := []string{replyType(spec), protocol.TypeLeagueError}
	if spec.Type == protocol.TypeLeagueRegisterRequest || spec.Type == protocol.TypeRefereeRegisterRequest {
		types = append(types, protocol.TypeLeagueRegisterResponse, protocol.TypeRefereeRegisterResponse)
	}
	return types
}

// TestJoiningExamplesAreValidMessages: every example message of
// joining.md is one the message table routes and its Go type reads
// without an unknown field.
func TestJoiningExamplesAreValidMessages(t *testing.T) {
	page, err := os.ReadFile("../../docs/joining.md")
	if err != nil {
		t.Fatal(err)
	}
	checkExamples(t, "joining.md", string(page))
}

// TestProtocolExamplesAreValidMessages: the same of every example the
// generator writes into protocol.md.
func TestProtocolExamplesAreValidMessages(t *testing.T) {
	checkExamples(t, "protocol.md", string(Generate()))
}

// TestPlayerMetaHasNoRefereeField: the player's registration lists no
// field only a referee declares, and the link race's move call shows a
// link race turn.
func TestPlayerMetaHasNoRefereeField(t *testing.T) {
	doc := string(Generate())
	for _, field := range notUnder["player_meta"] {
		if strings.Contains(doc, "`player_meta."+field+"`") {
			t.Errorf("player_meta.%s is listed: only a referee declares it", field)
		}
		if !strings.Contains(doc, "`referee_meta."+field+"`") {
			t.Errorf("referee_meta.%s is not listed", field)
		}
	}
	section := doc[strings.Index(doc, "### GAME_MOVE_CALL"):]
	section = section[:strings.Index(section[1:], "\n### ")]
	for _, want := range []string{`"game_type": "link_race"`, `"move_type": "navigate"`, `"links": [`} {
		if !strings.Contains(section, want) {
			t.Errorf("GAME_MOVE_CALL's example lacks %s", want)
		}
	}
}
