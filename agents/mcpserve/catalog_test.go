package mcpserve

import (
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"testing"

	"github.com/leaguetui/leaguetui/agents/protocol"
)

// Tool names are what our own client calls with tools/call (the first of
// protocol.SendMethods), valid MCP names, and unique.
func TestCatalogNamesMatchWhatClientsCall(t *testing.T) {
	valid := regexp.MustCompile(`^[A-Za-z0-9_.-]{1,128}$`)
	seen := map[string]bool{}
	for _, tool := range LeagueTools() {
		if !valid.MatchString(tool.Name) || seen[tool.Name] {
			t.Errorf("tool name %q is invalid or repeated", tool.Name)
		}
		seen[tool.Name] = true
		if methods, ok := protocol.SendMethods[tool.MessageType]; ok && methods[0] != tool.Name {
			t.Errorf("%s: tool %q, but clients call %q", tool.MessageType, tool.Name, methods[0])
		}
	}
	for _, call := range []string{protocol.TypeChooseParityCall, protocol.TypeGameMoveCall} {
		for _, name := range PlayerTools(call) {
			if !seen[name] {
				t.Errorf("player tool %q is not in the catalog", name)
			}
		}
	}
}

// Messages shaped as our agents send them pass their tool's schema; the
// schema refuses a message of another type and one without its fields.
func TestCatalogSchemasAcceptOurMessages(t *testing.T) {
	inv := &protocol.GameInvitation{Envelope: protocol.NewEnvelope(protocol.TypeGameInvitation, "referee:REF01", "c"),
		GameType: "even_odd", RoleInMatch: protocol.RolePlayerB, OpponentID: "P01", PlayerID: "P02"}
	inv.MatchID, inv.RoundID = "R1M1", 1
	tool, _ := ToolFor(protocol.TypeGameInvitation)
	raw, _ := json.Marshal(inv)
	if err := tool.Validate(raw); err != nil {
		t.Fatalf("our GAME_INVITATION: %v", err)
	}
	inv.MessageType = protocol.TypeGameOver
	raw, _ = json.Marshal(inv)
	if tool.Validate(raw) == nil {
		t.Error("a GAME_OVER passed handle_game_invitation's schema")
	}
	if tool.Validate(json.RawMessage(`{"protocol":"league.v2"}`)) == nil {
		t.Error("a bare envelope passed handle_game_invitation's schema")
	}
	for _, args := range []string{``, `null`, `[]`, `"x"`} {
		if tool.Validate(json.RawMessage(args)) == nil {
			t.Errorf("arguments %q passed", args)
		}
	}
}

func TestMissing(t *testing.T) {
	got := Missing([]string{"a", "c"}, []string{"a", "b", "c", "d"})
	if !slices.Equal(got, []string{"b", "d"}) {
		t.Fatalf("Missing: %v", got)
	}
}

// Every tool's input and output schema gives each field's type as one
// type or anyOf, never as an array of types, which strict MCP clients
// (the Inspector's strict mode) warn about.
func TestSchemasHaveNoTypeArrays(t *testing.T) {
	for _, tool := range LeagueTools() {
		def := tool.MCPTool()
		if def.OutputSchema == nil {
			t.Errorf("%s has no output schema", tool.Name)
		}
		for what, schema := range map[string]any{"input": def.InputSchema, "output": def.OutputSchema} {
			raw, err := json.Marshal(schema)
			if err != nil {
				t.Fatal(err)
			}
			var doc any
			if err := json.Unmarshal(raw, &doc); err != nil {
				t.Fatal(err)
			}
			for _, path := range typeArrays(doc, "") {
				t.Errorf("%s's %s schema gives a type array at %s", tool.Name, what, path)
			}
		}
	}
}

// typeArrays lists where a decoded JSON schema has "type": [...].
func typeArrays(v any, path string) []string {
	var out []string
	switch v := v.(type) {
	case map[string]any:
		if _, isArray := v["type"].([]any); isArray {
			out = append(out, path+"/type")
		}
		for k, inner := range v {
			out = append(out, typeArrays(inner, path+"/"+k)...)
		}
	case []any:
		for i, inner := range v {
			out = append(out, typeArrays(inner, fmt.Sprintf("%s/%d", path, i))...)
		}
	}
	return out
}

// The catalog is derived from protocol.Messages: every entry with a tool
// spec has its tool, named by the method our clients call first, and routed
// back to its message type.
func TestCatalogCoversTheMessageTable(t *testing.T) {
	for _, m := range protocol.Messages {
		tool, ok := ToolFor(m.Type)
		if ok != (m.Tool != nil) {
			t.Errorf("%s: tool %v, spec %v", m.Type, ok, m.Tool != nil)
			continue
		}
		if !ok {
			continue
		}
		if tool.Name != m.ToolName() || protocol.TypeForMethod(tool.Name) != m.Type {
			t.Errorf("%s: tool %q routes to %q", m.Type, tool.Name, protocol.TypeForMethod(tool.Name))
		}
		if c := tool.Schema.Properties["message_type"].Const; c == nil || *c != m.Type {
			t.Errorf("%s: message_type const %v", m.Type, c)
		}
	}
}
