// Package mcpserve makes every leaguetui agent a Model Context Protocol
// server on the same POST /mcp that serves league.v2 JSON-RPC. It uses the
// official Go SDK, stateless with JSON responses, so each POST stands alone
// and clients of both protocol eras (the initialize handshake, and the
// 2026-07-28 revision's headers) are served.
//
// Each league operation an agent serves is a tool whose arguments are the
// flat league.v2 message. A tool call is turned back into the league
// request and run through the agent's rpc.Server.Dispatch: one path for both
// protocols. Replies come back as structuredContent plus the same JSON as
// text; league rejections with isError set. The tools, and their input and
// output schemas generated from the Go types, come from protocol.Messages
// (catalog.go).
package mcpserve

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"sync"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/leaguetui/leaguetui/agents/protocol"
	"github.com/leaguetui/leaguetui/agents/rpc"
)

// Server is one agent's MCP side. Its SDK server, with every tool's
// schemas, is built when the first MCP request arrives: most agents only
// ever speak plain JSON-RPC, and building the schemas costs each agent's
// start-up about 10 ms of CPU and 3 MB (a thousand agents start at once).
type Server struct {
	league *rpc.Server
	impl   *mcp.Implementation
	opts   *mcp.ServerOptions

	mu      sync.Mutex
	tools   []toolEntry  // offered, in the order added
	handler http.Handler // nil until the first MCP request
	sdk     *mcp.Server  // idem
}

// toolEntry is a tool offered: its name, and how to make its definition
// and handler once the SDK server is built.
type toolEntry struct {
	name  string
	build func() (*mcp.Tool, mcp.ToolHandler)
}

// Mount creates the agent's MCP server and routes MCP traffic on league's
// /mcp to it. role and name describe the agent to clients.
func Mount(league *rpc.Server, role protocol.Role, name string) *Server {
	s := &Server{league: league,
		impl: &mcp.Implementation{Name: "leaguetui-" + string(role), Title: name, Version: protocol.ProtocolVersion},
		opts: &mcp.ServerOptions{
			Instructions: instructions(role),
			// Tools only; a stateless server has no session to notify of list changes.
			Capabilities: &mcp.ServerCapabilities{Tools: &mcp.ToolCapabilities{}},
		}}
	league.MountMCP(http.HandlerFunc(s.serveHTTP))
	return s
}

// serveHTTP serves an MCP request, building the SDK server first if this
// is the first.
func (s *Server) serveHTTP(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	if s.handler == nil {
		s.sdk = mcp.NewServer(s.impl, s.opts)
		for _, t := range s.tools {
			s.sdk.AddTool(t.build())
		}
		sdk := s.sdk
		s.handler = mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return sdk },
			&mcp.StreamableHTTPOptions{Stateless: true, JSONResponse: true})
	}
	handler := s.handler
	s.mu.Unlock()
	handler.ServeHTTP(w, r)
}

func instructions(role protocol.Role) string {
	return fmt.Sprintf("A leaguetui %s of an even/odd league (league.v2). Each league tool takes the flat "+
		"league.v2 message as its arguments and returns the reply message as structuredContent; "+
		"a league rejection (LEAGUE_ERROR) comes back with isError.", role)
}

// PublishLeagueTools offers a tool for every message type the league server
// has a handler for. Agents call it once their handlers are in place.
func (s *Server) PublishLeagueTools() {
	for _, messageType := range s.league.MessageTypes() {
		name, ok := toolName(messageType)
		if !ok || s.has(name) {
			continue
		}
		s.add(name, func() (*mcp.Tool, mcp.ToolHandler) {
			tool, _ := ToolFor(messageType)
			return tool.MCPTool(), s.leagueHandler(tool)
		})
	}
}

// Tool is a tool that is not a league message: a read-only view the agent
// computes directly.
type Tool struct {
	Name        string
	Title       string
	Description string
	Input       *jsonschema.Schema // nil: no arguments
	Call        func(ctx context.Context, args json.RawMessage) (any, error)
}

// AddReadOnlyTool offers t. Its arguments are checked against t.Input; an
// error from Call comes back with isError set.
func (s *Server) AddReadOnlyTool(t Tool) {
	input := t.Input
	if input == nil {
		input = &jsonschema.Schema{Type: "object", Properties: map[string]*jsonschema.Schema{}}
	}
	resolved, err := input.Resolve(nil)
	if err != nil {
		panic(fmt.Sprintf("mcpserve: schema of %s: %v", t.Name, err)) // a bug in the caller's schema
	}
	def := &mcp.Tool{Name: t.Name, Title: t.Title, Description: t.Description, InputSchema: input,
		Annotations: &mcp.ToolAnnotations{Title: t.Title, ReadOnlyHint: true}}
	s.add(t.Name, func() (*mcp.Tool, mcp.ToolHandler) {
		return def, func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			args := req.Params.Arguments
			if err := validate(resolved, args); err != nil {
				return invalidArguments(t.Name, err), nil
			}
			reply, err := t.Call(ctx, args)
			if err != nil {
				return failure(map[string]string{"error": err.Error()}), nil
			}
			return success(reply), nil
		}
	})
}

// Names lists the tools this agent offers, in the order they were added.
func (s *Server) Names() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	names := make([]string, len(s.tools))
	for i, t := range s.tools {
		names[i] = t.name
	}
	return names
}

func (s *Server) has(name string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.ContainsFunc(s.tools, func(t toolEntry) bool { return t.name == name })
}

// add offers a tool, or replaces the one of the same name; a server already
// built gets it at once.
func (s *Server) add(name string, build func() (*mcp.Tool, mcp.ToolHandler)) {
	s.mu.Lock()
	defer s.mu.Unlock()
	entry := toolEntry{name: name, build: build}
	if i := slices.IndexFunc(s.tools, func(t toolEntry) bool { return t.name == name }); i >= 0 {
		s.tools[i] = entry
	} else {
		s.tools = append(s.tools, entry)
	}
	if s.sdk != nil {
		s.sdk.AddTool(build())
	}
}

// leagueHandler runs a tool call as the league request it stands for, on
// the same Dispatch the plain JSON-RPC path takes.
func (s *Server) leagueHandler(tool LeagueTool) mcp.ToolHandler {
	return func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		args := req.Params.Arguments
		if err := tool.Validate(args); err != nil {
			return invalidArguments(tool.Name, err), nil
		}
		body, err := protocol.EncodeRequest(tool.Name, args, 1)
		if err != nil {
			return nil, err
		}
		return fromResponse(s.league.Dispatch(protocol.WithMCPTool(ctx), body)), nil
	}
}
