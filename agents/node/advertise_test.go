package node

import (
	"net/url"
	"strings"
	"testing"

	"github.com/leaguetui/leaguetui/config"
)

// listeningNode is a player node listening on host at a free port.
func listeningNode(t *testing.T, host, advertise string) *Node {
	t.Helper()
	cfg := config.Default()
	cfg.Network.Host, cfg.Network.Advertise = host, advertise
	n, err := New(cfg, "player", "alpha", t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	n.Stdout = &strings.Builder{}
	if err := n.Listen(0); err != nil {
		t.Skipf("cannot listen on %s here: %v", host, err)
	}
	t.Cleanup(func() { _ = n.Stop(t.Context(), Stopping{}) })
	return n
}

func port(t *testing.T, n *Node) string {
	t.Helper()
	u, err := url.Parse(n.Endpoint())
	if err != nil {
		t.Fatal(err)
	}
	return u.Port()
}

func TestContactEndpoint(t *testing.T) {
	tests := []struct {
		name, host, advertise, manager string
		want                           string // with PORT for the port bound
	}{
		{"loopback with a local manager", "127.0.0.1", "", "http://127.0.0.1:8000/mcp", "http://127.0.0.1:PORT/mcp"},
		{"IPv4 wildcard takes the address towards the manager", "0.0.0.0", "", "http://127.0.0.1:8000/mcp", "http://127.0.0.1:PORT/mcp"},
		{"IPv6 loopback", "::1", "", "http://[::1]:8000/mcp", "http://[::1]:PORT/mcp"},
		{"IPv6 wildcard", "::", "", "http://[::1]:8000/mcp", "http://[::1]:PORT/mcp"},
		{"localhost manager is local", "127.0.0.1", "", "http://localhost:8000/mcp", "http://127.0.0.1:PORT/mcp"},
		{"--advertise wins", "0.0.0.0", "https://league.example:9443/mcp", "http://192.0.2.1:8000/mcp", "https://league.example:9443/mcp"},
		{"--advertise without a path gets /mcp", "127.0.0.1", "http://203.0.113.7:8101", "http://192.0.2.1:8000/mcp", "http://203.0.113.7:8101/mcp"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			n := listeningNode(t, tt.host, tt.advertise)
			got, err := n.ContactEndpoint(tt.manager)
			if err != nil {
				t.Fatal(err)
			}
			if want := strings.ReplaceAll(tt.want, "PORT", port(t, n)); got != want {
				t.Errorf("ContactEndpoint(%s) = %s, want %s", tt.manager, got, want)
			}
		})
	}
}

// An agent on loopback (or one whose route to the manager cannot be
// found) must not register an address the manager's machine cannot reach.
func TestContactEndpointRefusesLoopbackWithRemoteManager(t *testing.T) {
	for _, host := range []string{"127.0.0.1", "::1"} {
		n := listeningNode(t, host, "")
		// 192.0.2.0/24 is TEST-NET-1: never a local address.
		_, err := n.ContactEndpoint("http://192.0.2.1:8000/mcp")
		if err == nil || !strings.Contains(err.Error(), "--advertise") {
			t.Errorf("listening on %s with a remote manager: err = %v, want one naming --advertise", host, err)
		}
	}
}
