package mcpserve

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/leaguetui/leaguetui/agents/protocol"
)

// TypedHandler answers a tool call whose arguments are In with Out, or an
// error the caller reads as the tool's (isError, its text the error's).
type TypedHandler[In, Out any] func(ctx context.Context, req *mcp.CallToolRequest, in In) (Out, error)

// AddTypedTool offers t on s with input and output schemas derived from
// In and Out, as mcp.AddTool derives them, and h behind it. It does what
// mcp.AddTool's handler does (arguments checked against the schema, then
// decoded; the output as structuredContent and the same JSON as text; a
// handler's error as the tool's error) for a fraction of its cost: the
// SDK's typed tools decode each call's arguments twice more, each time
// with a 32 KB buffer of their own, and decode their own output again to
// check it against its schema. A seat's client calls two tools a move, so
// that cost is the seat's (docs/benchmark.md); Out is ours, its schema is
// checked in tests instead (TestTypedToolAnswersAsTheSDKs).
func AddTypedTool[In, Out any](s *mcp.Server, t *mcp.Tool, h TypedHandler[In, Out]) {
	input, resolved := typedSchema[In](t.Name, "input")
	output, _ := typedSchema[Out](t.Name, "output")
	tool := *t
	tool.InputSchema, tool.OutputSchema = input, output
	s.AddTool(&tool, func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		args := req.Params.Arguments
		if err := validate(resolved, args); err != nil {
			return toolError(fmt.Errorf("validating \"arguments\": %w", err)), nil
		}
		var in In
		if len(args) > 0 {
			if err := protocol.Unmarshal(args, &in); err != nil {
				return toolError(err), nil
			}
		}
		out, err := h(ctx, req, in)
		if err != nil {
			return toolError(err), nil
		}
		raw, err := protocol.Marshal(out)
		if err != nil {
			return nil, fmt.Errorf("the output of %s: %w", t.Name, err)
		}
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: string(raw)}}, StructuredContent: json.RawMessage(raw)}, nil
	})
}

// typedSchema is T's JSON schema as mcp.AddTool derives it, and the schema
// resolved for validation; a type it cannot describe is a bug in the
// caller, found when the tool is added.
func typedSchema[T any](tool, what string) (*jsonschema.Schema, *jsonschema.Resolved) {
	schema, err := jsonschema.For[T](&jsonschema.ForOptions{})
	if err != nil {
		panic(fmt.Sprintf("mcpserve: %s schema of %s: %v", what, tool, err))
	}
	resolved, err := schema.Resolve(&jsonschema.ResolveOptions{ValidateDefaults: true})
	if err != nil {
		panic(fmt.Sprintf("mcpserve: %s schema of %s: %v", what, tool, err))
	}
	return schema, resolved
}

// toolError is err as the tool's error, as mcp.AddTool's handler gives it.
func toolError(err error) *mcp.CallToolResult {
	var res mcp.CallToolResult
	res.SetError(err)
	return &res
}
