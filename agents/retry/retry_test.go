package retry

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/leaguetui/leaguetui/config"
)

// fakeClock never sleeps: a wait moves its time on at once, and it records
// every wait asked for.
type fakeClock struct {
	now   time.Time
	waits []time.Duration
}

func (c *fakeClock) Now() time.Time { return c.now }

func (c *fakeClock) After(d time.Duration) <-chan time.Time {
	c.waits = append(c.waits, d)
	c.now = c.now.Add(d)
	fired := make(chan time.Time, 1)
	fired <- c.now
	return fired
}

// stuckClock's waits never end; waiting says when one begins.
type stuckClock struct{ waiting chan time.Duration }

func (c stuckClock) Now() time.Time { return time.Unix(0, 0) }

func (c stuckClock) After(d time.Duration) <-chan time.Time {
	c.waiting <- d
	return nil // a nil channel never delivers
}

// attemptErr is the error attempt n fails with.
func attemptErr(n int) error { return fmt.Errorf("attempt %d failed", n) }

type hookCall struct {
	attempt int
	err     error
}

// recorder counts attempts and hook calls.
type recorder struct {
	attempts int
	hooks    []hookCall
}

func (r *recorder) failing(succeedAt int) func(int) error {
	return func(attempt int) error {
		r.attempts++
		if attempt != r.attempts {
			panic(fmt.Sprintf("attempt numbered %d, want %d", attempt, r.attempts))
		}
		if attempt == succeedAt {
			return nil
		}
		return attemptErr(attempt)
	}
}

func (r *recorder) hook(attempt int, err error) error {
	r.hooks = append(r.hooks, hookCall{attempt, err})
	return nil
}

func doubling(attempt int) time.Duration { return time.Duration(attempt) * 100 * time.Millisecond }

func TestAttemptsHooksAndDelays(t *testing.T) {
	clk := &fakeClock{now: time.Unix(0, 0)}
	var r recorder
	err := Do(context.Background(), Policy{Attempts: 3, Delay: doubling, BeforeRetry: r.hook, clock: clk}, r.failing(0))
	if err == nil || err.Error() != attemptErr(3).Error() {
		t.Errorf("Do = %v, want the last attempt's error %q", err, attemptErr(3))
	}
	if r.attempts != 3 {
		t.Errorf("%d attempts, want 3", r.attempts)
	}
	want := []hookCall{{1, attemptErr(1)}, {2, attemptErr(2)}}
	if len(r.hooks) != len(want) {
		t.Fatalf("BeforeRetry ran %d times (%v), want %d", len(r.hooks), r.hooks, len(want))
	}
	for i, h := range r.hooks {
		if h.attempt != want[i].attempt || h.err.Error() != want[i].err.Error() {
			t.Errorf("BeforeRetry call %d = (%d, %v), want (%d, %v)", i, h.attempt, h.err, want[i].attempt, want[i].err)
		}
	}
	if wantWaits := []time.Duration{doubling(1), doubling(2)}; !slices.Equal(clk.waits, wantWaits) {
		t.Errorf("waits %v, want %v", clk.waits, wantWaits)
	}
}

// TestSuccessEndsTheLoop, with a bound on attempts or none.
func TestSuccessEndsTheLoop(t *testing.T) {
	for _, tt := range []struct{ bound, succeedAt int }{{5, 2}, {0, 10}} {
		clk := &fakeClock{now: time.Unix(0, 0)}
		var r recorder
		policy := Policy{Attempts: tt.bound, Delay: doubling, BeforeRetry: r.hook, clock: clk}
		if err := Do(context.Background(), policy, r.failing(tt.succeedAt)); err != nil {
			t.Fatalf("bound %d: Do = %v, want nil", tt.bound, err)
		}
		if want := tt.succeedAt - 1; r.attempts != tt.succeedAt || len(r.hooks) != want || len(clk.waits) != want {
			t.Errorf("bound %d: %d attempts, %d hook calls, %d waits; want %d, %d, %d", tt.bound,
				r.attempts, len(r.hooks), len(clk.waits), tt.succeedAt, want, want)
		}
	}
}

func TestFinalErrorStopsAtOnce(t *testing.T) {
	clk := &fakeClock{now: time.Unix(0, 0)}
	var r recorder
	final := func(err error) bool { return err.Error() == attemptErr(2).Error() }
	err := Do(context.Background(), Policy{Attempts: 5, Delay: doubling, Final: final, BeforeRetry: r.hook, clock: clk},
		r.failing(0))
	if err == nil || err.Error() != attemptErr(2).Error() {
		t.Errorf("Do = %v, want the final error", err)
	}
	if r.attempts != 2 || len(r.hooks) != 1 || len(clk.waits) != 1 {
		t.Errorf("%d attempts, %d hook calls, %d waits; want 2, 1, 1 (nothing after the final error)",
			r.attempts, len(r.hooks), len(clk.waits))
	}
}

// TestUntil: an attempt that fails after the deadline is the last; one
// that fails before it is retried.
func TestUntil(t *testing.T) {
	start := time.Unix(1000, 0)
	clk := &fakeClock{now: start}
	var r recorder
	second := func(int) time.Duration { return time.Second }
	err := Do(context.Background(), Policy{Until: start.Add(2500 * time.Millisecond), Delay: second, clock: clk},
		r.failing(0))
	// Attempts at 0 s, 1 s, 2 s (before the deadline) and 3 s (after it).
	if r.attempts != 4 {
		t.Errorf("%d attempts, want 4", r.attempts)
	}
	if err == nil || err.Error() != attemptErr(4).Error() {
		t.Errorf("Do = %v, want the last attempt's error", err)
	}
}

func TestHookErrorEndsTheLoop(t *testing.T) {
	clk := &fakeClock{now: time.Unix(0, 0)}
	var r recorder
	stop := errors.New("cannot go on")
	hook := func(attempt int, err error) error {
		_ = r.hook(attempt, err)
		if attempt == 2 {
			return stop
		}
		return nil
	}
	err := Do(context.Background(), Policy{Delay: doubling, BeforeRetry: hook, clock: clk}, r.failing(0))
	if !errors.Is(err, stop) {
		t.Errorf("Do = %v, want the hook's error", err)
	}
	if r.attempts != 2 || len(clk.waits) != 1 {
		t.Errorf("%d attempts and %d waits, want 2 and 1", r.attempts, len(clk.waits))
	}
}

// TestCancelStopsTheWait: a wait that would never end ends with the
// context, and the error keeps the last attempt's.
func TestCancelStopsTheWait(t *testing.T) {
	clk := stuckClock{waiting: make(chan time.Duration, 1)}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var r recorder
	done := make(chan error, 1)
	go func() { done <- Do(ctx, Policy{Attempts: 3, Delay: doubling, clock: clk}, r.failing(0)) }()
	if d := <-clk.waiting; d != doubling(1) {
		t.Errorf("waiting %v, want %v", d, doubling(1))
	}
	cancel()
	var err error
	select {
	case err = <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("Do kept waiting after its context was cancelled")
	}
	var stopped *Interrupted
	if !errors.As(err, &stopped) || !errors.Is(err, context.Canceled) {
		t.Fatalf("Do = %v, want an Interrupted reading as context.Canceled", err)
	}
	if stopped.Attempts != 1 || stopped.Last.Error() != attemptErr(1).Error() || err.Error() != context.Canceled.Error() {
		t.Errorf("Interrupted after %d attempts, last %v, reads %q; want 1, %v, %q",
			stopped.Attempts, stopped.Last, err, attemptErr(1), context.Canceled)
	}
}

// TestCancelledDuringAttempt: a context that ended during an attempt ends
// the loop before the hook and the wait.
func TestCancelledDuringAttempt(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var r recorder
	try := func(attempt int) error {
		if attempt == 2 {
			cancel()
		}
		return r.failing(0)(attempt)
	}
	clk := &fakeClock{now: time.Unix(0, 0)}
	err := Do(ctx, Policy{Attempts: 5, Delay: doubling, BeforeRetry: r.hook, clock: clk}, try)
	var stopped *Interrupted
	if !errors.As(err, &stopped) || stopped.Attempts != 2 || stopped.Last.Error() != attemptErr(2).Error() {
		t.Fatalf("Do = %#v, want Interrupted after attempt 2", err)
	}
	if len(r.hooks) != 1 || len(clk.waits) != 1 {
		t.Errorf("%d hook calls and %d waits, want 1 and 1 (none after the cancel)", len(r.hooks), len(clk.waits))
	}
}

// TestNoRetryOnAnEndedContext: a context that ends while its wait ends too
// starts no retry.
func TestNoRetryOnAnEndedContext(t *testing.T) {
	for _, d := range []time.Duration{0, time.Second} {
		ctx, cancel := context.WithCancel(context.Background())
		var r recorder
		hook := func(int, error) error { cancel(); return nil }
		clk := &fakeClock{now: time.Unix(0, 0)} // its wait is over at once
		err := Do(ctx, Policy{Attempts: 5, Delay: func(int) time.Duration { return d }, BeforeRetry: hook, clock: clk},
			r.failing(0))
		var stopped *Interrupted
		if !errors.As(err, &stopped) || r.attempts != 1 {
			t.Errorf("delay %v: Do = %v after %d attempts, want Interrupted after 1", d, err, r.attempts)
		}
	}
}

// TestZeroDelayGoesOnAtOnce: no wait is asked for a delay of 0.
func TestZeroDelayGoesOnAtOnce(t *testing.T) {
	clk := stuckClock{waiting: make(chan time.Duration, 1)}
	var r recorder
	if err := Do(context.Background(), Policy{Attempts: 3, clock: clk}, r.failing(3)); err != nil {
		t.Fatalf("Do = %v, want nil", err)
	}
	if len(clk.waiting) != 0 {
		t.Errorf("Do waited %v with no delay", <-clk.waiting)
	}
}

func TestConfigured(t *testing.T) {
	r := config.Retry{Attempts: 4, InitialDelay: time.Second, Multiplier: 2}
	p := Configured(r)
	if p.Attempts != 4 || p.Delay(3) != r.Delay(3) {
		t.Errorf("Configured = %d attempts, delay(3) %v; want 4, %v", p.Attempts, p.Delay(3), r.Delay(3))
	}
	if got := Configured(config.Retry{}).Attempts; got != 1 {
		t.Errorf("Configured with no attempts allows %d, want 1 (a call is always tried)", got)
	}
}
