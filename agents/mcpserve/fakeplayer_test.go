package mcpserve_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/leaguetui/leaguetui/agents/mcpserve"
	"github.com/leaguetui/leaguetui/agents/protocol"
)

type mcpWireError = jsonrpc.Error

// mcpOnlyPlayer is another implementation's player: an MCP server built
// with the official Go SDK and nothing else on its /mcp, so league methods
// there are unknown and only tools/call works. Its tools use our catalog's
// schemas, and every call's arguments are checked against them.
type mcpOnlyPlayer struct {
	URL string

	mu       sync.Mutex
	ID       string         // set once registered
	calls    map[string]int // tool -> calls
	methods  []string       // JSON-RPC methods received, in order
	badCalls []string       // arguments that broke a schema, or requests without the MCP Accept header
}

// startMCPOnlyPlayer serves a fake player offering the tools for messageTypes.
func startMCPOnlyPlayer(t *testing.T, messageTypes ...string) *mcpOnlyPlayer {
	t.Helper()
	p := &mcpOnlyPlayer{calls: map[string]int{}}
	server := mcp.NewServer(&mcp.Implementation{Name: "other-player", Version: "0.1.0"}, nil)
	for _, mt := range messageTypes {
		tool, ok := mcpserve.ToolFor(mt)
		if !ok {
			t.Fatalf("no tool for %s", mt)
		}
		server.AddTool(tool.MCPTool(), p.handler(tool))
	}
	sdk := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return server },
		&mcp.StreamableHTTPOptions{Stateless: true, JSONResponse: true})
	mux := http.NewServeMux()
	mux.Handle("/mcp", p.watch(sdk))
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	p.URL = srv.URL + "/mcp"
	return p
}

// gamePlayerTypes are the message types a complete player serves.
var gamePlayerTypes = protocol.ServedBy(protocol.PlayerRole)

// watch records each request's method and whether it carried the Accept
// header an MCP client must send.
func (p *mcpOnlyPlayer) watch(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var peek struct {
			Method string `json:"method"`
		}
		body, _ := readBody(r)
		_ = json.Unmarshal(body, &peek)
		accept := r.Header.Get("Accept")
		p.mu.Lock()
		p.methods = append(p.methods, peek.Method)
		if !strings.Contains(accept, "application/json") || !strings.Contains(accept, "text/event-stream") {
			p.badCalls = append(p.badCalls, fmt.Sprintf("%s without the MCP Accept header (%q)", peek.Method, accept))
		}
		p.mu.Unlock()
		next.ServeHTTP(w, r)
	})
}

func (p *mcpOnlyPlayer) handler(tool mcpserve.LeagueTool) mcp.ToolHandler {
	return func(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		p.mu.Lock()
		p.calls[tool.Name]++
		if err := tool.Validate(req.Params.Arguments); err != nil {
			p.badCalls = append(p.badCalls, fmt.Sprintf("%s: %v", tool.Name, err))
		}
		id := p.ID
		p.mu.Unlock()
		var env protocol.Envelope
		_ = json.Unmarshal(req.Params.Arguments, &env)
		reply := reply(id, tool.MessageType, env)
		raw, _ := json.Marshal(reply)
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: string(raw)}},
			StructuredContent: json.RawMessage(raw)}, nil
	}
}

// reply joins every match, always chooses even and acknowledges the rest.
func reply(id, messageType string, in protocol.Envelope) protocol.Message {
	env := protocol.NewEnvelope("", protocol.PlayerSender(id), in.ConversationID)
	env.MatchID, env.RoundID = in.MatchID, in.RoundID
	switch messageType {
	case protocol.TypeGameInvitation:
		env.MessageType = protocol.TypeGameJoinAck
		return &protocol.GameJoinAck{Envelope: env, PlayerID: id, ArrivalTimestamp: env.Timestamp, Accept: true}
	case protocol.TypeChooseParityCall:
		env.MessageType = protocol.TypeChooseParityResponse
		return &protocol.MoveAnswer{Envelope: env, PlayerID: id, Choice: "even"}
	}
	env.MessageType = messageType + "_ACK"
	return &protocol.Ack{Envelope: env, Status: "ok"}
}

func (p *mcpOnlyPlayer) callsOf(tool string) int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.calls[tool]
}

func (p *mcpOnlyPlayer) problems() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]string(nil), p.badCalls...)
}

func (p *mcpOnlyPlayer) receivedMethods() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]string(nil), p.methods...)
}

// readBody reads a request body and puts it back for the next handler.
func readBody(r *http.Request) ([]byte, error) {
	body, err := io.ReadAll(r.Body)
	r.Body = io.NopCloser(bytes.NewReader(body))
	return body, err
}
