package throttle

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// clock is a test's clock, moved by hand.
type clock struct{ now time.Time }

func (c *clock) Now() time.Time { return c.now }

func TestLockOutDoublesUpToTheMaximum(t *testing.T) {
	c := &clock{now: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}
	g := New(Options{Free: 3, FirstLock: time.Second, MaxLock: 10 * time.Second, Now: c.Now})
	for i := range 3 {
		if lock := g.Wrong("a"); lock != 0 {
			t.Fatalf("wrong guess %d of 3 free: locked out for %s", i+1, lock)
		}
	}
	if wait := g.LockedOut("a"); wait != 0 {
		t.Fatalf("after the free guesses: locked out for %s", wait)
	}
	for i, want := range []time.Duration{1, 2, 4, 8, 10, 10} {
		if lock := g.Wrong("a"); lock != want*time.Second {
			t.Errorf("wrong guess %d beyond the free ones: locked out for %s, want %s", i+1, lock, want*time.Second)
		}
	}
	if wait := g.LockedOut("a"); wait != 10*time.Second {
		t.Errorf("locked out for %s, want the maximum, 10s", wait)
	}
	if wait := g.LockedOut("b"); wait != 0 {
		t.Errorf("another source is locked out for %s", wait)
	}
	c.now = c.now.Add(10 * time.Second)
	if wait := g.LockedOut("a"); wait != 0 {
		t.Errorf("after its lock-out: still %s", wait)
	}
	for range 100 { // far past any shift: the lock stays the maximum
		g.Wrong("a")
	}
	if wait := g.LockedOut("a"); wait != 10*time.Second {
		t.Errorf("after 100 more: locked out for %s, want 10s", wait)
	}
}

func TestCountForgottenAfterAWhile(t *testing.T) {
	c := &clock{now: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}
	g := New(Options{Free: 2, FirstLock: time.Second, Forget: time.Minute, Now: c.Now})
	g.Wrong("a")
	g.Wrong("a")
	c.now = c.now.Add(time.Minute + time.Second)
	if lock := g.Wrong("a"); lock != 0 {
		t.Errorf("a wrong guess after its count was forgotten: locked out for %s", lock)
	}
}

// TestSourcesBounded: a flood of sources keeps at most MaxSources, the
// stalest dropped, and a source still locked out stays locked out while
// fresher ones come.
func TestSourcesBounded(t *testing.T) {
	c := &clock{now: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}
	g := New(Options{Free: 1, MaxSources: 8, Now: c.Now})
	for i := range 1000 {
		c.now = c.now.Add(time.Millisecond)
		g.Wrong(fmt.Sprintf("10.0.%d.%d", i/256, i%256))
	}
	if n := len(g.sources); n > 8 {
		t.Errorf("%d sources remembered, want at most 8", n)
	}
	c.now = c.now.Add(time.Millisecond)
	g.Wrong("attacker")
	g.Wrong("attacker")
	for i := range 6 {
		g.Wrong(fmt.Sprintf("192.0.2.%d", i))
	}
	if g.LockedOut("attacker") == 0 {
		t.Error("a source locked out lost its lock-out to fresher sources")
	}
}

func TestSource(t *testing.T) {
	for remote, want := range map[string]string{
		"192.0.2.7:4242":                "192.0.2.7",
		"[::ffff:192.0.2.7]:80":         "192.0.2.7",
		"[2001:db8:1:2:3:4:5:6]:443":    "2001:db8:1:2::/64",
		"[2001:db8:1:2:ffff::1%eth0]:1": "2001:db8:1:2::/64",
		"[::1]:9":                       "::/64",
		"not an address":                "not an address",
	} {
		if got := Source(remote); got != want {
			t.Errorf("Source(%q) = %q, want %q", remote, got, want)
		}
	}
}

// TestSecurityPageGivesTheBounds: docs/security.md states the defaults
// as they are.
func TestSecurityPageGivesTheBounds(t *testing.T) {
	page, err := os.ReadFile(filepath.Join("..", "..", "docs", "security.md"))
	if err != nil {
		t.Fatal(err)
	}
	text := strings.Join(strings.Fields(string(page)), " ")
	for _, want := range []string{
		fmt.Sprintf("may give %d wrong join codes", DefaultFree),
		fmt.Sprintf("locks it out for %s", DefaultFirstLock),
		fmt.Sprintf("at most %d minutes", int(DefaultMaxLock/time.Minute)),
		fmt.Sprintf("forgotten %d minutes after its last wrong code", int(DefaultForget/time.Minute)),
		fmt.Sprintf("at most %s sources are remembered", humanCount(DefaultMaxSources)),
	} {
		if !strings.Contains(text, want) {
			t.Errorf("docs/security.md does not say %q", want)
		}
	}
}

// humanCount writes n with a comma between thousands, as the page does.
func humanCount(n int) string {
	if n < 1000 {
		return fmt.Sprint(n)
	}
	return fmt.Sprintf("%d,%03d", n/1000, n%1000)
}
