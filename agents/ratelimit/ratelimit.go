// Package ratelimit paces the requests of every model player that shares
// one provider and key, so that together they use what the provider allows
// without piling into its limit.
//
// It is one schedule (a generic cell rate algorithm: each request takes the
// next free slot, one interval after the last) at the lowest of three rates:
// the configured ceiling (--llm-rpm, --llm-tpm), the limit the provider's
// own headers state (x-ratelimit-*, anthropic-ratelimit-*), and a rate
// learned from its 429s (additive increase, multiplicative decrease). A
// 429's Retry-After, or a header saying nothing remains, holds every
// request until then. With none of them known no request waits.
//
// The model players of a league are separate processes: the schedule lives
// in one small file of the data folder, read and written under an
// exclusive file lock (flock, LockFileEx) for each request, so that every
// player of the provider and key takes its slots from the same schedule.
package ratelimit

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"math"
	"path/filepath"
	"sync"
	"time"
)

// Limits are the configured ceilings; zero is none.
type Limits struct {
	RPM int // requests a minute
	TPM int // tokens a minute (prompt and answer)
}

// Tuning of what is learned from 429s.
const (
	// decrease is the factor a 429 cuts the learned rate by.
	decrease = 0.85
	// increaseStep is what each answered request adds to the learned
	// rate, in requests a second: at R a second it climbs R/20 a second.
	increaseStep = 0.05
	// Past nearPeak of the rate the last 429 came at, each answer adds
	// increaseStep × peakStep only: the rate creeps back to where the
	// provider refused, instead of running into it again.
	nearPeak = 0.95
	peakStep = 0.25
	// cutEvery: the 429s of one burst (the requests already on their way
	// when the first came back) cut the rate once.
	cutEvery = time.Second
	// minRate is the slowest pace a run of 429s can bring the rate to:
	// one request a minute.
	minRate = 1.0 / 60
	// maxRate bounds any rate read (a header, the shared file), so a
	// hostile value stays a number.
	maxRate = 1e6
	// maxHold bounds a hold a provider asks for (Retry-After, a reset):
	// longer than any move's deadline, shorter than a stuck league.
	maxHold = 2 * time.Minute
	// defaultHold is the hold of a 429 that says nothing of when to retry.
	defaultHold = time.Second
)

// state is the shared schedule: what the file holds. Times are Unix
// nanoseconds of the machine's clock, which every player reads alike.
type state struct {
	Next      int64   `json:"next"`       // the next free request slot
	TokNext   int64   `json:"tok_next"`   // the next free slot of the token schedule
	Hold      int64   `json:"hold"`       // no request starts before
	Rate      float64 `json:"rate"`       // requests a second learned from 429s; 0 before the first
	HeaderRPS float64 `json:"header_rps"` // the provider's request limit, a second, from its headers
	HeaderTPS float64 `json:"header_tps"` // its token limit, a second
	Cut       int64   `json:"cut"`        // when the rate was last cut
	Peak      float64 `json:"peak"`       // the rate in force when it was
	Win       int64   `json:"win"`        // when the current one-second window of answers began
	WinOK     int     `json:"win_ok"`     // requests answered in it
	PrevOK    int     `json:"prev_ok"`    // and in the window before
	Seq       int64   `json:"seq"`        // reservations so far: each request's ticket
	Credit    float64 `json:"credit"`     // requests the provider's headers said remain, less those reserved since
}

// The part of the provider's stated remaining requests never spent at
// once: what a quarter of a second at its stated rate takes, at least one
// request, so that requests reserved and not yet counted there, or sent
// late by a busy machine, still find some left.
const (
	creditKept   = 1
	creditMargin = 250 * time.Millisecond
)

// Limiter is the schedule of one provider and key.
type Limiter struct {
	limits Limits
	now    func() time.Time
	store  store
}

// New is a limiter kept in memory alone, on the given clock (nil:
// time.Now).
func New(limits Limits, now func() time.Time) *Limiter {
	return newLimiter(limits, now, &memStore{})
}

// NewShared is a limiter whose schedule is the file at path, shared by
// every process that opens it.
func NewShared(limits Limits, now func() time.Time, path string) *Limiter {
	return newLimiter(limits, now, &fileStore{path: path})
}

func newLimiter(limits Limits, now func() time.Time, s store) *Limiter {
	if now == nil {
		now = time.Now
	}
	return &Limiter{limits: Limits{RPM: max(limits.RPM, 0), TPM: max(limits.TPM, 0)}, now: now, store: s}
}

// Identity names a provider endpoint and key without the key: the first
// bytes of a SHA-256 of the three.
func Identity(api, url, key string) string {
	sum := sha256.Sum256([]byte(api + "\n" + url + "\n" + key))
	return hex.EncodeToString(sum[:8])
}

// Path is the shared schedule of identity in a data folder.
func Path(dataDir, identity string) string {
	return filepath.Join(dataDir, "models", "ratelimit-"+identity+".json")
}

// shared holds one limiter per schedule in this process, so the model
// players of one process share it too.
var shared = struct {
	sync.Mutex
	byKey map[string]*Limiter
}{byKey: map[string]*Limiter{}}

// For is this process's limiter of identity with limits: its schedule is
// in dataDir when there is one, else in memory.
func For(dataDir, identity string, limits Limits) *Limiter {
	key := fmt.Sprintf("%s\x00%s\x00%d/%d", dataDir, identity, limits.RPM, limits.TPM)
	shared.Lock()
	defer shared.Unlock()
	if l, ok := shared.byKey[key]; ok {
		return l
	}
	l := New(limits, nil)
	if dataDir != "" {
		l = NewShared(limits, nil, Path(dataDir, identity))
	}
	shared.byKey[key] = l
	return l
}

// Reserve takes the next slot for a request of tokens (its estimate) and
// says when it may be sent, with the request's ticket for Observe. A slot
// past deadline (not zero) is not taken: ok is false and at says when
// the first free one is.
//
// While the provider's headers say more requests remain than are on
// their way (Credit), and no ceiling is configured, a request goes at
// once, out of the schedule: it spends what the provider allows beyond
// its average rate, its burst.
func (l *Limiter) Reserve(tokens int64, deadline time.Time) (at time.Time, ticket int64, ok bool) {
	var slot int64
	l.store.update(func(s *state) {
		now := l.now().UnixNano()
		s.sanitize(now)
		rps, tps := l.requestRate(s), l.tokenRate(s)
		kept := max(creditKept, s.HeaderRPS*creditMargin.Seconds())
		burst := l.limits.RPM == 0 && s.Credit >= kept+1
		slot = max(now, s.Hold)
		if rps > 0 && !burst {
			slot = max(slot, s.Next)
		}
		if tps > 0 {
			slot = max(slot, s.TokNext)
		}
		if ok = deadline.IsZero() || slot <= deadline.UnixNano(); !ok {
			return
		}
		s.Seq++
		ticket = s.Seq
		switch {
		case burst:
			s.Credit--
		case rps > 0:
			s.Next = slot + perSecond(1, rps)
		}
		if tps > 0 {
			s.TokNext = slot + perSecond(float64(max(tokens, 0)), tps)
		}
	})
	return time.Unix(0, slot), ticket, ok
}

// perSecond is how long n takes at rate a second, in nanoseconds.
func perSecond(n, rate float64) int64 {
	return int64(math.Min(n/rate*1e9, float64(maxHold)))
}

// requestRate is the lowest known request rate a second; 0 for none.
func (l *Limiter) requestRate(s *state) float64 {
	return lowest(float64(l.limits.RPM)/60, s.HeaderRPS, s.Rate)
}

// tokenRate is the lowest known token rate a second; 0 for none.
func (l *Limiter) tokenRate(s *state) float64 {
	return lowest(float64(l.limits.TPM)/60, s.HeaderTPS)
}

// lowest is the smallest of the rates above zero; 0 when none is.
func lowest(rates ...float64) float64 {
	best := 0.0
	for _, r := range rates {
		if r > 0 && (best == 0 || r < best) {
			best = r
		}
	}
	return best
}

// sanitize bounds what was read, from a file any process may have left
// half written: times no further ahead than maxHold, rates finite and
// within maxRate, counts not negative.
func (s *state) sanitize(now int64) {
	for _, t := range []*int64{&s.Next, &s.TokNext, &s.Hold, &s.Cut, &s.Win} {
		*t = min(max(*t, 0), now+int64(maxHold))
	}
	for _, r := range []*float64{&s.Rate, &s.HeaderRPS, &s.HeaderTPS, &s.Credit, &s.Peak} {
		if !(*r > 0) || math.IsInf(*r, 0) {
			*r = 0
		}
		*r = min(*r, maxRate)
	}
	s.WinOK, s.PrevOK, s.Seq = max(s.WinOK, 0), max(s.PrevOK, 0), max(s.Seq, 0)
}
