package leaguetest

import (
	"bufio"
	"bytes"
	"os"
	"os/exec"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

// Live is the leaguetui binary running, its stderr read line by line as
// it comes, so that a test can wait for the line that says what it needs
// (a URL, a progress line) rather than for a time.
type Live struct {
	Cmd    *exec.Cmd
	Stdout bytes.Buffer // whole once Exited has given its value

	mu     sync.Mutex
	lines  []string
	grew   chan struct{}
	exited chan error
}

// StartLive runs leaguetui with args in the folder dir ("" for the test's
// own), its agents given ChildEnv and env. It is killed at the test's end,
// and the processes started with dataDir with it.
func StartLive(t testing.TB, dir, dataDir string, env []string, args ...string) *Live {
	t.Helper()
	l := &Live{grew: make(chan struct{}, 1), exited: make(chan error, 1)}
	l.Cmd = exec.Command(Binary(t), args...)
	l.Cmd.Dir = dir
	l.Cmd.Env = append(append(os.Environ(), ChildEnv()...), env...)
	l.Cmd.Stdout = &l.Stdout
	stderr, err := l.Cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := l.Cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() {
		scanner := bufio.NewScanner(stderr)
		for scanner.Scan() {
			l.mu.Lock()
			l.lines = append(l.lines, scanner.Text())
			l.mu.Unlock()
			select {
			case l.grew <- struct{}{}:
			default:
			}
		}
		l.exited <- l.Cmd.Wait()
	}()
	t.Cleanup(func() {
		_ = l.Cmd.Process.Kill()
		KillLeftovers(t, dataDir)
	})
	return l
}

// Exited gives Wait's error once leaguetui has exited (once only).
func (l *Live) Exited() <-chan error { return l.exited }

// Stderr is every line of stderr so far.
func (l *Live) Stderr() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return strings.Join(l.lines, "\n")
}

// AwaitLine waits for a stderr line holding want and returns it.
func (l *Live) AwaitLine(t testing.TB, want string, timeout time.Duration) string {
	t.Helper()
	deadline := time.After(timeout)
	for {
		l.mu.Lock()
		i := slices.IndexFunc(l.lines, func(s string) bool { return strings.Contains(s, want) })
		line := ""
		if i >= 0 {
			line = l.lines[i]
		}
		l.mu.Unlock()
		if i >= 0 {
			return line
		}
		select {
		case <-l.grew:
		case <-deadline:
			t.Fatalf("no line with %q on stderr within %s:\n%s", want, timeout, l.Stderr())
		}
	}
}
