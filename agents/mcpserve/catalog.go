package mcpserve

import (
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"sync"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/leaguetui/leaguetui/agents/protocol"
)

// LeagueTool is the MCP tool for one league message type: its name is the
// specification's method name, its arguments are the flat league.v2 message.
type LeagueTool struct {
	Name        string
	MessageType string
	Title       string
	Description string
	ReadOnly    bool
	Schema      *jsonschema.Schema // the message, from its Go type
	Output      *jsonschema.Schema // the answer, from its Go type
	resolved    *jsonschema.Resolved
}

// Validate checks a call's arguments against the tool's input schema. The
// SDK leaves that to tools added with raw schemas, as ours are.
func (t LeagueTool) Validate(args json.RawMessage) error {
	return validate(t.resolved, args)
}

// MCPTool is the tool's definition for an MCP server's tools/list.
func (t LeagueTool) MCPTool() *mcp.Tool {
	return &mcp.Tool{Name: t.Name, Title: t.Title, Description: t.Description, InputSchema: t.Schema,
		OutputSchema: t.Output, Annotations: &mcp.ToolAnnotations{Title: t.Title, ReadOnlyHint: t.ReadOnly}}
}

// ToolFor returns the tool that carries a message type, if there is one.
func ToolFor(messageType string) (LeagueTool, bool) {
	build, ok := catalog[messageType]
	if !ok {
		return LeagueTool{}, false
	}
	return build(), true
}

// toolName is the name of the tool that carries a message type, if there
// is one, without building any schema.
func toolName(messageType string) (string, bool) {
	for _, m := range protocol.Messages {
		if m.Type == messageType && m.Tool != nil {
			return m.ToolName(), true
		}
	}
	return "", false
}

// LeagueTools lists every league tool, whatever agent serves it.
func LeagueTools() []LeagueTool {
	out := make([]LeagueTool, 0, len(catalog))
	for _, build := range catalog {
		out = append(out, build())
	}
	return out
}

// PlayerTools are the tools a referee calls on every player during a match
// of a game whose moves are asked with moveCallType (CHOOSE_PARITY_CALL or
// GAME_MOVE_CALL). A player that lists tools but not these could not finish
// a match.
func PlayerTools(moveCallType string) []string {
	var names []string
	for _, messageType := range []string{protocol.TypeGameInvitation, moveCallType, protocol.TypeGameOver} {
		name, _ := toolName(messageType)
		names = append(names, name)
	}
	return names
}

// catalog maps each league message type an agent may serve to its tool,
// one per entry of protocol.Messages that has a ToolSpec. Each tool's
// schemas are built when first asked for, not at start: an agent serves a
// few of them, perhaps to no MCP client at all (see Server).
var catalog = func() map[string]func() LeagueTool {
	out := map[string]func() LeagueTool{}
	for _, m := range protocol.Messages {
		if m.Tool != nil {
			out[m.Type] = sync.OnceValue(func() LeagueTool { return buildTool(m) })
		}
	}
	return out
}()

// buildTool makes a message's tool with its schemas.
func buildTool(m protocol.MessageSpec) LeagueTool {
	schema := inputSchema(m)
	resolved, err := schema.Resolve(nil)
	if err != nil {
		panic(fmt.Sprintf("mcpserve: schema of %s: %v", m.Type, err)) // a Go type jsonschema cannot describe
	}
	return LeagueTool{Name: m.ToolName(), MessageType: m.Type, Title: m.Tool.Title,
		Description: m.Tool.Description, ReadOnly: m.Tool.ReadOnly, Schema: schema, Output: schemaOf(m.Reply),
		resolved: resolved}
}

// envelopeRequired are the envelope fields every message has
// (protocol.md §2).
var envelopeRequired = []string{"protocol", "message_type", "sender", "timestamp", "conversation_id"}

// inputSchema is a message's schema with its message_type fixed and the
// fields protocol.md §3 requires of it.
func inputSchema(m protocol.MessageSpec) *jsonschema.Schema {
	s := schemaOf(m.Body)
	fix := func(name, value string) {
		prop := *s.Properties[name]
		var v any = value
		prop.Const, prop.Description = &v, "always "+value
		s.Properties[name] = &prop
	}
	fix("protocol", protocol.Version)
	fix("message_type", m.Type)
	s.Required = append(slices.Clone(envelopeRequired), m.Tool.Required...)
	return s
}

// schemaOptions describe the Go types whose JSON is not what their kind says.
var schemaOptions = &jsonschema.ForOptions{TypeSchemas: map[reflect.Type]*jsonschema.Schema{
	// RoundID reads "3" as well as 3.
	reflect.TypeFor[protocol.RoundID](): {AnyOf: []*jsonschema.Schema{{Type: "integer"}, {Type: "string"}}},
	// An interface field holds any value; an empty schema would be written
	// as true, which clients reading properties as objects refuse.
	reflect.TypeFor[any](): {Description: "any JSON value"},
}}

// schemaOf builds the schema of a message's Go type. What it describes is
// what a peer may send, not all it must: objects allow the fields peers add,
// nested fields are optional (the handler decodes them liberally, as on the
// plain JSON-RPC path), and a field that may be null is anyOf its type and
// null, never a type array (which strict MCP clients warn about).
func schemaOf(v any) *jsonschema.Schema {
	s, err := jsonschema.ForType(reflect.TypeOf(v), schemaOptions)
	if err != nil {
		panic(fmt.Sprintf("mcpserve: schema of %T: %v", v, err)) // a Go type jsonschema cannot describe
	}
	return loosen(s)
}

// loosen rewrites a generated schema as schemaOf says, at every depth.
func loosen(s *jsonschema.Schema) *jsonschema.Schema {
	if s == nil {
		return nil
	}
	out := *s
	out.Required = nil
	if (out.Type == "object" || slices.Contains(out.Types, "object")) && out.Properties != nil {
		out.AdditionalProperties = nil // a struct: peers may add fields
	} else {
		out.AdditionalProperties = loosen(out.AdditionalProperties)
	}
	out.Items = loosen(out.Items)
	if out.Properties != nil {
		out.Properties = make(map[string]*jsonschema.Schema, len(s.Properties))
		for name, prop := range s.Properties {
			out.Properties[name] = loosen(prop)
		}
	}
	if out.AnyOf != nil {
		out.AnyOf = make([]*jsonschema.Schema, len(s.AnyOf))
		for i, alt := range s.AnyOf {
			out.AnyOf[i] = loosen(alt)
		}
	}
	return withoutTypeArray(&out)
}

// withoutTypeArray turns {"type": [T, "null"]} into {"anyOf": [{"type": T, …}, {"type": "null"}]}.
func withoutTypeArray(s *jsonschema.Schema) *jsonschema.Schema {
	if len(s.Types) == 0 {
		return s
	}
	alts := make([]*jsonschema.Schema, 0, len(s.Types))
	for _, t := range s.Types {
		if t == "null" {
			continue
		}
		alt := *s
		alt.Types, alt.Type, alt.Description = nil, t, ""
		alts = append(alts, &alt)
	}
	if slices.Contains(s.Types, "null") {
		alts = append(alts, &jsonschema.Schema{Type: "null"})
	}
	return &jsonschema.Schema{Description: s.Description, AnyOf: alts}
}
