//go:build linux

// Package hosts_test runs leagues whose agents reach each other as they
// would across machines: over TLS with a private CA, on separate network
// stacks (Linux network namespaces, root only), and through a cut link.
package hosts_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/leaguetui/leaguetui/engine"
	"github.com/leaguetui/leaguetui/internal/leaguetest"
	"github.com/leaguetui/leaguetui/internal/testcert"
	"github.com/leaguetui/leaguetui/league/process"
)

func TestMain(m *testing.M) {
	if base := os.Getenv(controlEnv); base != "" {
		os.Exit(runControl(base)) // this binary re-run in a namespace as the league's control client
	}
	if base := os.Getenv(transcriptsEnv); base != "" {
		os.Exit(runTranscripts(base)) // this binary re-run in a namespace, reading match files through the manager
	}
	leaguetest.Main(m)
}

// tlsArgs are the flags of an agent serving leaf and trusting ca.
func tlsArgs(ca *testcert.CA, leaf testcert.Leaf) []string {
	return []string{"--tls-cert", leaf.CertFile, "--tls-key", leaf.KeyFile, "--tls-ca", ca.CertFile}
}

// headless runs `leaguetui --no-ui` with a seed and returns its standings
// and its data folder.
func headless(t *testing.T, seed string, extra ...string) (string, string) {
	t.Helper()
	dir := t.TempDir()
	args := append([]string{"--no-ui", "--free-ports", "--data", dir, "--seed", seed, "--players", "4", "--referees", "2",
		"--retry-delay", "50ms"}, extra...)
	run := leaguetest.RunLeaguetui(t, dir, 3*time.Minute, nil, args...)
	if run.Err != nil {
		leaguetest.KillLeftovers(t, dir)
		t.Fatalf("leaguetui %v: %v\n%s", args, run.Err, run.Stderr)
	}
	return run.Stdout, dir
}

// TestTLSLeagueEqualsPlainLeague runs the same seed over plain HTTP and
// over HTTPS with --require-tls on IPv6 loopback, every agent serving a
// certificate of a CA made for the test: the console's start mode passes
// the TLS flags to the agents it starts, and the standings are the same.
func TestTLSLeagueEqualsPlainLeague(t *testing.T) {
	t.Parallel()
	ca := testcert.NewCA(t)
	leaf := ca.Leaf(t, "agents", "127.0.0.1", "::1", "localhost")
	plain, _ := headless(t, "23")
	secure, dir := headless(t, "23", append(tlsArgs(ca, leaf), "--require-tls", "--host", "::1")...)
	if plain != secure {
		t.Errorf("standings over HTTPS differ from plain HTTP:\n%s\nplain:\n%s", secure, plain)
	}
	if !strings.Contains(secure, "completed") {
		t.Errorf("no completed league in:\n%s", secure)
	}
	registered := 0
	for _, ev := range readJournal(t, dir) {
		if ev.Kind == engine.EventAgentRegistered && ev.Agent != nil {
			registered++
			if !strings.HasPrefix(ev.Agent.Endpoint, "https://[::1]:") {
				t.Errorf("%s registered %s, want https://[::1]:PORT/mcp", ev.Agent.ID, ev.Agent.Endpoint)
			}
		}
	}
	if registered != 6 {
		t.Errorf("%d agents registered, want 6", registered)
	}
}

// TestRequireTLSRefusesPlainEndpoint: a --require-tls manager refuses a
// player whose endpoint is http://, saying why, and admits one over HTTPS.
// A player that does not trust the manager's CA cannot register at all.
func TestRequireTLSRefusesPlainEndpoint(t *testing.T) {
	t.Parallel()
	ca := testcert.NewCA(t)
	leaf := ca.Leaf(t, "agents", "127.0.0.1")
	dir := t.TempDir()
	mgr := leaguetest.StartManager(t, dir, "adm", append(tlsArgs(ca, leaf), "--require-tls")...)
	if !strings.HasPrefix(mgr.Endpoint, "https://") {
		t.Fatalf("manager serving --tls-cert listens at %s, want https://", mgr.Endpoint)
	}

	out := filepath.Join(dir, "test-output")
	plain := startFailing(t, out, "plain player", "player", "--port", "0", "--data", dir, "--manager", mgr.Endpoint,
		"--name", "plain", "--tls-ca", ca.CertFile)
	if !strings.Contains(plain.Error(), "requires TLS") || !strings.Contains(plain.Error(), "--tls-cert") {
		t.Errorf("plain player's failure = %v, want the manager's reason naming --tls-cert", plain)
	}
	untrusting := startFailing(t, out, "untrusting player", "player", "--port", "0", "--data", dir,
		"--manager", mgr.Endpoint, "--name", "untrusting", "--tls-cert", leaf.CertFile, "--tls-key", leaf.KeyFile)
	if !strings.Contains(untrusting.Error(), "--tls-ca") {
		t.Errorf("player without --tls-ca: failure = %v, want one naming --tls-ca", untrusting)
	}

	secure := leaguetest.StartPlayer(t, dir, mgr.Endpoint, "secure", tlsArgs(ca, leaf)...)
	if secure.ID == "" {
		t.Error("the HTTPS player got no id")
	}
}

// startFailing starts an agent that must exit before registering and
// returns why it did.
func startFailing(t *testing.T, outDir, name string, args ...string) error {
	t.Helper()
	child, err := process.Start(context.Background(), leaguetest.Binary(t), process.Spec{Name: name, Args: args,
		Env: leaguetest.ChildEnv(), OutputPath: filepath.Join(outDir, strings.ReplaceAll(name, " ", "_")+".out"),
		Register: true}, 45*time.Second)
	if err == nil {
		child.Kill()
		t.Fatalf("%s registered; want it refused", name)
	}
	return err
}
