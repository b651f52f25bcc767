package main_test

import (
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"

	"github.com/leaguetui/leaguetui/internal/leaguetest"
)

// TestProbe runs `leaguetui probe` against real agents: a manager and a
// registered player are healthy, a port nobody listens on and an agent
// shutting down are not, and a URL that is no URL is a bad command line.
func TestProbe(t *testing.T) {
	dir := t.TempDir()
	manager := leaguetest.StartManager(t, filepath.Join(dir, "manager"), "admin")
	player := leaguetest.StartPlayer(t, filepath.Join(dir, "player"), manager.Endpoint, "P01")
	base := strings.TrimSuffix(manager.Endpoint, "/mcp")

	for _, url := range []string{base, manager.Endpoint, base + "/health"} {
		stdout, stderr, status := run(t, "probe", url)
		if status != 0 || !strings.Contains(stdout, "league_manager") {
			t.Errorf("probe %s: status %d, stdout %q, stderr %q; want 0 and the manager's role", url, status, stdout, stderr)
		}
	}
	if stdout, stderr, status := run(t, "probe", "--ready", player.Endpoint); status != 0 || !strings.Contains(stdout, "player P01") {
		t.Errorf("probe --ready of a registered player: status %d, stdout %q, stderr %q; want 0", status, stdout, stderr)
	}

	refused := leaguetest.RefusingEndpoint(t)
	if _, stderr, status := run(t, "probe", "--timeout", "2s", refused); status != 1 || !strings.Contains(stderr, "/health") {
		t.Errorf("probe of a closed port: status %d, stderr %q; want 1 naming the /health URL", status, stderr)
	}

	stopping := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"id":"P09","role":"player","display_name":"P09","state":"SHUTDOWN"}`))
	}))
	defer stopping.Close()
	if _, stderr, status := run(t, "probe", stopping.URL); status != 1 || !strings.Contains(stderr, "shutting down") {
		t.Errorf("probe of an agent shutting down: status %d, stderr %q; want 1 saying so", status, stderr)
	}

	for _, args := range [][]string{{"probe"}, {"probe", "manager:8000"}, {"probe", base, base}} {
		if _, stderr, status := run(t, args...); status != 2 || strings.Count(strings.TrimSpace(stderr), "\n") != 0 {
			t.Errorf("%v: status %d, stderr %q; want 2 and one line", args, status, stderr)
		}
	}
}
