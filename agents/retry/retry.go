// Package retry is the one retry loop of the agents. A call to a peer
// (rpc.Client.Send), a registration (node.Register), a question to a player
// (the referee's ask), a match-file write (the referee's saveDurably) and a
// match handed to the referees in turn (the manager's playMatch) all retry
// through Do; each states only its Policy: how many attempts or until when,
// the wait before each retry, which errors are final, and what to do before
// each retry.
//
// cenkalti/backoff/v5 was weighed and left: its notify hook gets no attempt
// number and cannot end the loop, it hides its timer from tests, it gives up
// before a wait that would pass its deadline rather than after an attempt
// that did, and it answers a cancelled context with the context's error
// alone, where callers here report the last attempt's.
package retry

import (
	"context"
	"time"

	"github.com/leaguetui/leaguetui/config"
)

// Policy says how an operation is retried.
type Policy struct {
	// Attempts bounds the attempts, the first included; 0 means no bound
	// (a final error, Until or the context ends the loop).
	Attempts int
	// Until, if set, ends the retries: an attempt that fails after it is
	// the last.
	Until time.Time
	// Delay is the wait after attempt n failed, before attempt n+1; nil
	// or a wait of 0 goes on at once.
	Delay func(attempt int) time.Duration
	// Final tells an error that no retry will change: Do returns it at
	// once. Nil retries every error.
	Final func(err error) bool
	// BeforeRetry runs after attempt n failed with err, when a retry
	// follows, before the wait. An error it returns ends the loop with it.
	BeforeRetry func(attempt int, err error) error

	clock clock // nil is the real one; tests set a fake
}

// Configured is the policy of league calls: config.Retry's attempts (at
// least one) and its delays.
func Configured(r config.Retry) Policy {
	return Policy{Attempts: max(r.Attempts, 1), Delay: r.Delay}
}

// Interrupted is Do's error when the context ends before a retry. It reads
// as the context's error; Last is the last attempt's, which callers that
// report why they gave up name.
type Interrupted struct {
	Attempts int   // attempts made
	Last     error // the last attempt's error
	Cause    error // the context's error
}

func (e *Interrupted) Error() string { return e.Cause.Error() }
func (e *Interrupted) Unwrap() error { return e.Cause }

// Do runs try (with its attempt number, from 1) until it succeeds. It
// returns nil then; try's error when it is final, the attempts are used up
// or Until has passed; BeforeRetry's error if it fails; and *Interrupted
// when ctx ends after a failed attempt or during a wait.
func Do(ctx context.Context, p Policy, try func(attempt int) error) error {
	clk := p.clock
	if clk == nil {
		clk = realClock{}
	}
	for attempt := 1; ; attempt++ {
		err := try(attempt)
		if err == nil || p.final(err) || attempt == p.Attempts || (!p.Until.IsZero() && clk.Now().After(p.Until)) {
			return err
		}
		if ctx.Err() != nil {
			return &Interrupted{Attempts: attempt, Last: err, Cause: ctx.Err()}
		}
		if p.BeforeRetry != nil {
			if hookErr := p.BeforeRetry(attempt, err); hookErr != nil {
				return hookErr
			}
		}
		if cause := wait(ctx, clk, p.delay(attempt)); cause != nil {
			return &Interrupted{Attempts: attempt, Last: err, Cause: cause}
		}
	}
}

func (p Policy) final(err error) bool { return p.Final != nil && p.Final(err) }

func (p Policy) delay(attempt int) time.Duration {
	if p.Delay == nil {
		return 0
	}
	return p.Delay(attempt)
}

// wait waits d, or until ctx ends (its error). A context that ended by
// the time the wait did wins: no retry starts on it.
func wait(ctx context.Context, clk clock, d time.Duration) error {
	if d > 0 {
		select {
		case <-clk.After(d):
		case <-ctx.Done():
		}
	}
	return ctx.Err()
}

// clock is the time Do reads and waits on.
type clock interface {
	Now() time.Time
	After(time.Duration) <-chan time.Time
}

type realClock struct{}

func (realClock) Now() time.Time                         { return time.Now() }
func (realClock) After(d time.Duration) <-chan time.Time { return time.After(d) }
