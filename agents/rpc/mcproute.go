package rpc

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"slices"
	"strings"

	"github.com/leaguetui/leaguetui/agents/protocol"
)

// One /mcp serves two audiences: league peers speaking league.v2 JSON-RPC,
// and MCP clients (initialize, tools/list, tools/call, …) answered by the
// official MCP SDK. serveMCP reads the body once and peeks at its method to
// choose (see /work/shared/mcp.md, "Sharing /mcp with league JSON-RPC").

// mcpAccept is the Accept header the MCP transport requires of a client.
const mcpAccept = "application/json, text/event-stream"

// MountMCP sends MCP traffic on /mcp to h, an MCP streamable-HTTP handler.
// League methods keep going to the league handlers.
func (s *Server) MountMCP(h http.Handler) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.mcp = h
}

func (s *Server) mcpHandler() http.Handler {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.mcp
}

// MessageTypes lists the message types this server has handlers for, sorted,
// so that each can also be offered as an MCP tool.
func (s *Server) MessageTypes() []string {
	s.mu.RLock()
	defer s.mu.RUnlock()
	types := make([]string, 0, len(s.handlers))
	for t := range s.handlers {
		types = append(types, t)
	}
	slices.Sort(types)
	return types
}

// routesToMCP decides who answers a POST body. League methods go to the
// league. MCP methods go to the SDK, except a ping or tools/call from a
// client that shows no sign of speaking MCP and that the league can serve:
// league peers have always pinged and called tools that way, and their
// liberal path answers them as before.
func (s *Server) routesToMCP(r *http.Request, req *protocol.Request) bool {
	if req == nil {
		// Not JSON, or a batch: the league's parse error or refusal
		// answers MCP clients too (batches are gone from MCP since
		// 2025-06-18).
		return false
	}
	if req.Method == "" {
		return speaksMCP(r) // a response from an MCP client
	}
	if !isMCPMethod(req.Method) {
		return false
	}
	return speaksMCP(r) || !s.serves(req.Method, req.Params)
}

// serves reports whether the league handlers would take this request.
func (s *Server) serves(method string, params json.RawMessage) bool {
	in, ok := protocol.Route(method, params)
	return ok && s.handler(in.MessageType).handler != nil
}

// speaksMCP recognises an MCP client by what the transport makes it send:
// the Accept header naming SSE, or the protocol-version and method headers.
func speaksMCP(r *http.Request) bool {
	return strings.Contains(r.Header.Get("Accept"), "text/event-stream") ||
		r.Header.Get("Mcp-Protocol-Version") != "" || r.Header.Get("Mcp-Method") != ""
}

// mcpPrefixes are the method families MCP defines; a league method never
// contains one (the league's own "protocol/message" is not among them).
var mcpPrefixes = []string{"notifications/", "tools/", "resources/", "prompts/", "logging/", "completion/",
	"tasks/", "elicitation/", "sampling/", "roots/", "server/", "subscriptions/"}

func isMCPMethod(method string) bool {
	if method == "initialize" || method == "ping" {
		return true
	}
	for _, p := range mcpPrefixes {
		if strings.HasPrefix(method, p) {
			return true
		}
	}
	return false
}

// serveBodyTo hands a request whose body was already read to h. A client
// that sent no Accept header at all gets the one the MCP transport insists
// on, so that a sloppy but well-meaning caller is answered, not refused.
func serveBodyTo(h http.Handler, w http.ResponseWriter, r *http.Request, body []byte) {
	r.Body = io.NopCloser(bytes.NewReader(body))
	r.ContentLength = int64(len(body))
	if r.Header.Get("Accept") == "" {
		r.Header.Set("Accept", mcpAccept)
	}
	h.ServeHTTP(w, r)
}
