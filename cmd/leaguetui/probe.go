package main

import (
	"context"
	"fmt"
	"io"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/leaguetui/leaguetui/agents/protocol"
	"github.com/leaguetui/leaguetui/league/control"
)

const probeUsage = `leaguetui probe: exit 0 when an agent's GET /health says it is healthy
(the health check of images that have no curl).

Usage:
  leaguetui probe [flags] URL

URL is the agent's base URL, its /mcp endpoint or its /health URL
(http://manager:8000, http://manager:8000/mcp). Exit status 0 when the agent
answers within --timeout and is not shutting down (with --ready: when it has
also registered, or is the manager), 1 when it is not healthy (the reason on
stderr), 2 for a bad command line.

Flags:
`

// runProbe is `leaguetui probe`: one GET /health, its verdict as the exit
// status. It prints the agent's state on stdout so that a person running it
// by hand sees what the health check saw.
func runProbe(ctx context.Context, args []string, stdout io.Writer) error {
	fs, cf := newFlagSet("leaguetui probe", probeUsage, stdout)
	timeout := fs.Duration("timeout", 3*time.Second, "how long to wait for the answer")
	ready := fs.Bool("ready", false, "healthy only once the agent has registered with its manager (readiness, not liveness)")
	_, rest, err := parseWithArgs(fs, cf, args)
	if err != nil {
		return err
	}
	if len(rest) != 1 {
		return &usageError{"probe takes one URL, e.g. leaguetui probe http://127.0.0.1:8000"}
	}
	endpoint, err := probeEndpoint(rest[0])
	if err != nil {
		return &usageError{err.Error()}
	}
	if *timeout <= 0 {
		return &usageError{fmt.Sprintf("--timeout %s: want a positive duration", *timeout)}
	}
	probe := control.ProbeAgents(ctx, []string{endpoint}, 1, *timeout)[0] // its reply read up to a message's cap
	if probe.Err != nil {
		return fmt.Errorf("probe %s: %w", control.HealthURL(endpoint), probe.Err)
	}
	h := probe.Health
	fmt.Fprintf(stdout, "%s %s %s\n", h.Role, h.DisplayName, h.State)
	return healthVerdict(h, *ready)
}

// probeEndpoint accepts the forms an operator has at hand (a base URL, the
// /mcp endpoint, the /health URL) and returns the /mcp endpoint that
// control.HealthURL expects.
func probeEndpoint(raw string) (string, error) {
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return "", fmt.Errorf("probe URL %q: want http:// or https:// with a host, e.g. http://127.0.0.1:8000", raw)
	}
	base := strings.TrimSuffix(strings.TrimSuffix(u.Scheme+"://"+u.Host+u.Path, "/"), "/health")
	return strings.TrimSuffix(base, "/mcp") + "/mcp", nil
}

// healthVerdict is nil for a healthy agent. Alive is any state but
// SHUTDOWN; ready is alive and registered (REGISTERED, ACTIVE) or a manager,
// which registers with no one.
func healthVerdict(h protocol.Health, ready bool) error {
	if h.State == protocol.StateShutdown {
		return fmt.Errorf("%s %s is shutting down", h.Role, h.DisplayName)
	}
	registered := []string{protocol.StateRegistered, protocol.StateActive}
	if ready && h.Role != protocol.ManagerRole && !slices.Contains(registered, h.State) {
		return fmt.Errorf("%s %s is %s, not registered yet", h.Role, h.DisplayName, h.State)
	}
	return nil
}
