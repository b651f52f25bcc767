package protocol

import (
	"context"
	"errors"
	"slices"
	"strings"

	"github.com/segmentio/encoding/json"
)

// Dialect is how a peer frames league messages (protocol.md §9 #1, §1.2):
// which family of method names it uses, and whether the message is flat in
// params, wrapped as params.message (handle_message, mcp_message,
// protocol/message), or an MCP tools/call. We speak to each peer in the
// dialect it used with us.
type Dialect struct {
	Names   Names
	Wrapper string // "" for flat params, else the wrapping method
}

// Names is a family of method names.
type Names int

// The method name families peers use.
const (
	SpecNames  Names = iota // the specification's tool names: handle_game_invitation, choose_parity …
	UpperNames              // the message type itself: GAME_INVITATION
	SnakeNames              // the message type in lower case: game_invitation
)

// wrappers are the methods whose params carry the league message as
// params.message.
var wrappers = []string{methodHandleMsg, methodMCPMsg, methodProtoMsg}

// DialectOf reads the dialect of a message a peer sent us.
func DialectOf(in Inbound) Dialect {
	switch {
	case in.ViaTool:
		return Dialect{Wrapper: MethodToolsCall}
	case isWrapper(in.Method):
		return Dialect{Wrapper: in.Method}
	case slices.Index(SendMethods[in.MessageType], in.Method) == 0:
		return Dialect{} // the specification's name, even where it is also the type in lower case (start_match)
	case in.Method == in.MessageType:
		return Dialect{Names: UpperNames}
	case in.Method == strings.ToLower(in.MessageType):
		return Dialect{Names: SnakeNames}
	}
	return Dialect{}
}

func isWrapper(method string) bool { return slices.Contains(wrappers, method) }

// Form is one way to send a message: the JSON-RPC method and how params
// carry the message.
type Form struct {
	Method  string
	Wrapper string // as in Dialect
	Tool    string // the tool's name when Wrapper is tools/call
}

// FormIn is how a peer of dialect d is sent a message of messageType.
func (d Dialect) FormIn(messageType string) Form {
	spec := messageType
	if names := SendMethods[messageType]; len(names) > 0 {
		spec = names[0]
	}
	switch {
	case d.Wrapper == MethodToolsCall:
		return Form{Method: MethodToolsCall, Wrapper: MethodToolsCall, Tool: spec}
	case d.Wrapper != "":
		return Form{Method: d.Wrapper, Wrapper: d.Wrapper}
	case d.Names == UpperNames:
		return Form{Method: messageType}
	case d.Names == SnakeNames:
		return Form{Method: strings.ToLower(messageType)}
	}
	return Form{Method: spec}
}

// Dialect is the dialect a peer that took this form speaks.
func (f Form) Dialect(messageType string) Dialect {
	in := Inbound{Method: f.Method, MessageType: messageType, ViaTool: f.Wrapper == MethodToolsCall}
	return DialectOf(in)
}

// Params frames msg as this form's params.
func (f Form) Params(msg any) any {
	switch {
	case f.Wrapper == MethodToolsCall:
		return map[string]any{"name": f.Tool, "arguments": msg}
	case f.Wrapper != "":
		return map[string]any{"message": msg}
	}
	return msg
}

// Forms lists the ways to send a message of messageType, in the order a
// client tries them when it knows nothing of the peer: the specification's
// names and the other families, flat; then wrapped in handle_message; then
// MCP tools/call.
func Forms(messageType string) []Form {
	var forms []Form
	for _, name := range SendMethods[messageType] {
		forms = append(forms, Form{Method: name})
	}
	if len(forms) == 0 {
		forms = append(forms, Form{Method: messageType})
	}
	return append(forms, Dialect{Wrapper: methodHandleMsg}.FormIn(messageType),
		Dialect{Wrapper: MethodToolsCall}.FormIn(messageType))
}

// TryAnotherForm reports whether a peer's error says it did not take the
// form of the request rather than the message: method not found (-32601),
// or a -32000 or -32602 naming missing fields, which is how a peer that
// reads only params.message sees a flat message (and the reverse).
func TryAnotherForm(err error) bool {
	var rpcErr *RPCError
	if !errors.As(err, &rpcErr) {
		return false
	}
	switch rpcErr.Code {
	case CodeMethodNotFound:
		return true
	case CodeServerError, CodeInvalidParams:
		return namesMissingFields(rpcErr)
	}
	return false
}

// CodeServerError is the JSON-RPC code peers answer an unreadable message
// with ("Missing required fields").
const CodeServerError = -32000

func namesMissingFields(e *RPCError) bool {
	text := strings.ToLower(e.Message)
	if data, err := json.Marshal(e.Data); err == nil {
		text += " " + strings.ToLower(string(data))
	}
	return strings.Contains(text, "missing") || strings.Contains(text, "required")
}

// viaMCPToolKey marks a context whose request came as an MCP tools/call
// that the MCP SDK unwrapped before the league handlers saw it.
type viaMCPToolKey struct{}

// WithMCPTool marks ctx: its league request came as an MCP tool call.
func WithMCPTool(ctx context.Context) context.Context {
	return context.WithValue(ctx, viaMCPToolKey{}, true)
}

// DialectIn is the dialect of a message a peer sent us, counting a tool
// call the MCP SDK unwrapped (WithMCPTool) as the tools/call dialect.
func DialectIn(ctx context.Context, in Inbound) Dialect {
	if via, _ := ctx.Value(viaMCPToolKey{}).(bool); via {
		return Dialect{Wrapper: MethodToolsCall}
	}
	return DialectOf(in)
}
