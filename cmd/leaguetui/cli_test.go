package main_test

import (
	"bufio"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/google/pprof/profile"

	"github.com/leaguetui/leaguetui/agents/node"
	"github.com/leaguetui/leaguetui/internal/leaguetest"
)

func TestMain(m *testing.M) { leaguetest.Main(m) }

// run runs the leaguetui binary with args to its end and returns what it
// printed and its exit status.
func run(t *testing.T, args ...string) (stdout, stderr string, status int) {
	t.Helper()
	r := leaguetest.RunLeaguetui(t, t.TempDir(), time.Minute, nil, args...)
	var exit *exec.ExitError
	if r.Err != nil && !errors.As(r.Err, &exit) {
		t.Fatal(r.Err)
	}
	if exit != nil {
		status = exit.ExitCode()
	}
	return r.Stdout, r.Stderr, status
}

func TestHelpGoesToStdout(t *testing.T) {
	for _, args := range [][]string{{"--help"}, {"-h"}, {"player", "--help"}, {"manager", "-help"}, {"bench", "--help"}, {"pages", "--help"}} {
		stdout, stderr, status := run(t, args...)
		if status != 0 || stderr != "" || !strings.Contains(stdout, "-config") {
			t.Errorf("%v: status %d, stderr %q, stdout %.80q…; want the help on stdout and status 0", args, status, stderr, stdout)
		}
	}
	stdout, _, _ := run(t, "--help")
	for _, want := range []string{"Exit status", "130", "-version", "-json", "-quiet"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("--help does not mention %q", want)
		}
	}
}

func TestBadCommandLineIsOneLine(t *testing.T) {
	tests := []struct {
		args []string
		want []string // in the one line on stderr
	}{
		{[]string{"--bogus"}, []string{"unknown flag --bogus", "see --help"}},
		{[]string{"referee", "--bogus"}, []string{"unknown flag --bogus", "see --help"}},
		{[]string{"check", "--bogus"}, []string{"unknown flag --bogus", "see --help"}},
		{[]string{"check", "--role", "manager", "--listen"}, []string{"--role", "player or referee"}},
		{[]string{"--move-timeout", "5"}, []string{"--move-timeout", "write 5s"}},
		{[]string{"--move-timeout", "-1s"}, []string{"--move-timeout -1s", "more than 0"}},
		{[]string{"--attempts", "0", "--no-ui"}, []string{"--attempts 0", "at least 1"}},
		{[]string{"--players", "many"}, []string{"--players", "whole number"}},
		{[]string{"--no-ui=maybe"}, []string{"--no-ui", "true or false"}},
		{[]string{"--data"}, []string{"--data needs a value"}},
		{[]string{"--no-ui", "stray"}, []string{`unexpected argument "stray"`}},
		{[]string{"--json"}, []string{"--json and --quiet go with --no-ui"}},
		{[]string{"--no-ui", "--players", "1"}, []string{"--players 2 or more", "got --players 1"}},
		{[]string{"--no-ui", "--attach", "http://127.0.0.1:1"}, []string{"--attach shows a league in the console"}},
		{[]string{"--no-ui", "--manager-port", "99999"}, []string{"--manager-port 99999", "1..65535"}},
		{[]string{"--no-ui", "--manager-port", "8005"}, []string{"--manager-port 8005", "referee_port_range"}},
		{[]string{"--no-ui", "--manager-port", "9000", "--free-ports"}, []string{"--manager-port and --free-ports"}},
		// Values only a started league used to find wrong: refused before
		// any agent starts, naming the flag and the values it takes.
		{[]string{"--no-ui", "--game", "chess"}, []string{`--game "chess"`, "even_odd, link_race"}},
		{[]string{"--no-ui", "--format", "bogus"}, []string{`--format "bogus"`, "round-robin, double-round-robin, swiss or gauntlet"}},
		{[]string{"--no-ui", "--strategies", "random,nope"}, []string{"--strategies", `"nope"`, "random"}},
		{[]string{"player", "--strategy", "nope"}, []string{`--strategy "nope"`, "random", "llm"}},
		{[]string{"--no-ui", "--format", "swiss"}, []string{"--rounds", ">= 1"}},
		{[]string{"--no-ui", "--format", "gauntlet"}, []string{"--challengers", "player ids"}},
		{[]string{"--no-ui", "--format", "gauntlet", "--challengers", "P01", "--sprt", "elo0=x"}, []string{`--sprt "elo0=x"`, "elo0=0,elo1=10"}},
		{[]string{"--no-ui", "--sprt", "elo0=0,elo1=10"}, []string{"--sprt", "--format gauntlet"}},
		{[]string{"--no-ui", "--players", "4", "--format", "gauntlet", "--challengers", "P01,P09"},
			[]string{"--challengers", `"P09"`, "P01 to P04"}},
		{[]string{"bench", "--players", "3", "--format", "gauntlet", "--challengers", "P04"}, []string{"--challengers", `"P04"`, "P01 to P03"}},
		{[]string{"--no-ui", "--tls-cert", "/nonexistent/cert.pem", "--tls-key", "/nonexistent/key.pem"},
			[]string{"--tls-cert /nonexistent/cert.pem", "no such file"}},
		{[]string{"--no-ui", "--tls-cert", "/nonexistent/cert.pem"}, []string{"--tls-cert and --tls-key"}},
		{[]string{"player", "--tls-ca", "/nonexistent/ca.pem"}, []string{"--tls-ca", "no such file"}},
		{[]string{"manager", "--manager", "http://127.0.0.1:8000/mcp"}, []string{"unknown flag --manager"}},
		{[]string{"referee", "--game", "chess"}, []string{`--game "chess"`, "even_odd"}},
		{[]string{"manager", "--port", "99999"}, []string{"--port 99999 is out of range", "65535"}},
		{[]string{"pages", "--port", "-1"}, []string{"--port -1 is out of range", "65535"}},
		{[]string{"bench", "--players", "1"}, []string{"--players 2 or more", "got --players 1"}},
		{[]string{"bench", "--game", "chess"}, []string{`--game "chess"`, "even_odd"}},
		{[]string{"player", "--manager", "/mcp"}, []string{`--manager "/mcp" is not a valid URL`, "http://"}},
		{[]string{"completion"}, []string{"completion needs one shell", "bash, zsh or fish"}},
		{[]string{"completion", "tcsh"}, []string{`completion "tcsh"`, "bash, zsh or fish"}},
	}
	for _, tt := range tests {
		stdout, stderr, status := run(t, tt.args...)
		lines := strings.Split(strings.TrimSpace(stderr), "\n")
		if status != 2 || stdout != "" || len(lines) != 1 {
			t.Errorf("%v: status %d, stdout %q, stderr %q; want status 2 and one line on stderr", tt.args, status, stdout, stderr)
			continue
		}
		for _, want := range tt.want {
			if !strings.Contains(lines[0], want) {
				t.Errorf("%v: %q does not say %q", tt.args, lines[0], want)
			}
		}
		if strings.Contains(lines[0], "timeouts.") || strings.Contains(lines[0], "retry.") {
			t.Errorf("%v: %q names the config key, not the flag", tt.args, lines[0])
		}
	}
}

// TestBadConfigFileIsOneLine: a misspelt key or a bad value in the config
// folder exits 2 before any agent starts, naming the file and the key,
// and for a misspelt key the keys its object holds.
func TestBadConfigFileIsOneLine(t *testing.T) {
	tests := []struct {
		file, content string
		want          []string
	}{
		{"system.json", `{"timeouts": {"move_timout_sec": 3}}`,
			[]string{"system.json", "timeouts.move_timout_sec", "unknown key", "move_timeout_sec"}},
		{"leagues/league_2025_even_odd.json", `{"game_type": "chess"}`,
			[]string{"league_2025_even_odd.json: game_type", `"chess"`, "even_odd"}},
		{"defaults/player.json", `{"settings": {"stratgy": "random"}}`,
			[]string{"player.json", "settings.stratgy", "unknown key", "strategy"}},
		{"defaults/player.json", `{"settings": {"strategies": "random,nope"}}`,
			[]string{"player.json: settings.strategies", `"nope"`, "random"}},
	}
	for _, tt := range tests {
		dir := t.TempDir()
		path := filepath.Join(dir, filepath.FromSlash(tt.file))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(tt.content), 0o644); err != nil {
			t.Fatal(err)
		}
		stdout, stderr, status := run(t, "--no-ui", "--config", dir)
		lines := strings.Split(strings.TrimSpace(stderr), "\n")
		if status != 2 || stdout != "" || len(lines) != 1 {
			t.Errorf("%s %s: status %d, stdout %q, stderr %q; want status 2 and one line", tt.file, tt.content, status, stdout, stderr)
			continue
		}
		for _, want := range tt.want {
			if !strings.Contains(lines[0], want) {
				t.Errorf("%s: %q does not say %q", tt.file, lines[0], want)
			}
		}
	}
}

// TestBashCompletion loads the script of `leaguetui completion bash` in a
// real bash and asks it what completes: the commands, a command's own
// flags beside the config flags, and folders after a flag that takes one.
func TestBashCompletion(t *testing.T) {
	bash, err := exec.LookPath("bash")
	if err != nil {
		leaguetest.SkipWithout(t, "bash")
	}
	script, stderr, status := run(t, "completion", "bash")
	if status != 0 || stderr != "" {
		t.Fatalf("completion bash: status %d, stderr %q", status, stderr)
	}
	dir := t.TempDir()
	scriptPath := filepath.Join(dir, "leaguetui.bash")
	if err := os.WriteFile(scriptPath, []byte(script), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(dir, "leagues-folder"), 0o755); err != nil {
		t.Fatal(err)
	}
	complete := func(words ...string) []string {
		t.Helper()
		line := `source "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _leaguetui; printf '%s\n' "${COMPREPLY[@]}"`
		cmd := exec.Command(bash, append([]string{"-c", line, "bash", scriptPath}, words...)...)
		cmd.Dir = dir
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("completing %q: %v", words, err)
		}
		return strings.Fields(string(out))
	}
	has := func(got []string, want ...string) bool {
		for _, w := range want {
			if !slices.Contains(got, w) {
				return false
			}
		}
		return true
	}
	if got := complete("leaguetui", ""); !has(got, "manager", "referee", "player", "bench", "pages", "completion") {
		t.Errorf("leaguetui <tab>: %q, want every command", got)
	}
	if got := complete("leaguetui", "player", "--st"); !has(got, "--strategy") || has(got, "--strategies") {
		t.Errorf("leaguetui player --st<tab>: %q, want --strategy alone (a player reads no --strategies)", got)
	}
	if got := complete("leaguetui", "manager", "--ho"); !has(got, "--hold", "--host") || has(got, "--strategy") {
		t.Errorf("leaguetui manager --ho<tab>: %q, want --hold and --host", got)
	}
	if got := complete("leaguetui", "--data", "leagues-"); !has(got, "leagues-folder") {
		t.Errorf("leaguetui --data leagues-<tab>: %q, want the folder", got)
	}
	if got := complete("leaguetui", "completion", ""); !has(got, "bash", "zsh", "fish") {
		t.Errorf("leaguetui completion <tab>: %q, want the shells", got)
	}
	if got := complete("leaguetui", "--format", ""); !has(got, "round-robin", "double-round-robin", "swiss", "gauntlet") {
		t.Errorf("leaguetui --format <tab>: %q, want the formats", got)
	}
	if got := complete("leaguetui", "player", "--strategy", "c"); !has(got, "counter") || has(got, "random") {
		t.Errorf("leaguetui player --strategy c<tab>: %q, want counter", got)
	}
}

// TestZshAndFishCompletionParse: the zsh and fish scripts are valid for
// their shell, where it is installed.
func TestZshAndFishCompletionParse(t *testing.T) {
	for _, shell := range []string{"zsh", "fish"} {
		t.Run(shell, func(t *testing.T) {
			script, stderr, status := run(t, "completion", shell)
			if status != 0 || stderr != "" || !strings.Contains(script, "--move-timeout") && !strings.Contains(script, "-l move-timeout") {
				t.Fatalf("completion %s: status %d, stderr %q, script without the config flags", shell, status, stderr)
			}
			path, err := exec.LookPath(shell)
			if err != nil {
				t.Skipf("%s is not installed: the script is written but not parsed", shell)
			}
			cmd := exec.Command(path, "-n")
			cmd.Stdin = strings.NewReader(script)
			if out, err := cmd.CombinedOutput(); err != nil {
				t.Errorf("%s -n: %v: %s", shell, err, out)
			}
			if shell != "fish" {
				return
			}
			// fish answers what it would complete: the formats after --format.
			cmd = exec.Command(path, "-c", `source; complete -C "leaguetui --format "; complete -C "leaguetui pla"`)
			cmd.Stdin = strings.NewReader(script)
			out, err := cmd.Output()
			if err != nil || !strings.Contains(string(out), "swiss") || !strings.Contains(string(out), "player") {
				t.Errorf("fish completes %q (%v); want the formats and the player command", out, err)
			}
		})
	}
}

func TestVersion(t *testing.T) {
	stdout, stderr, status := run(t, "--version")
	if status != 0 || stderr != "" || !strings.HasPrefix(stdout, "leaguetui ") || !strings.Contains(stdout, "go1.") {
		t.Errorf("--version: status %d, stdout %q, stderr %q", status, stdout, stderr)
	}
}

// TestAgentInterruptedExits130: an agent command stopped with Ctrl-C
// exits 130, like --no-ui and the console.
func TestAgentInterruptedExits130(t *testing.T) {
	if got := stopManager(t, syscall.SIGINT); got != 130 {
		t.Errorf("exit status %d after Ctrl-C, want 130", got)
	}
}

// TestAgentWritesCPUProfile: an agent started with LEAGUETUI_CPUPROFILE
// writes its CPU profile there when it is stopped.
func TestAgentWritesCPUProfile(t *testing.T) {
	dir := t.TempDir()
	if got := stopManager(t, syscall.SIGTERM, "LEAGUETUI_CPUPROFILE="+dir); got != 0 {
		t.Errorf("exit status %d after SIGTERM, want 0", got)
	}
	profiles, _ := filepath.Glob(filepath.Join(dir, "manager-*.pprof"))
	if len(profiles) != 1 {
		t.Fatalf("profiles written: %v, want one manager-<pid>.pprof", profiles)
	}
	data, err := os.ReadFile(profiles[0])
	if err != nil {
		t.Fatal(err)
	}
	if len(data) < 2 || data[0] != 0x1f || data[1] != 0x8b { // pprof profiles are gzipped protobuf
		t.Errorf("%s is not a pprof profile (%d bytes)", profiles[0], len(data))
	}
}

// TestAgentProfilesWindowOnSignal: an agent started with
// LEAGUETUI_CPUPROFILE_WINDOW=signal profiles from SIGUSR1 to SIGUSR2
// only (the window the bench opens at the league's start and closes at
// its end): no profile before the first, a whole one after the second
// while the agent still runs.
func TestAgentProfilesWindowOnSignal(t *testing.T) {
	dir := t.TempDir()
	profiles := func() []string {
		found, _ := filepath.Glob(filepath.Join(dir, "manager-*.pprof"))
		return found
	}
	window := func(manager *os.Process) {
		if found := profiles(); len(found) != 0 {
			t.Errorf("profiles before SIGUSR1: %v", found)
		}
		if err := manager.Signal(node.CPUProfileStart); err != nil {
			t.Fatal(err)
		}
		waitFor(t, "the profile to start", func() bool { return len(profiles()) == 1 })
		if err := manager.Signal(node.CPUProfileStop); err != nil {
			t.Fatal(err)
		}
		waitFor(t, "the profile to be written", func() bool {
			f, err := os.Open(profiles()[0])
			if err != nil {
				return false
			}
			defer f.Close()
			_, err = profile.Parse(f)
			return err == nil
		})
	}
	if got := stopManagerAfter(t, window, syscall.SIGTERM, node.CPUProfileEnv+"="+dir,
		node.CPUProfileWindowEnv+"="+node.CPUProfileOnSignal); got != 0 {
		t.Errorf("exit status %d after SIGTERM, want 0", got)
	}
	if found := profiles(); len(found) != 1 {
		t.Errorf("profiles written: %v, want one manager-<pid>.pprof", found)
	}
}

// waitFor polls done for up to 30 s.
func waitFor(t *testing.T, what string, done func() bool) {
	t.Helper()
	for deadline := time.Now().Add(30 * time.Second); !done(); time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
	}
}

// stopManager starts a manager with env added, waits until it listens,
// sends it sig and returns its exit status.
func stopManager(t *testing.T, sig os.Signal, env ...string) int {
	t.Helper()
	return stopManagerAfter(t, nil, sig, env...)
}

// stopManagerAfter is stopManager, running whileUp (when not nil) once
// the manager listens, before sig.
func stopManagerAfter(t *testing.T, whileUp func(*os.Process), sig os.Signal, env ...string) int {
	t.Helper()
	dir := t.TempDir()
	cmd := exec.Command(leaguetest.Binary(t), "manager", "--port", "0", "--data", dir)
	cmd.Env = append(os.Environ(), append(leaguetest.ChildEnv(), "LEAGUETUI_ADMIN_TOKEN=adm-cli-test-0123456789abcdef")...)
	cmd.Env = append(cmd.Env, env...)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	listening := make(chan bool, 1)
	go func() {
		scanner := bufio.NewScanner(stdout)
		ready := false
		for scanner.Scan() {
			if !ready && strings.HasPrefix(scanner.Text(), node.ReadyListening) {
				ready = true
				listening <- true
			}
		}
		close(listening)
	}()
	select {
	case ok := <-listening:
		if !ok {
			t.Fatal("the manager exited before listening")
		}
	case <-time.After(leaguetest.ReadyTimeout):
		_ = cmd.Process.Kill()
		t.Fatal("the manager did not listen in time")
	}
	if whileUp != nil {
		t.Cleanup(func() { _ = cmd.Process.Kill() }) // if whileUp failed the test; a no-op once it has exited
		whileUp(cmd.Process)
	}
	if err := cmd.Process.Signal(sig); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	select {
	case <-exited:
	case <-time.After(30 * time.Second):
		_ = cmd.Process.Kill()
		t.Fatalf("the manager did not exit after %v", sig)
	}
	return cmd.ProcessState.ExitCode()
}
