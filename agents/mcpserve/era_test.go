package mcpserve_test

import (
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
)

// post sends one raw JSON-RPC body to an agent's /mcp with headers.
func post(t *testing.T, endpoint, body string, headers map[string]string) (int, map[string]any) {
	t.Helper()
	req, err := http.NewRequestWithContext(testContext(t), http.MethodPost, endpoint, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	for k, v := range headers {
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	var out map[string]any
	_ = json.Unmarshal(raw, &out)
	return resp.StatusCode, out
}

// The stateless 2026-07-28 revision: no initialize, every request carries
// its version in _meta and the Mcp-Method / Mcp-Name headers.
func TestAgentsServeTheStatelessMCPRevision(t *testing.T) {
	dir := t.TempDir()
	m := startManager(t, dir)
	p := startPlayer(t, dir, m.Endpoint(), "P01")
	const version = "2026-07-28"
	meta := `"_meta":{"io.modelcontextprotocol/protocolVersion":"` + version + `","io.modelcontextprotocol/clientCapabilities":{}}`
	headers := func(method, name string) map[string]string {
		h := map[string]string{"MCP-Protocol-Version": version, "Mcp-Method": method}
		if name != "" {
			h["Mcp-Name"] = name
		}
		return h
	}

	status, discover := post(t, p.Endpoint(), `{"jsonrpc":"2.0","id":1,"method":"server/discover","params":{`+meta+`}}`,
		headers("server/discover", ""))
	result, _ := discover["result"].(map[string]any)
	if status != http.StatusOK || result["resultType"] != "complete" || result["capabilities"] == nil {
		t.Fatalf("server/discover: HTTP %d %v", status, discover)
	}

	args := playerCalls(t, dir)["choose_parity"].args
	raw, _ := json.Marshal(map[string]any{"name": "choose_parity", "arguments": args})
	call := `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":` + strings.TrimSuffix(string(raw), "}") + `,` + meta + `}}`
	status, reply := post(t, p.Endpoint(), call, headers("tools/call", "choose_parity"))
	result, _ = reply["result"].(map[string]any)
	content, _ := result["structuredContent"].(map[string]any)
	if status != http.StatusOK || result["resultType"] != "complete" || content["message_type"] != "CHOOSE_PARITY_RESPONSE" {
		t.Fatalf("tools/call: HTTP %d %v", status, reply)
	}

	status, _ = post(t, p.Endpoint(), call, headers("tools/call", ""))
	if status != http.StatusBadRequest {
		t.Errorf("tools/call without Mcp-Name: HTTP %d, want 400", status)
	}
}
