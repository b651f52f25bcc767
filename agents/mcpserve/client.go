package mcpserve

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"slices"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/leaguetui/leaguetui/agents/protocol"
	"github.com/leaguetui/leaguetui/agents/rpc"
	"github.com/leaguetui/leaguetui/agents/tlsconf"
)

// transport talks to agents directly: never through a proxy from the
// environment, as the league's own client does. It is built at first use,
// after the process has set up the CAs it trusts (tlsconf).
var transport = sync.OnceValue(func() *http.Transport {
	return &http.Transport{
		Proxy:           nil,
		DialContext:     (&net.Dialer{Timeout: 5 * time.Second}).DialContext,
		MaxIdleConns:    64,
		IdleConnTimeout: 30 * time.Second,
		TLSClientConfig: tlsconf.Client(),
	}
})

// Connect opens an MCP client session with the agent at endpoint (its /mcp
// URL) through the official SDK: initialize, then requests. Close it after
// use. A reply is read up to rpc.MaxBodyBytes, as a league message is.
func Connect(ctx context.Context, endpoint string) (*mcp.ClientSession, error) {
	return connectCapped(ctx, endpoint, rpc.MaxBodyBytes)
}

// connectCapped is Connect reading each reply up to limit bytes: beyond,
// the exchange fails with REPLY_TOO_LARGE (rpc.CapReplies).
func connectCapped(ctx context.Context, endpoint string, limit int64) (*mcp.ClientSession, error) {
	client := mcp.NewClient(&mcp.Implementation{Name: "leaguetui", Version: protocol.ProtocolVersion}, nil)
	httpClient := &http.Client{Transport: rpc.CapReplies(transport(), limit)}
	transport := &mcp.StreamableClientTransport{Endpoint: endpoint, HTTPClient: httpClient,
		DisableStandaloneSSE: true, MaxRetries: -1}
	session, err := client.Connect(ctx, transport, nil)
	if err != nil {
		return nil, fmt.Errorf("MCP connect to %s: %w", endpoint, err)
	}
	return session, nil
}

// ListTools returns the names of the tools the agent at endpoint offers, in
// its order. It fails for an agent that does not speak MCP; ctx bounds the
// whole exchange. The console's agents view shows these.
func ListTools(ctx context.Context, endpoint string) ([]string, error) {
	session, err := Connect(ctx, endpoint)
	if err != nil {
		return nil, err
	}
	defer session.Close()
	var names []string
	for tool, err := range session.Tools(ctx, nil) {
		if err != nil {
			return nil, fmt.Errorf("MCP tools/list at %s: %w", endpoint, err)
		}
		names = append(names, tool.Name)
	}
	return names, nil
}

// Missing lists the names of want that have is lacks, in want's order.
func Missing(have, want []string) []string {
	var out []string
	for _, w := range want {
		if !slices.Contains(have, w) {
			out = append(out, w)
		}
	}
	return out
}
