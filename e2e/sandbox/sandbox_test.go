//go:build linux

// Package sandbox_test runs a program that tries every way out of the
// sandbox (internal/leaguetest/sandboxprobe) as a roster player and as the
// agent of `leaguetui check`, with real processes, and checks that each
// try was refused and that the league played as it would have without it.
package sandbox_test

import (
	"encoding/json"
	"errors"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/leaguetui/leaguetui/agents/protocol"
	"github.com/leaguetui/leaguetui/internal/leaguetest"
	"github.com/leaguetui/leaguetui/league/sandbox"
)

func TestMain(m *testing.M) { leaguetest.Main(m) }

// Secrets leaguetui is run with, as the docs say to set them: no program
// may see them.
var secretEnv = []string{"LEAGUETUI_ADMIN_TOKEN=admin-secret-0123456789abcdef", "LEAGUETUI_REFEREE_KEY=referee-secret-0123456789abcdef"}

// fast keeps a league with failures short.
var fast = []string{"--move-timeout", "3s", "--join-timeout", "3s", "--retry-delay", "100ms", "--free-ports", "--referees", "1"}

// report is what sandboxprobe writes.
type report struct {
	Escapes map[string]string `json:"escapes"`
	Allowed map[string]string `json:"allowed"`
	Linger  int               `json:"linger"`
}

// requireSandbox skips where this kernel cannot confine (failing under CI).
func requireSandbox(t *testing.T) {
	t.Helper()
	if !sandbox.Probe().Confines() {
		leaguetest.SkipWithout(t, "this kernel cannot confine programs: "+sandbox.Probe().Describe(sandbox.Limits{}, false))
	}
}

// foreignPort is a port of the machine that is no agent's: a listener the
// test holds for the length of the test.
func foreignPort(t *testing.T) int {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	go func() {
		for {
			conn, err := ln.Accept()
			if err != nil {
				return
			}
			conn.Close()
		}
	}()
	return ln.Addr().(*net.TCPAddr).Port
}

// playerCommand is leaguetui's own player as a program, with a strategy
// and the league's seed: it plays as the built-in player would.
func playerCommand(t *testing.T, strategy string) []string {
	return []string{leaguetest.Binary(t), "player", "--port", "{port}", "--manager", "{manager}", "--name", "{name}",
		"--data", "{data}", "--strategy", strategy, "--seed", "5"}
}

func writeRoster(t *testing.T, players ...map[string]any) string {
	return leaguetest.WriteRoster(t, players...)
}

// runLeague runs a --no-ui league of roster in dataDir with the secrets in
// leaguetui's environment, and returns its stderr.
func runLeague(t *testing.T, dataDir, roster string) string {
	t.Helper()
	cmd := exec.Command(leaguetest.Binary(t), append([]string{"--no-ui", "--data", dataDir, "--seed", "5", "--roster", roster}, fast...)...)
	cmd.Env = append(append(os.Environ(), leaguetest.ChildEnv()...), secretEnv...)
	out, err := runBounded(t, cmd, dataDir, 3*time.Minute)
	if err != nil {
		t.Fatalf("leaguetui: %v\n%s", err, out)
	}
	return out
}

// runBounded runs cmd to its end, within timeout, its output together.
func runBounded(t *testing.T, cmd *exec.Cmd, dataDir string, timeout time.Duration) (string, error) {
	t.Helper()
	var out strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		return out.String(), err
	case <-time.After(timeout):
		_ = cmd.Process.Kill()
		<-done
		leaguetest.KillLeftovers(t, dataDir)
		t.Fatalf("%v did not finish within %s\n%s", cmd.Args, timeout, out.String())
		return "", nil
	}
}

// standings are the final table by display name: points, wins, draws,
// losses and technical losses.
func standings(t *testing.T, dataDir string) map[string]string {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(dataDir, "leagues", "*", "standings.json"))
	if len(files) != 1 {
		t.Fatalf("standings files %v, want one", files)
	}
	var s protocol.StandingsFile
	leaguetest.ReadJSON(t, files[0], &s)
	if s.MatchesDone == 0 || s.MatchesDone != s.MatchesTotal {
		t.Fatalf("league at %d of %d matches, want it completed", s.MatchesDone, s.MatchesTotal)
	}
	rows := map[string]string{}
	for _, r := range s.Standings {
		rows[r.DisplayName] = strconv.Itoa(r.Points) + "pts " + strconv.Itoa(r.Wins) + "W " + strconv.Itoa(r.Draws) + "D " +
			strconv.Itoa(r.Losses) + "L " + strconv.Itoa(r.TechnicalLosses) + "TL"
	}
	return rows
}

// unixSocket is a pathname UNIX socket outside the sandbox (a container
// engine's, say), listening for the length of the test.
func unixSocket(t *testing.T) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "engine.sock")
	ln, err := net.Listen("unix", path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	go func() {
		for {
			conn, err := ln.Accept()
			if err != nil {
				return
			}
			conn.Close()
		}
	}()
	return path
}

// filterKeys are the tries of the calls the seccomp filter refuses, with
// high bits in int arguments and through the 32-bit ABI among them (on
// amd64), and listen() on a socket never bound.
func filterKeys() []string {
	keys := []string{"listen:unbound", "connect:unix", "clone:user", "unshare:user", "io_uring_setup", "keyctl",
		"high:socket:mptcp", "high:socket:udp", "high:socket:unix", "high:clone:user"}
	if runtime.GOARCH == "amd64" {
		keys = append(keys, "i386:socket:unix", "i386:socket:udp", "i386:socket:mptcp", "i386:connect:unix",
			"i386:connect:foreign", "i386:io_uring_setup", "i386:unshare:user", "i386:keyctl", "i386:listen:unbound",
			"x32:socket:unix")
	}
	return keys
}

// checkReport fails for every escape that was not denied and every
// allowed try that failed, and checks the lingering children are gone.
func checkReport(t *testing.T, home string, wantKeys ...string) report {
	t.Helper()
	var r report
	leaguetest.ReadJSON(t, filepath.Join(home, "probe.json"), &r)
	for _, key := range wantKeys {
		if _, ok := r.Escapes[key]; !ok {
			t.Errorf("the probe did not try %s: %v", key, r.Escapes)
		}
	}
	for key, got := range r.Escapes {
		if !strings.HasPrefix(got, "denied") {
			t.Errorf("escape %s: %s", key, got)
		}
		if port, ok := strings.CutPrefix(got, "ALLOWED: listening on port "); ok {
			// The probe left it open: a client outside tries it.
			if conn, err := net.DialTimeout("tcp", net.JoinHostPort("127.0.0.1", port), 5*time.Second); err == nil {
				conn.Close()
				t.Errorf("escape %s: a client outside connected to port %s", key, port)
			}
		}
	}
	for key, got := range r.Allowed {
		if !strings.HasPrefix(got, "ALLOWED") {
			t.Errorf("%s should work inside the sandbox: %s", key, got)
		}
	}
	lingers, err := os.ReadFile(filepath.Join(home, "lingers"))
	if err != nil {
		t.Fatal(err)
	}
	for _, field := range strings.Fields(string(lingers)) {
		pid, _ := strconv.Atoi(field)
		if pid <= 0 {
			t.Errorf("the probe could not start its lingering child: %q", lingers)
			continue
		}
		if err := syscall.Kill(pid, 0); !errors.Is(err, syscall.ESRCH) {
			_ = syscall.Kill(pid, syscall.SIGKILL)
			stat, _ := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "stat"))
			t.Errorf("the probe's child %d, in a session of its own, outlived it (kill 0: %v; %s)", pid, err, stat)
		}
	}
	return r
}

// A roster program tries every way out while it plays: each is refused,
// and the league's standings are those of the same seed without the
// tries. Its folder holds the league's data folder (the default layout,
// ./data beside the program), which it may list but not read.
func TestRosterProgramCannotEscape(t *testing.T) {
	requireSandbox(t)
	root := t.TempDir()
	dataDir := filepath.Join(root, "data")
	other := t.TempDir() // another program's folder, with its source
	if err := os.WriteFile(filepath.Join(other, "strategy.py"), []byte("SECRET = 'carol's strategy'\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	probe := append([]string{leaguetest.SandboxProbeBinary(t), "--report", "{data}/probe.json",
		"--data-root", dataDir, "--await", filepath.Join(dataDir, "credentials"),
		"--foreign-port", strconv.Itoa(foreignPort(t)), "--unix-socket", unixSocket(t), "--port", "{port}",
		"--manager", "{manager}", "--big-file", strconv.Itoa(8 << 20), "--"},
		playerCommand(t, "counter")...)
	env := map[string]string{"PROBE_SECRETS": strings.Join([]string{filepath.Join(other, "strategy.py"), "/etc/shadow",
		filepath.Join(os.Getenv("HOME"), ".ssh", "id_ed25519")}, ":"),
		"PROBE_WRITES": strings.Join([]string{root, dataDir, other}, ":")}
	entries := func(prober []string) string {
		return writeRoster(t,
			map[string]any{"name": "bob", "strategy": "random"},
			map[string]any{"name": "prober", "command": prober, "dir": root, "limits": map[string]any{"file_mb": 4}, "env": env},
			map[string]any{"name": "carol", "command": playerCommand(t, "adaptive"), "dir": other})
	}
	stderr := runLeague(t, dataDir, entries(probe))
	if !strings.Contains(stderr, "program prober: files, ports, signals (Landlock ABI") {
		t.Errorf("leaguetui did not say how the program is confined:\n%s", stderr)
	}
	r := checkReport(t, filepath.Join(dataDir, "programs", "prober"), append(filterKeys(), "env", "connect:foreign",
		"socket:mptcp", "socket:udp", "socket:unix", "signal:parent", "signal:manager", "ptrace:manager",
		"environ:manager", "read:"+filepath.Join(other, "strategy.py"), "write:"+dataDir, "file-size")...)
	if got := r.Allowed["listen:own-port"]; !strings.HasPrefix(got, "ALLOWED") {
		t.Errorf("the probe could not listen on its own port: %q", got)
	}
	reads := 0
	for key := range r.Escapes {
		if strings.HasPrefix(key, "read:"+filepath.Join(dataDir, "credentials")) {
			reads++
		}
	}
	if reads == 0 {
		t.Errorf("the probe found no credentials to try: %v", r.Escapes)
	}
	withProbe := standings(t, dataDir)

	plainData := filepath.Join(t.TempDir(), "data")
	runLeague(t, plainData, entries(playerCommand(t, "counter")))
	if plain := standings(t, plainData); !equalRows(plain, withProbe) {
		t.Errorf("standings with the probe %v, without it %v: want the same", withProbe, plain)
	}
}

func equalRows(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}

// The agent `leaguetui check` starts (twice: the checker refuses its
// first registration) is confined as a roster program is.
func TestCheckedAgentCannotEscape(t *testing.T) {
	requireSandbox(t)
	dataDir := t.TempDir()
	cmd := exec.Command(leaguetest.Binary(t), append([]string{"check", "--data", dataDir, "--move-timeout", "10s", "--",
		leaguetest.SandboxProbeBinary(t), "--report", "{data}/probe.json", "--data-root", dataDir,
		"--foreign-port", strconv.Itoa(foreignPort(t)), "--unix-socket", unixSocket(t), "--port", "{port}",
		"--manager", "{manager}", "--"},
		playerCommand(t, "random")...)...)
	// The checker's agent gets a clean environment: these reach it only
	// if the sandbox leaks leaguetui's.
	cmd.Env = append(os.Environ(), append(secretEnv, "PROBE_WRITES="+dataDir)...)
	out, err := runBounded(t, cmd, dataDir, 3*time.Minute)
	if err != nil {
		t.Errorf("leaguetui check: %v, want exit status 0 for leaguetui's own player\n%s", err, out)
	}
	if !strings.Contains(out, "the checked agent: files, ports, signals (Landlock ABI") {
		t.Errorf("the checker did not say how the agent is confined:\n%s", out)
	}
	checkReport(t, filepath.Join(dataDir, "agent"), append(filterKeys(), "env", "connect:foreign", "socket:mptcp",
		"signal:parent", "ptrace:parent")...)
	lingers, _ := os.ReadFile(filepath.Join(dataDir, "agent", "lingers"))
	if n := len(strings.Fields(string(lingers))); n != 2 {
		t.Errorf("the agent was started %d times, want 2 (the checker refuses its first registration)", n)
	}
}

// A program that fills its data folder is stopped once past its disk cap,
// said on stderr, and the folder stays near the cap.
func TestProgramFillingTheDiskIsStopped(t *testing.T) {
	requireSandbox(t)
	dataDir := filepath.Join(t.TempDir(), "data")
	filler := map[string]any{"name": "filler", "restarts": 0, "limits": map[string]any{"disk_mb": 8, "file_mb": 2},
		"command": append([]string{leaguetest.SandboxProbeBinary(t), "--fill", "--"}, playerCommand(t, "random")...)}
	stderr := runLeague(t, dataDir, writeRoster(t, map[string]any{"name": "bob", "strategy": "random"},
		map[string]any{"name": "dan", "strategy": "counter"}, filler))
	if !strings.Contains(stderr, "program filler exited (stopped by leaguetui: its data and temporary folders passed 8 MiB)") {
		t.Errorf("stderr does not say the filler was stopped for its disk use:\n%s", stderr)
	}
	var used int64
	_ = filepath.Walk(filepath.Join(dataDir, "programs", "filler"), func(_ string, info os.FileInfo, err error) error {
		if err == nil && info.Mode().IsRegular() {
			used += info.Size()
		}
		return nil
	})
	const bound = 64 << 20 // the cap, and what one measure's time lets it write
	t.Logf("the filler's folder holds %d MiB after its stop (cap 8 MiB)", used>>20)
	if used > bound {
		t.Errorf("the filler's folder holds %d bytes, want at most %d", used, bound)
	}
}

// A roster program whose entry names no dir runs in its own {data},
// never in leaguetui's working folder, and reads neither the roster (the
// keys it gives programs in their env) nor the organiser's .env there,
// even with that folder among its entry's read paths.
func TestProgramWithNoDirCannotReadTheRoster(t *testing.T) {
	requireSandbox(t)
	root := t.TempDir() // leaguetui's working folder, the roster's and the .env's
	dataDir := filepath.Join(t.TempDir(), "data")
	roster, env := filepath.Join(root, "roster.json"), filepath.Join(root, ".env")
	// The report's relative path lands in the folder it runs in (only its
	// {data} is writable); the paths to try come in its environment (a
	// path on its command line is one it may read).
	probe := append([]string{leaguetest.SandboxProbeBinary(t), "--report", "probe.json", "--manager", "{manager}", "--"},
		playerCommand(t, "counter")...)
	data, err := json.Marshal(map[string]any{"players": []map[string]any{{"name": "bob", "strategy": "random"},
		{"name": "prober", "command": probe, "env": map[string]string{"PROBE_SECRETS": roster + ":" + env,
			"PROBER_KEY": "sk-roster-0123456789"}, "read": []string{"."}}, // the whole working folder, but those two
		{"name": "dan", "strategy": "counter"}}})
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(roster, data, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(env, []byte("OPENAI_API_KEY=sk-dotenv-0123456789\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(leaguetest.Binary(t), append([]string{"--no-ui", "--data", dataDir, "--seed", "5", "--roster", "roster.json"}, fast...)...)
	cmd.Dir = root
	cmd.Env = append(append(os.Environ(), leaguetest.ChildEnv()...), secretEnv...)
	if out, err := runBounded(t, cmd, dataDir, 3*time.Minute); err != nil {
		t.Fatalf("leaguetui: %v\n%s", err, out)
	}
	checkReport(t, filepath.Join(dataDir, "programs", "prober"), "read:"+roster, "read:"+env)
	standings(t, dataDir) // the league played to its end
}
