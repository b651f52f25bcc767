package protocol

import (
	"bytes"
	"slices"
	"strings"

	"github.com/segmentio/encoding/json"

	"github.com/leaguetui/leaguetui/agents/protocol/internal/wirejson"
)

// methodTypes maps every method name peers use to the message type it
// carries, from Messages. Dispatch prefers the message's own message_type;
// this table is the fallback when a peer leaves it out.
var methodTypes = func() map[string]string {
	out := map[string]string{}
	for _, m := range Messages {
		for _, method := range append(slices.Clone(m.Methods), m.Also...) {
			out[method] = m.Type
		}
	}
	return out
}()

// messageTypeAliases: message types peers send under another message_type.
var messageTypeAliases = func() map[string]string {
	out := map[string]string{}
	for _, m := range Messages {
		for _, alias := range m.TypeAliases {
			out[alias] = m.Type
		}
	}
	return out
}()

// SendMethods lists, per message type, the method names we try in order: the
// specification's first, then what peers serve instead. A client moves to the
// next one on -32601 and remembers per endpoint which worked (protocol.md §9 #1).
var SendMethods = func() map[string][]string {
	out := map[string][]string{}
	for _, m := range Messages {
		if len(m.Methods) > 0 {
			out[m.Type] = m.Methods
		}
	}
	return out
}()

// Wrapper methods whose params carry the league message somewhere inside.
const (
	MethodToolsCall = "tools/call"
	methodMCPMsg    = "mcp_message"
	methodProtoMsg  = "protocol/message"
	methodHandleMsg = "handle_message"
	methodLeague    = "league.handle"
)

// Inbound is a league message as the server routed it.
type Inbound struct {
	Method      string          // the JSON-RPC method as sent
	MessageType string          // the message type it was routed to
	Body        json.RawMessage // the flat league message
	ViaTool     bool            // came as MCP tools/call: answer in MCP form

	// Read from the message while routing it, so that checking its
	// protocol and answering it need no second look at the body.
	Protocol       string
	ConversationID string
}

// Route finds the league message inside a request and the message type to
// dispatch on (protocol.md §8, "Dispatch key order"). ok is false when
// nothing identifies a message type we know.
func Route(method string, params json.RawMessage) (Inbound, bool) {
	return route(method, params, nil)
}

// route is Route with the head of params when the caller read it already
// (Request.Route): it serves when params is the message itself.
func route(method string, params json.RawMessage, paramsHead *head) (Inbound, bool) {
	in := Inbound{Method: method, Body: params}
	name := method
	switch method {
	case MethodToolsCall:
		var call struct {
			Name      string          `json:"name"`
			Arguments json.RawMessage `json:"arguments"`
		}
		_ = Unmarshal(params, &call)
		in.ViaTool, in.Body, name = true, call.Arguments, call.Name
	case methodMCPMsg, methodProtoMsg, methodHandleMsg:
		var wrapped struct {
			Message json.RawMessage `json:"message"`
		}
		if Unmarshal(params, &wrapped) == nil && len(wrapped.Message) > 0 {
			in.Body = wrapped.Message
		}
	case methodLeague:
		in.Body = mergeEnvelopePayload(params)
	default:
		if paramsHead != nil { // params is the message, its head read already
			return routed(in, name, *paramsHead)
		}
	}
	if len(in.Body) == 0 {
		in.Body = json.RawMessage("{}")
	}
	return routed(in, name, readHead(in.Body))
}

// routed completes the routing of a message whose head is h, sent under
// the method (or tool) name.
func routed(in Inbound, name string, h head) (Inbound, bool) {
	in.MessageType, in.Protocol, in.ConversationID = h.messageType(), h.Protocol, h.ConversationID
	if in.MessageType == "" {
		in.MessageType = TypeForMethod(name)
	}
	return in, in.MessageType != ""
}

// TypeForMethod maps a method name to its message type: the alias table,
// then the method read as a message type in any case ("GAME_INVITATION",
// "game_invitation").
func TypeForMethod(method string) string {
	if t, ok := methodTypes[method]; ok {
		return t
	}
	return canonicalType(strings.ToUpper(method))
}

// head is what routing reads of a league message: its type, in either
// spelling, and the envelope fields the server itself needs.
type head struct {
	MessageType    string `json:"message_type"`
	Type           string `json:"type"`
	Protocol       string `json:"protocol"`
	ConversationID string `json:"conversation_id"`
}

// readHead decodes the head of body; a body that is not an object, or whose
// head fields are not strings, has none (the handler's decoding reports it).
// scanHead reads it in one pass where it can; encoding/json otherwise.
func readHead(body json.RawMessage) head {
	if h, ok := scanHead(body); ok {
		return h
	}
	return decodeHead(body)
}

// scanHead reads the head of a JSON object in one pass, skipping every
// other value without decoding it: routing needs four strings of a message
// that may carry a whole standings table. It reads the way json.Unmarshal
// into head does (see headReader; invalid JSON has no head either). ok is
// false where it leaves the answer to encoding/json (see
// wirejson.ScanObject).
func scanHead(body []byte) (h head, ok bool) {
	var r headReader
	ok = wirejson.ScanObject(body, func(key, raw []byte) bool {
		r.take(key, raw)
		return true
	})
	return r.head(), ok
}

// headReader gathers a message's head from its top-level members as
// json.Unmarshal into head reads them: keys in any case, the last of a
// repeated key winning, a head field that is neither a string nor null
// leaving no head at all. It is the one place these rules are written:
// scanHead and the request scan (scanRequest) both feed it.
type headReader struct {
	h         head
	notString bool
}

func (r *headReader) take(key, raw []byte) {
	if field := r.h.field(key); field != nil {
		r.notString = r.notString || !wirejson.ReadString(raw, field)
	}
}

func (r *headReader) head() head {
	if r.notString {
		return head{} // json.Unmarshal fails on a head field that is not a string
	}
	return r.h
}

// field is where the value under key goes, or nil for a key routing does
// not read. Keys match in any case, as encoding/json matches them.
func (h *head) field(key []byte) *string {
	switch {
	case bytes.EqualFold(key, []byte("message_type")):
		return &h.MessageType
	case bytes.EqualFold(key, []byte("type")):
		return &h.Type
	case bytes.EqualFold(key, []byte("protocol")):
		return &h.Protocol
	case bytes.EqualFold(key, []byte("conversation_id")):
		return &h.ConversationID
	}
	return nil
}

func decodeHead(body json.RawMessage) head {
	var h head
	if Unmarshal(body, &h) != nil {
		return head{}
	}
	return h
}

func (h head) messageType() string {
	if t := canonicalType(strings.ToUpper(h.MessageType)); t != "" {
		return t
	}
	return canonicalType(strings.ToUpper(h.Type))
}

func canonicalType(t string) string {
	if alias, ok := messageTypeAliases[t]; ok {
		return alias
	}
	if _, ok := specs[t]; ok {
		return t
	}
	return ""
}

// mergeEnvelopePayload flattens the league.handle form {envelope:{…}, payload:{…}}.
func mergeEnvelopePayload(params json.RawMessage) json.RawMessage {
	var parts struct {
		Envelope map[string]json.RawMessage `json:"envelope"`
		Payload  map[string]json.RawMessage `json:"payload"`
	}
	if Unmarshal(params, &parts) != nil || parts.Envelope == nil {
		return params
	}
	for k, v := range parts.Payload {
		parts.Envelope[k] = v
	}
	flat, err := json.Marshal(parts.Envelope)
	if err != nil {
		return params
	}
	return flat
}

// ToolResult wraps a reply the way MCP tools/call answers: the message as
// structuredContent and the same JSON as one text block.
func ToolResult(reply any, isError bool) (map[string]any, error) {
	raw, err := json.Marshal(reply)
	if err != nil {
		return nil, err
	}
	return map[string]any{
		"content":           []map[string]string{{"type": "text", "text": string(raw)}},
		"structuredContent": json.RawMessage(raw),
		"isError":           isError,
	}, nil
}
