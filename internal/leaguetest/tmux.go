package leaguetest

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// Tmux drives a real terminal on a tmux server of its own (a unique
// socket), so a test never touches anyone else's tmux; the server is
// killed when the test ends.
type Tmux struct {
	t       testing.TB
	socket  string
	session string
}

// NewTmux runs command in a width x height terminal with NO_COLOR set. It
// skips the test when tmux is not installed (fails under CI=true).
func NewTmux(t testing.TB, width, height int, command string) *Tmux {
	t.Helper()
	if _, err := exec.LookPath("tmux"); err != nil {
		SkipWithout(t, "tmux is not installed: the console's real-terminal tests need it")
	}
	id := fmt.Sprintf("%d-%d", os.Getpid(), time.Now().UnixNano())
	x := &Tmux{t: t, socket: "leaguetui-test-" + id, session: "leaguetui-" + id}
	t.Cleanup(func() {
		_, _ = x.run("kill-session", "-t", x.session)
		_, _ = x.run("kill-server")
		if os.Getenv("TMUX_TMPDIR") == "" { // the server leaves its socket behind in /tmp
			_ = os.Remove(filepath.Join("/tmp", fmt.Sprintf("tmux-%d", os.Getuid()), x.socket))
		}
	})
	if out, err := x.run("new-session", "-d", "-s", x.session, "-x", strconv.Itoa(width), "-y", strconv.Itoa(height),
		"-e", "NO_COLOR=1", command); err != nil {
		t.Fatalf("tmux new-session: %v: %s", err, out)
	}
	// Keep the pane after the program exits, to read its last words.
	if out, err := x.run("set-option", "-t", x.session, "remain-on-exit", "on"); err != nil {
		t.Fatalf("tmux set-option: %v: %s", err, out)
	}
	return x
}

func (x *Tmux) run(args ...string) (string, error) {
	out, err := exec.Command("tmux", append([]string{"-L", x.socket}, args...)...).CombinedOutput()
	return string(out), err
}

// Screen is what the terminal shows now.
func (x *Tmux) Screen() string {
	out, _ := x.run("capture-pane", "-p", "-t", x.session)
	return out
}

// Close closes the terminal, as a user closing its window does: the
// program in it gets SIGHUP.
func (x *Tmux) Close() {
	x.t.Helper()
	if out, err := x.run("kill-session", "-t", x.session); err != nil {
		x.t.Fatalf("tmux kill-session: %v: %s", err, out)
	}
}

// Transcript is everything the terminal shows and has scrolled away:
// tmux scrolls a pane's last line away when it marks the pane dead.
func (x *Tmux) Transcript() string {
	out, _ := x.run("capture-pane", "-p", "-S", "-", "-t", x.session)
	return out
}

// Keys types keys, in tmux send-keys' notation.
func (x *Tmux) Keys(keys ...string) {
	x.t.Helper()
	if out, err := x.run(append([]string{"send-keys", "-t", x.session}, keys...)...); err != nil {
		x.t.Fatalf("send-keys %v: %v: %s", keys, err, out)
	}
}

// Pane reads a tmux format of the pane, e.g. #{pane_pid}.
func (x *Tmux) Pane(format string) string {
	out, _ := x.run("display-message", "-p", "-t", x.session, format)
	return strings.TrimSpace(out)
}

// WaitScreen polls the screen until it contains all of want.
func (x *Tmux) WaitScreen(timeout time.Duration, want ...string) string {
	x.t.Helper()
	return x.WaitScreenFor(timeout, fmt.Sprintf("%q", want), func(screen string) bool { return ContainsAll(screen, want...) })
}

// WaitSettledScreen is WaitScreen's screen once it is whole: tmux may be
// read while it draws a frame that the program wrote in one piece (the
// header of the new frame over the key bar of the old), so the screen is
// read until two readings in a row agree and contain all of want.
func (x *Tmux) WaitSettledScreen(timeout time.Duration, want ...string) string {
	x.t.Helper()
	last := ""
	return x.WaitScreenFor(timeout, fmt.Sprintf("%q, twice alike", want), func(screen string) bool {
		settled := screen == last && ContainsAll(screen, want...)
		last = screen
		return settled
	})
}

// ContainsAll reports whether s contains every one of want.
func ContainsAll(s string, want ...string) bool {
	for _, w := range want {
		if !strings.Contains(s, w) {
			return false
		}
	}
	return true
}

// WaitScreenFor polls the screen until ok accepts it, failing the test
// with what and the last screen past timeout.
func (x *Tmux) WaitScreenFor(timeout time.Duration, what string, ok func(screen string) bool) string {
	x.t.Helper()
	deadline := time.Now().Add(timeout)
	for {
		screen := x.Screen()
		if ok(screen) {
			return screen
		}
		if time.Now().After(deadline) {
			x.t.Fatalf("screen lacks %s after %s:\n%s", what, timeout, screen)
		}
		time.Sleep(50 * time.Millisecond) // a poll interval, not a synchronisation
	}
}
