package mcpserve

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/leaguetui/leaguetui/agents/protocol"
)

// validate checks raw tool arguments against a resolved schema. Absent
// (or null) arguments are an empty object, so that a tool without required fields
// may be called bare.
func validate(schema *jsonschema.Resolved, args json.RawMessage) error {
	if trimmed := bytes.TrimSpace(args); len(trimmed) == 0 || string(trimmed) == "null" {
		args = json.RawMessage("{}") // none, or null: no arguments, as the SDK reads them
	}
	var instance any
	if err := json.Unmarshal(args, &instance); err != nil {
		return fmt.Errorf("arguments are not JSON: %w", err)
	}
	if _, ok := instance.(map[string]any); !ok {
		return errors.New("arguments must be a JSON object")
	}
	return schema.Validate(instance)
}

// invalidArguments is the answer to arguments that break the schema: a tool
// error the caller can read and correct (MCP 2025-11-25, SEP-1303), not a
// protocol error.
func invalidArguments(tool string, err error) *mcp.CallToolResult {
	return failure(map[string]any{"error": "invalid arguments for " + tool, "details": err.Error()})
}

// success answers with the reply as structuredContent and the same JSON as
// text, for clients that read only content.
func success(reply any) *mcp.CallToolResult {
	return toolResult(reply, false)
}

// failure answers a rejected call the same way, with isError set.
func failure(reply any) *mcp.CallToolResult {
	return toolResult(reply, true)
}

func toolResult(reply any, isError bool) *mcp.CallToolResult {
	raw, err := json.Marshal(reply)
	if err != nil {
		raw, _ = json.Marshal(map[string]string{"error": err.Error()})
		isError = true
	}
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: string(raw)}},
		StructuredContent: json.RawMessage(raw), IsError: isError}
}

// fromResponse turns the league's JSON-RPC response into a tool result: a
// result message is the tool's output, LEAGUE_ERROR and JSON-RPC errors
// (bad params, internal failures) are tool errors.
func fromResponse(body []byte) *mcp.CallToolResult {
	var resp protocol.Response
	if err := json.Unmarshal(body, &resp); err != nil {
		return failure(map[string]string{"error": "unreadable league response: " + err.Error()})
	}
	if resp.Error != nil {
		return failure(resp.Error)
	}
	var probe struct {
		MessageType string `json:"message_type"`
	}
	_ = json.Unmarshal(resp.Result, &probe)
	return toolResult(resp.Result, probe.MessageType == protocol.TypeLeagueError)
}
