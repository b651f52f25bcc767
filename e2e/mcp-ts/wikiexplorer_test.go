package mcpts

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/leaguetui/leaguetui/agents/mcpserve"
	"github.com/leaguetui/leaguetui/internal/leaguetest"
)

// The official MCP example page server, server-wiki-explorer, run over
// stdio: the capability registry maps its real tools/list onto navigation
// through get-first-degree-links. Only tools/list: its calls fetch live
// Wikipedia, which tests must not need.
func TestWikiExplorerToolsAreRecognised(t *testing.T) {
	server := filepath.Join("node_modules", "@modelcontextprotocol", "server-wiki-explorer", "dist", "index.js")
	if _, err := os.Stat(server); err != nil {
		leaguetest.SkipWithout(t, "e2e/mcp-ts/node_modules lacks server-wiki-explorer: run `npm ci --prefix e2e/mcp-ts`")
	}
	node, err := exec.LookPath("node")
	if err != nil {
		leaguetest.SkipWithout(t, "node is not installed: server-wiki-explorer needs Node.js")
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	client := mcp.NewClient(&mcp.Implementation{Name: "leaguetui-test"}, nil)
	session, err := client.Connect(ctx, &mcp.CommandTransport{Command: exec.Command(node, server, "--stdio")}, nil)
	if err != nil {
		t.Fatalf("start server-wiki-explorer --stdio: %v", err)
	}
	defer session.Close()
	nav, err := mcpserve.NewNavigator(ctx, session, "server-wiki-explorer")
	if err != nil {
		t.Fatal(err)
	}
	if nav.Capability() != "get-first-degree-links" {
		t.Errorf("navigation mapped onto %q, want get-first-degree-links", nav.Capability())
	}
}
