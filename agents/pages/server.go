package pages

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"strconv"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/leaguetui/leaguetui/agents/protocol"
	"github.com/leaguetui/leaguetui/agents/rpc"
)

// writeTimeout bounds the writing of one reply: a client that reads it
// slowly, or not at all, is cut off.
const writeTimeout = time.Minute

// NavigateIn is the navigate tool's input: the seed's Wikipedia MCP shape.
type NavigateIn struct {
	Page string `json:"page" jsonschema:"the title of the page to go to"`
}

// PageOut is a page as the navigate tool returns it.
type PageOut struct {
	Title   string   `json:"title"`
	Summary string   `json:"summary,omitempty"`
	Links   []string `json:"links"`
}

// TitlesOut is the list_pages tool's answer.
type TitlesOut struct {
	Titles []string `json:"titles"`
}

// NewServer is the MCP server of a page graph: navigate(page) and
// list_pages().
func NewServer(g *Graph) *mcp.Server {
	server := mcp.NewServer(&mcp.Implementation{Name: "leaguetui-pages", Version: protocol.ProtocolVersion}, nil)
	mcp.AddTool(server, &mcp.Tool{Name: "navigate", Description: "Go to a page: its title, a short summary and the titles it links to.",
		Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true}},
		func(_ context.Context, _ *mcp.CallToolRequest, in NavigateIn) (*mcp.CallToolResult, PageOut, error) {
			p, ok := g.Page(in.Page)
			if !ok {
				return nil, PageOut{}, fmt.Errorf("no page titled %q", in.Page)
			}
			links := p.Links
			if links == nil {
				links = []string{}
			}
			return nil, PageOut{Title: p.Title, Summary: p.Summary, Links: links}, nil
		})
	mcp.AddTool(server, &mcp.Tool{Name: "list_pages", Description: "Every page title, sorted: where races may start.",
		Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true}},
		func(context.Context, *mcp.CallToolRequest, struct{}) (*mcp.CallToolResult, TitlesOut, error) {
			return nil, TitlesOut{Titles: g.Titles()}, nil
		})
	return server
}

// Handler serves server at /mcp over streamable HTTP; a request body over
// rpc.MaxBodyBytes is refused (413), as an agent refuses one.
func Handler(server *mcp.Server) http.Handler {
	mux := http.NewServeMux()
	mux.Handle("/mcp", mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return server },
		&mcp.StreamableHTTPOptions{Stateless: true, JSONResponse: true, MaxRequestBodyBytes: rpc.MaxBodyBytes}))
	return mux
}

// Serve listens on host:port (0: a free port), calls ready with the /mcp
// URL, and serves g until ctx ends. A client has readTimeout to send a
// whole request, as with an agent (rpc.NewHTTPServer), and writeTimeout
// to read the reply.
func Serve(ctx context.Context, g *Graph, host string, port int, readTimeout time.Duration, log *slog.Logger, ready func(url string)) error {
	l, err := net.Listen("tcp", net.JoinHostPort(host, strconv.Itoa(port)))
	if err != nil {
		return fmt.Errorf("page server: %w", err)
	}
	srv := rpc.NewHTTPServer(Handler(NewServer(g)), readTimeout, log)
	srv.WriteTimeout = writeTimeout
	ready("http://" + l.Addr().String() + "/mcp")
	done := make(chan error, 1)
	go func() { done <- srv.Serve(l) }()
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
		shutdown, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		if err := srv.Shutdown(shutdown); err != nil && !errors.Is(err, http.ErrServerClosed) {
			return err
		}
		return nil
	}
}
