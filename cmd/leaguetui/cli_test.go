package main_test

import (
	"bufio"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
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
	for _, args := range [][]string{{"--help"}, {"-h"}, {"player", "--help"}, {"manager", "-help"}, {"bench", "--help"}, {"check", "--help"}} {
		stdout, stderr, status := run(t, args...)
		if status != 0 || stderr != "" || !strings.Contains(stdout, "-data") {
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
