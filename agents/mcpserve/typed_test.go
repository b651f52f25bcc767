package mcpserve

import (
	"context"
	"encoding/json"
	"errors"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

type typedIn struct {
	MatchID string `json:"match_id" jsonschema:"the match"`
	Wait    int    `json:"wait,omitempty"`
}

type typedOut struct {
	Accepted bool     `json:"accepted"`
	MatchID  string   `json:"match_id"`
	Legal    []string `json:"legal,omitempty"`
}

func typedHandler(_ context.Context, _ *mcp.CallToolRequest, in typedIn) (typedOut, error) {
	if in.MatchID == "R9M9" {
		return typedOut{}, errors.New("no move is asked in match R9M9")
	}
	return typedOut{Accepted: true, MatchID: in.MatchID, Legal: []string{"even", "odd"}}, nil
}

// session serves one tool, added by add, to an in-memory client.
func typedSession(t *testing.T, add func(*mcp.Server)) *mcp.ClientSession {
	t.Helper()
	server := mcp.NewServer(&mcp.Implementation{Name: "typed", Version: "1"}, nil)
	add(server)
	serverEnd, clientEnd := mcp.NewInMemoryTransports()
	ctx := context.Background()
	if _, err := server.Connect(ctx, serverEnd, nil); err != nil {
		t.Fatal(err)
	}
	client, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil).Connect(ctx, clientEnd, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = client.Close() })
	return client
}

// TestTypedToolAnswersAsTheSDKs: a tool added with AddTypedTool lists the
// same schemas as the SDK's mcp.AddTool derives for the same types, and
// answers every call as the SDK's would: its output as structuredContent
// and text (the text's keys in the fields' order where the SDK sorts
// them), arguments that break the schema (a missing field, one of the
// wrong type, one unknown) and the handler's error as tool errors with
// the same text; and its output holds to its own output schema.
func TestTypedToolAnswersAsTheSDKs(t *testing.T) {
	tool := &mcp.Tool{Name: "submit_move", Description: "Submit a move."}
	sdk := typedSession(t, func(s *mcp.Server) { mcp.AddTool(s, tool, mcp.ToolHandlerFor[typedIn, typedOut](typedHandlerSDK)) })
	ours := typedSession(t, func(s *mcp.Server) { AddTypedTool(s, tool, typedHandler) })
	ctx := context.Background()
	want, err := sdk.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	got, err := ours.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	if w, g := jsonOf(t, want.Tools), jsonOf(t, got.Tools); w != g {
		t.Errorf("tools/list:\n ours %s\n  sdk %s", g, w)
	}
	_, outputSchema := typedSchema[typedOut]("submit_move", "output")
	// Arguments that are no object are refused by both, ours saying so
	// where the SDK quotes its decoder.
	for _, c := range []*mcp.ClientSession{sdk, ours} {
		if res, err := c.CallTool(ctx, &mcp.CallToolParams{Name: "submit_move", Arguments: json.RawMessage(`[1]`)}); err != nil || !res.IsError {
			t.Errorf("arguments [1]: %v, %v, want a tool error", jsonOf(t, res), err)
		}
	}
	for _, args := range []any{
		map[string]any{"match_id": "R1M1"},
		map[string]any{"match_id": "R1M1", "wait": 3},
		map[string]any{},
		map[string]any{"match_id": 7},
		map[string]any{"match_id": "R1M1", "colour": "red"},
		map[string]any{"match_id": "R9M9"},
		nil,
		json.RawMessage(`null`),
	} {
		w, err := sdk.CallTool(ctx, &mcp.CallToolParams{Name: "submit_move", Arguments: args})
		if err != nil {
			t.Fatal(err)
		}
		g, err := ours.CallTool(ctx, &mcp.CallToolParams{Name: "submit_move", Arguments: args})
		if err != nil {
			t.Fatal(err)
		}
		if jsonOf(t, sameText(g)) != jsonOf(t, sameText(w)) {
			t.Errorf("arguments %v:\n ours %s\n  sdk %s", args, jsonOf(t, g), jsonOf(t, w))
		}
		if !g.IsError {
			var out any
			if err := json.Unmarshal([]byte(jsonOf(t, g.StructuredContent)), &out); err != nil || outputSchema.Validate(out) != nil {
				t.Errorf("arguments %v: output %s breaks the output schema: %v", args, jsonOf(t, g.StructuredContent), outputSchema.Validate(out))
			}
		}
	}
}

// sameText is res with each text that is JSON written with sorted keys,
// so that results compare as JSON values.
func sameText(res *mcp.CallToolResult) *mcp.CallToolResult {
	out := *res
	out.Content = nil
	for _, c := range res.Content {
		if text, ok := c.(*mcp.TextContent); ok {
			var v any
			if json.Unmarshal([]byte(text.Text), &v) == nil {
				raw, _ := json.Marshal(v)
				c = &mcp.TextContent{Text: string(raw)}
			}
		}
		out.Content = append(out.Content, c)
	}
	return &out
}

// typedHandlerSDK is typedHandler in the SDK's typed form.
func typedHandlerSDK(ctx context.Context, req *mcp.CallToolRequest, in typedIn) (*mcp.CallToolResult, typedOut, error) {
	out, err := typedHandler(ctx, req, in)
	return nil, out, err
}

func jsonOf(t *testing.T, v any) string {
	t.Helper()
	raw, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(raw)
}
