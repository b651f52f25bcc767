package ratelimit

import (
	"math"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"
)

// clock is a clock the test moves by hand.
type clock struct{ t time.Time }

func (c *clock) now() time.Time          { return c.t }
func (c *clock) advance(d time.Duration) { c.t = c.t.Add(d) }

func newClock() *clock { return &clock{t: time.Unix(1_800_000_000, 0)} }

// slots reserves n slots of tokens each and returns their offsets from
// the clock's time.
func slots(t *testing.T, l *Limiter, c *clock, n int, tokens int64) []time.Duration {
	t.Helper()
	var out []time.Duration
	for range n {
		at, _, ok := l.Reserve(tokens, time.Time{})
		if !ok {
			t.Fatal("a reservation without a deadline was refused")
		}
		out = append(out, at.Sub(c.t))
	}
	return out
}

func wantSlots(t *testing.T, got, want []time.Duration) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("slots %v, want %v", got, want)
	}
	for i := range got {
		if d := got[i] - want[i]; d > time.Millisecond || d < -time.Millisecond {
			t.Fatalf("slots %v, want %v", got, want)
		}
	}
}

func TestNothingKnownNothingWaits(t *testing.T) {
	c := newClock()
	l := New(Limits{}, c.now)
	wantSlots(t, slots(t, l, c, 5, 1000), []time.Duration{0, 0, 0, 0, 0})
	l.Observe(0, http.StatusOK, http.Header{})
	wantSlots(t, slots(t, l, c, 2, 1000), []time.Duration{0, 0})
}

func TestConfiguredRPMSpacesRequests(t *testing.T) {
	c := newClock()
	l := New(Limits{RPM: 600}, c.now) // ten a second
	wantSlots(t, slots(t, l, c, 4, 0), []time.Duration{0, 100 * time.Millisecond, 200 * time.Millisecond, 300 * time.Millisecond})
	// An idle spell saves no burst: the next request after it is spaced
	// from the one after it all the same.
	c.advance(5 * time.Second)
	wantSlots(t, slots(t, l, c, 2, 0), []time.Duration{0, 100 * time.Millisecond})
}

func TestConfiguredTPMSpacesByTokens(t *testing.T) {
	c := newClock()
	l := New(Limits{TPM: 60_000}, c.now) // a thousand a second
	wantSlots(t, slots(t, l, c, 3, 500), []time.Duration{0, 500 * time.Millisecond, time.Second})
}

func TestDeadlineRefusesALateSlotWithoutTakingIt(t *testing.T) {
	c := newClock()
	l := New(Limits{RPM: 60}, c.now) // one a second
	slots(t, l, c, 1, 0)
	at, _, ok := l.Reserve(0, c.t.Add(500*time.Millisecond))
	if ok || at.Sub(c.t) != time.Second {
		t.Fatalf("Reserve past the deadline = %v, %v; want refused, the slot in 1s", at.Sub(c.t), ok)
	}
	wantSlots(t, slots(t, l, c, 1, 0), []time.Duration{time.Second}) // the refused one took nothing
}

func TestHeadersTeachTheProvidersLimit(t *testing.T) {
	c := newClock()
	l := New(Limits{}, c.now)
	l.Observe(0, http.StatusOK, http.Header{"X-Ratelimit-Limit-Requests": {"300"}, "X-Ratelimit-Remaining-Requests": {"0.5"}})
	wantSlots(t, slots(t, l, c, 3, 0), []time.Duration{200 * time.Millisecond, 400 * time.Millisecond, 600 * time.Millisecond})
	// A configured ceiling under the provider's own wins.
	c2 := newClock()
	l2 := New(Limits{RPM: 60}, c2.now)
	l2.Observe(0, http.StatusOK, http.Header{"Anthropic-Ratelimit-Requests-Limit": {"300"}})
	wantSlots(t, slots(t, l2, c2, 2, 0), []time.Duration{0, time.Second})
}

// What the headers say remains is spent at once, less the requests
// reserved after the one answered (they may not have been counted yet)
// and what creditMargin at the stated rate takes; then the schedule goes
// on at the stated rate.
func TestStatedRemainingIsABurst(t *testing.T) {
	c := newClock()
	l := New(Limits{}, c.now)
	wantSlots(t, slots(t, l, c, 3, 0), []time.Duration{0, 0, 0}) // tickets 1 to 3
	l.Observe(1, http.StatusOK, http.Header{"X-Ratelimit-Limit-Requests": {"600"}, "X-Ratelimit-Remaining-Requests": {"8"}})
	// 8 remain, less tickets 2 and 3: 6 of credit, of which 2.5 (a
	// quarter second at 10 a second) are kept: 3 go at once.
	ms := time.Millisecond
	wantSlots(t, slots(t, l, c, 6, 0), []time.Duration{0, 0, 0, 0, 100 * ms, 200 * ms})
	// A configured ceiling is never passed, burst or not.
	c2 := newClock()
	l2 := New(Limits{RPM: 600}, c2.now)
	l2.Observe(0, http.StatusOK, http.Header{"X-Ratelimit-Remaining-Requests": {"50"}})
	wantSlots(t, slots(t, l2, c2, 3, 0), []time.Duration{0, 100 * ms, 200 * ms})
}

func TestNothingRemainingHoldsUntilTheReset(t *testing.T) {
	c := newClock()
	l := New(Limits{}, c.now)
	reset := c.t.Add(3 * time.Second).UTC().Format(time.RFC3339)
	l.Observe(0, http.StatusOK, http.Header{"Anthropic-Ratelimit-Tokens-Remaining": {"0"}, "Anthropic-Ratelimit-Tokens-Reset": {reset}})
	wantSlots(t, slots(t, l, c, 1, 0), []time.Duration{3 * time.Second})
	c.advance(5 * time.Second)
	l.Observe(0, http.StatusOK, http.Header{"X-Ratelimit-Remaining-Requests": {"0"}, "X-Ratelimit-Reset-Requests": {"1.5s"}})
	wantSlots(t, slots(t, l, c, 1, 0), []time.Duration{1500 * time.Millisecond})
}

// A 429 holds every request for its Retry-After and cuts the rate the
// answers came at; answers then raise it a step each, never past the
// configured ceiling; the 429s of one burst cut it once.
func TestRateLimitedAIMD(t *testing.T) {
	c := newClock()
	l := New(Limits{RPM: 1200}, c.now) // a ceiling of 20 a second
	for range 10 {
		l.Observe(0, http.StatusOK, nil)
	}
	l.Observe(0, http.StatusTooManyRequests, http.Header{"Retry-After-Ms": {"250"}})
	l.Observe(0, http.StatusTooManyRequests, http.Header{"Retry-After": {"1"}}) // the same burst: no second cut
	rate := l.rate()
	if want := 20 * decrease; rate != want {
		t.Fatalf("rate after a 429 = %v, want the ceiling cut to %v", rate, want)
	}
	wantSlots(t, slots(t, l, c, 2, 0), []time.Duration{time.Second, time.Second + time.Duration(1e9/rate)})
	c.advance(2 * time.Second)
	l.Observe(0, http.StatusOK, nil)
	if got, want := l.rate(), rate+increaseStep; got != want {
		t.Fatalf("rate after an answer = %v, want %v", got, want)
	}
	for range 1000 {
		l.Observe(0, http.StatusOK, nil)
	}
	if got := l.rate(); got != 20 {
		t.Fatalf("rate after many answers = %v, want the ceiling 20", got)
	}
	c.advance(cutEvery)
	l.Observe(0, http.StatusTooManyRequests, nil)
	if got := l.rate(); got != 20*decrease {
		t.Fatalf("rate after a later 429 = %v, want %v", got, 20*decrease)
	}
}

// With nothing configured nor stated, the first 429 cuts the rate the
// answers came at over the last second.
func TestFirst429LearnsFromTheAnswers(t *testing.T) {
	c := newClock()
	l := New(Limits{}, c.now)
	for range 12 {
		l.Observe(0, http.StatusOK, nil)
		c.advance(50 * time.Millisecond)
	}
	l.Observe(0, http.StatusTooManyRequests, nil)
	if got, want := l.rate(), 12*decrease; got < want*0.99 || got > want*1.01 {
		t.Fatalf("learned rate = %v, want %v", got, want)
	}
}

// Two limiters on one file, as two player processes are, take their slots
// from one schedule, and what one learns the other keeps to.
func TestSharedFileIsOneSchedule(t *testing.T) {
	c := newClock()
	path := Path(t.TempDir(), Identity("openai", "http://127.0.0.1:1/v1", "sk-test"))
	a, b := NewShared(Limits{RPM: 600}, c.now, path), NewShared(Limits{RPM: 600}, c.now, path)
	var got []time.Duration
	for range 3 {
		got = append(got, slots(t, a, c, 1, 0)...)
		got = append(got, slots(t, b, c, 1, 0)...)
	}
	ms := time.Millisecond
	wantSlots(t, got, []time.Duration{0, 100 * ms, 200 * ms, 300 * ms, 400 * ms, 500 * ms})
	a.Observe(0, http.StatusTooManyRequests, http.Header{"Retry-After": {"2"}})
	if at, _, _ := b.Reserve(0, time.Time{}); at.Sub(c.t) != 2*time.Second {
		t.Fatalf("the other process's next slot is in %v, want the 2s hold", at.Sub(c.t))
	}
}

// A shared file that holds garbage, or times and rates no provider would
// give, is read as a bounded schedule: nothing waits past maxHold.
func TestHostileSharedFileIsBounded(t *testing.T) {
	c := newClock()
	path := filepath.Join(t.TempDir(), "ratelimit.json")
	far := strconv.FormatInt(c.t.Add(1000*time.Hour).UnixNano(), 10)
	for _, content := range []string{"not json", `{"next":` + far + `,"hold":` + far + `,"rate":1e300}`, `{"rate":-5,"header_rps":1e-300}`} {
		if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		l := NewShared(Limits{}, c.now, path)
		at, _, _ := l.Reserve(0, time.Time{})
		if wait := at.Sub(c.t); wait < 0 || wait > maxHold {
			t.Errorf("file %q: the slot is in %v, outside 0 to %v", content, wait, maxHold)
		}
	}
	l := New(Limits{}, c.now)
	l.Observe(0, http.StatusTooManyRequests, http.Header{"Retry-After": {"99999999"}, "X-Ratelimit-Limit-Requests": {"NaN"}})
	if at, _, _ := l.Reserve(0, time.Time{}); at.Sub(c.t) != maxHold {
		t.Errorf("a Retry-After of years holds %v, want %v", at.Sub(c.t), maxHold)
	}
}

// rate is the request rate in force.
func (l *Limiter) rate() (r float64) {
	l.store.update(func(s *state) { r = l.requestRate(s) })
	return r
}

// A provider that refuses everything teaches no rate: with nothing
// answered there is nothing to cut, and its holds alone pace the
// requests.
func TestRefusedEverythingTeachesNoRate(t *testing.T) {
	c := newClock()
	l := New(Limits{}, c.now)
	for range 5 {
		l.Observe(0, http.StatusTooManyRequests, http.Header{"Retry-After": {"0"}})
		c.advance(10 * time.Millisecond)
	}
	if got := l.rate(); got != 0 {
		t.Fatalf("rate after 429s alone = %v, want none", got)
	}
	wantSlots(t, slots(t, l, c, 2, 0), []time.Duration{0, 0})
}

// Past nearPeak of the rate the last 429 came at, the rate creeps:
// increaseStep × peakStep an answer.
func TestRateCreepsNearThePeak(t *testing.T) {
	c := newClock()
	l := New(Limits{RPM: 1200}, c.now) // 20 a second, cut to 16
	l.Observe(0, http.StatusTooManyRequests, nil)
	climb := int((20*nearPeak - 20*decrease) / increaseStep) // answers to climb from 16 to 19
	for range climb {
		l.Observe(0, http.StatusOK, nil)
	}
	before := l.rate()
	l.Observe(0, http.StatusOK, nil)
	if got, want := l.rate()-before, increaseStep*peakStep; math.Abs(got-want) > 1e-9 || before < 20*nearPeak-1e-9 {
		t.Fatalf("from %v an answer added %v, want %v", before, got, want)
	}
}
