package mcpserve

import (
	"encoding/json"
	"fmt"

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
	Schema      *jsonschema.Schema
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
		Annotations: &mcp.ToolAnnotations{Title: t.Title, ReadOnlyHint: t.ReadOnly}}
}

// ToolFor returns the tool that carries a message type, if there is one.
func ToolFor(messageType string) (LeagueTool, bool) {
	t, ok := catalog[messageType]
	return t, ok
}

// LeagueTools lists every league tool, whatever agent serves it.
func LeagueTools() []LeagueTool {
	out := make([]LeagueTool, 0, len(catalog))
	for _, t := range catalog {
		out = append(out, t)
	}
	return out
}

// PlayerTools are the tools a referee calls on every player during a match
// of a game whose moves are asked with moveCallType (CHOOSE_PARITY_CALL or
// GAME_MOVE_CALL). A player that lists tools but not these could not finish
// a match.
func PlayerTools(moveCallType string) []string {
	return []string{catalog[protocol.TypeGameInvitation].Name, catalog[moveCallType].Name,
		catalog[protocol.TypeGameOver].Name}
}

// catalog maps each league message type an agent may serve to its tool.
var catalog = buildCatalog()

// spec is one catalog entry before its schema is built.
type spec struct {
	name, messageType, title, description string
	readOnly                              bool
	fields                                map[string]*jsonschema.Schema
	required                              []string
}

func buildCatalog() map[string]LeagueTool {
	out := map[string]LeagueTool{}
	for _, s := range specs() {
		schema := envelopeSchema(s.messageType, s.fields, s.required)
		resolved, err := schema.Resolve(nil)
		if err != nil {
			panic(fmt.Sprintf("mcpserve: schema of %s: %v", s.name, err)) // a bug in the table below
		}
		out[s.messageType] = LeagueTool{Name: s.name, MessageType: s.messageType, Title: s.title,
			Description: s.description, ReadOnly: s.readOnly, Schema: schema, resolved: resolved}
	}
	return out
}

// envelopeSchema is the league.v2 envelope (protocol.md §2) plus a message's
// own fields. Extra properties are allowed: peers add their own.
func envelopeSchema(messageType string, fields map[string]*jsonschema.Schema, required []string) *jsonschema.Schema {
	props := map[string]*jsonschema.Schema{
		"protocol":        constant(protocol.Version, "always league.v2"),
		"message_type":    constant(messageType, "always "+messageType+" for this tool"),
		"sender":          str("who sends it: league_manager, referee:<id> or player:<id>"),
		"timestamp":       str("ISO-8601 in UTC, e.g. 2025-01-15T10:00:00Z"),
		"conversation_id": str("one id per conversation; a reply echoes it"),
		"auth_token":      str("the token the sender got at registration (the admin token for admin tools)"),
		"league_id":       str("the league, e.g. league_2025_even_odd"),
		"round_id":        {Types: []string{"integer", "string"}, Description: "the round, 1, 2, …"},
		"match_id":        str("the match, R<round>M<index>, e.g. R1M1"),
	}
	for k, v := range fields {
		props[k] = v
	}
	req := append([]string{"protocol", "message_type", "sender", "timestamp", "conversation_id"}, required...)
	return &jsonschema.Schema{Type: "object", Properties: props, Required: req}
}

func str(description string) *jsonschema.Schema {
	return &jsonschema.Schema{Type: "string", Description: description}
}

func integer(description string) *jsonschema.Schema {
	return &jsonschema.Schema{Type: "integer", Description: description}
}

func boolean(description string) *jsonschema.Schema {
	return &jsonschema.Schema{Type: "boolean", Description: description}
}

func constant(value, description string) *jsonschema.Schema {
	var v any = value
	return &jsonschema.Schema{Type: "string", Const: &v, Description: description}
}

func enum(description string, values ...string) *jsonschema.Schema {
	s := &jsonschema.Schema{Type: "string", Description: description}
	for _, v := range values {
		s.Enum = append(s.Enum, v)
	}
	return s
}

func object(description string, props map[string]*jsonschema.Schema, required ...string) *jsonschema.Schema {
	return &jsonschema.Schema{Type: "object", Description: description, Properties: props, Required: required}
}

func arrayOf(description string, items *jsonschema.Schema) *jsonschema.Schema {
	return &jsonschema.Schema{Type: "array", Description: description, Items: items}
}

func mapOf(description string, values *jsonschema.Schema) *jsonschema.Schema {
	return &jsonschema.Schema{Type: "object", Description: description, AdditionalProperties: values}
}

func nullable(typ, description string) *jsonschema.Schema {
	return &jsonschema.Schema{Types: []string{typ, "null"}, Description: description}
}
