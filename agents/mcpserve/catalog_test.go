package mcpserve

import (
	"encoding/json"
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
