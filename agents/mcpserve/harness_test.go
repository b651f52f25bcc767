package mcpserve_test

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"slices"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/leaguetui/leaguetui/agents/manager"
	"github.com/leaguetui/leaguetui/agents/mcpserve"
	"github.com/leaguetui/leaguetui/agents/node"
	"github.com/leaguetui/leaguetui/agents/player"
	"github.com/leaguetui/leaguetui/agents/protocol"
	"github.com/leaguetui/leaguetui/agents/referee"
	"github.com/leaguetui/leaguetui/agents/rpc"
	"github.com/leaguetui/leaguetui/config"
	"github.com/leaguetui/leaguetui/internal/leaguetest"
)

// Real agents started in-process on 127.0.0.1:0, each stopped at the end of
// the test that started it.

const adminToken = "adm-test-token"

func testConfig() config.Config {
	cfg := config.Default()
	cfg.Retry.InitialDelay = 50 * time.Millisecond
	return cfg
}

func testContext(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	t.Cleanup(cancel)
	return ctx
}

func startManager(t *testing.T, dataDir string) *manager.Manager {
	t.Helper()
	m, err := manager.New(manager.Options{Config: testConfig(), DataDir: dataDir, Seed: 42, SeedSet: true, AdminToken: adminToken,
		RefereeKey: leaguetest.RefereeKey})
	if err != nil {
		t.Fatal(err)
	}
	m.Stdout = io.Discard
	serveAgent(t, m)
	return m
}

func startReferee(t *testing.T, dataDir, managerURL, name string) *referee.Referee {
	t.Helper()
	r, err := referee.New(referee.Options{Config: testConfig(), DataDir: dataDir, ManagerURL: managerURL, Name: name,
		Key: leaguetest.RefereeKey})
	if err != nil {
		t.Fatal(err)
	}
	r.Stdout = io.Discard
	serveAgent(t, r)
	return r
}

func startPlayer(t *testing.T, dataDir, managerURL, name string) *player.Player {
	t.Helper()
	p, err := player.New(player.Options{Config: testConfig(), DataDir: dataDir, ManagerURL: managerURL, Name: name,
		Strategy: "random", Seed: 7})
	if err != nil {
		t.Fatal(err)
	}
	p.Stdout = io.Discard
	serveAgent(t, p)
	return p
}

// serveAgent starts an agent and shuts it down when the test ends.
func serveAgent(t *testing.T, a node.Agent) {
	t.Helper()
	if err := a.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = a.Shutdown(shutdownContext(t)) })
}

func shutdownContext(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	t.Cleanup(cancel)
	return ctx
}

// connect opens an SDK client session (initialize included) with an agent.
func connect(t *testing.T, endpoint string) *mcp.ClientSession {
	t.Helper()
	session, err := mcpserve.Connect(testContext(t), endpoint)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = session.Close() })
	return session
}

// listTools lists an agent's tools and checks each has an object schema
// that requires the league.v2 envelope (league tools) or is an object
// (read-only views).
func listTools(t *testing.T, session *mcp.ClientSession) []string {
	t.Helper()
	res, err := session.ListTools(testContext(t), nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tool := range res.Tools {
		names = append(names, tool.Name)
		schema, _ := tool.InputSchema.(map[string]any)
		if schema["type"] != "object" {
			t.Errorf("tool %s: inputSchema type %v, want object", tool.Name, schema["type"])
		}
		if _, league := leagueTool(tool.Name); league && !requiresEnvelope(schema) {
			t.Errorf("tool %s: inputSchema does not require the league.v2 envelope: %v", tool.Name, schema["required"])
		}
	}
	slices.Sort(names)
	return names
}

func leagueTool(name string) (mcpserve.LeagueTool, bool) {
	for _, tool := range mcpserve.LeagueTools() {
		if tool.Name == name {
			return tool, true
		}
	}
	return mcpserve.LeagueTool{}, false
}

func requiresEnvelope(schema map[string]any) bool {
	required, _ := schema["required"].([]any)
	for _, field := range []string{"protocol", "message_type", "sender", "timestamp", "conversation_id"} {
		if !slices.Contains(required, any(field)) {
			return false
		}
	}
	return true
}

// call calls a tool and returns its result; the text content must be the
// same JSON as structuredContent.
func call(t *testing.T, session *mcp.ClientSession, name string, args any) (*mcp.CallToolResult, map[string]any) {
	t.Helper()
	res, err := session.CallTool(testContext(t), &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	var fromText map[string]any
	if len(res.Content) != 1 {
		t.Fatalf("%s: %d content blocks, want 1", name, len(res.Content))
	}
	text, ok := res.Content[0].(*mcp.TextContent)
	if !ok || json.Unmarshal([]byte(text.Text), &fromText) != nil {
		t.Fatalf("%s: content is not JSON text: %#v", name, res.Content[0])
	}
	structured, _ := json.Marshal(res.StructuredContent)
	var fromStructured map[string]any
	_ = json.Unmarshal(structured, &fromStructured)
	if !jsonEqual(fromText, fromStructured) {
		t.Errorf("%s: text %v differs from structuredContent %v", name, fromText, fromStructured)
	}
	return res, fromStructured
}

// callOK calls a tool that must succeed and returns the reply message.
func callOK(t *testing.T, session *mcp.ClientSession, name string, args any) map[string]any {
	t.Helper()
	res, reply := call(t, session, name, args)
	if res.IsError {
		t.Fatalf("%s: isError: %v", name, reply)
	}
	return reply
}

// callFails calls a tool that must answer with isError and returns the reply.
func callFails(t *testing.T, session *mcp.ClientSession, name string, args any) map[string]any {
	t.Helper()
	res, reply := call(t, session, name, args)
	if !res.IsError {
		t.Fatalf("%s: want isError, got %v", name, reply)
	}
	return reply
}

// unknownTool checks that calling a tool the agent lacks is a protocol error.
func unknownTool(t *testing.T, session *mcp.ClientSession) {
	t.Helper()
	_, err := session.CallTool(testContext(t), &mcp.CallToolParams{Name: "no_such_tool", Arguments: map[string]any{}})
	var wire *mcpWireError
	if err == nil || !errors.As(err, &wire) || wire.Code != protocol.CodeInvalidParams {
		t.Fatalf("unknown tool: got %v, want JSON-RPC error %d", err, protocol.CodeInvalidParams)
	}
}

func jsonEqual(a, b any) bool {
	x, _ := json.Marshal(a)
	y, _ := json.Marshal(b)
	return string(x) == string(y)
}

// message builds a league message's arguments: the envelope plus fields.
func message(messageType, sender string, fields map[string]any) map[string]any {
	env := protocol.NewEnvelope(messageType, sender, "conv-test-"+messageType)
	raw, _ := json.Marshal(env)
	var out map[string]any
	_ = json.Unmarshal(raw, &out)
	for k, v := range fields {
		out[k] = v
	}
	return out
}

// without copies args leaving out keys.
func without(args map[string]any, keys ...string) map[string]any {
	out := map[string]any{}
	for k, v := range args {
		if !slices.Contains(keys, k) {
			out[k] = v
		}
	}
	return out
}

// plainPeer is an agent that speaks only league JSON-RPC, as most peers do:
// an rpc.Server with no MCP mounted.
func plainPeer(t *testing.T) string {
	t.Helper()
	srv := rpc.NewServer(slog.New(slog.DiscardHandler), func() string { return "player:plain" })
	l, err := srv.Listen("127.0.0.1", 0)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = l.Shutdown(shutdownContext(t)) })
	return l.URL()
}

// mergeArgs copies args with fields set over it.
func mergeArgs(args, fields map[string]any) map[string]any {
	out := without(args)
	for k, v := range fields {
		out[k] = v
	}
	return out
}
