package ratelimit

import (
	"math"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// The headers a provider states its limits in: OpenAI's (and most
// OpenAI-compatible services') and Anthropic's, each a limit a minute,
// what remains of it and when it is whole again (a duration such as
// "1s" or "6m0s" for OpenAI, an RFC 3339 time for Anthropic).
var (
	requestHeaders = limitHeaders{
		limit:     []string{"x-ratelimit-limit-requests", "anthropic-ratelimit-requests-limit"},
		remaining: []string{"x-ratelimit-remaining-requests", "anthropic-ratelimit-requests-remaining"},
		reset:     []string{"x-ratelimit-reset-requests", "anthropic-ratelimit-requests-reset"},
	}
	tokenHeaders = limitHeaders{
		limit:     []string{"x-ratelimit-limit-tokens", "anthropic-ratelimit-tokens-limit"},
		remaining: []string{"x-ratelimit-remaining-tokens", "anthropic-ratelimit-tokens-remaining"},
		reset:     []string{"x-ratelimit-reset-tokens", "anthropic-ratelimit-tokens-reset"},
	}
)

type limitHeaders struct{ limit, remaining, reset []string }

// Observe learns from a provider's answer to the request of ticket: its
// headers' limits and what remains, a 429 (hold every request for its
// Retry-After, cut the learned rate, spend no more burst) or an answer
// (count it, raise the learned rate a step).
func (l *Limiter) Observe(ticket int64, status int, h http.Header) {
	l.store.update(func(s *state) {
		now := l.now()
		s.sanitize(now.UnixNano())
		l.learnHeaders(s, h, now)
		if left, ok := number(h, requestHeaders.remaining); ok {
			// The requests reserved after this one may not have reached
			// the provider when it counted.
			s.Credit = min(max(left-float64(max(s.Seq-ticket, 0)), 0), maxRate)
		}
		switch {
		case status == http.StatusTooManyRequests:
			s.Hold = max(s.Hold, now.Add(retryAfter(h, now)).UnixNano())
			s.Credit = 0
			l.cut(s, now.UnixNano())
		case status < 400:
			s.count(now.UnixNano())
			l.raise(s)
		}
	})
}

// learnHeaders keeps the limits the headers state, and holds every
// request until a limit that has nothing left is whole again.
func (l *Limiter) learnHeaders(s *state, h http.Header, now time.Time) {
	if limit, ok := number(h, requestHeaders.limit); ok && limit > 0 {
		s.HeaderRPS = min(limit/60, maxRate)
	}
	if limit, ok := number(h, tokenHeaders.limit); ok && limit > 0 {
		s.HeaderTPS = min(limit/60, maxRate)
	}
	if left, ok := number(h, requestHeaders.remaining); ok && left < 1 {
		wait := resetIn(h, requestHeaders.reset, now)
		if s.HeaderRPS > 0 {
			wait = min(wait, time.Duration(perSecond(1, s.HeaderRPS))) // the next request's share is back by then
		}
		s.Hold = max(s.Hold, now.Add(wait).UnixNano())
	}
	if left, ok := number(h, tokenHeaders.remaining); ok && left < 1 {
		s.Hold = max(s.Hold, now.Add(resetIn(h, tokenHeaders.reset, now)).UnixNano())
	}
}

// cut is the multiplicative decrease, once per burst of 429s: the rate in
// force (or, with none yet, the rate answers came at) times decrease. With
// no rate and no answer in the last second there is nothing to cut: the
// 429's hold alone paces the requests (a provider that refuses all of
// them, its quota spent, opens the player's circuit breaker as before).
func (l *Limiter) cut(s *state, now int64) {
	if s.Cut != 0 && now-s.Cut < int64(cutEvery) {
		return
	}
	base := l.requestRate(s)
	if base == 0 {
		base = s.answered(now)
	}
	if base < 1 {
		return
	}
	s.Rate, s.Cut, s.Peak = max(base*decrease, minRate), now, base
}

// raise is the additive increase of a learned rate, never past a ceiling
// the configuration or the headers set.
func (l *Limiter) raise(s *state) {
	if s.Rate == 0 {
		return
	}
	step := increaseStep
	if s.Rate >= s.Peak*nearPeak {
		step *= peakStep
	}
	s.Rate += step
	if ceiling := lowest(float64(l.limits.RPM)/60, s.HeaderRPS); ceiling > 0 {
		s.Rate = min(s.Rate, ceiling)
	}
	s.Rate = min(s.Rate, maxRate)
}

// count adds an answer to the one-second windows.
func (s *state) count(now int64) {
	s.roll(now)
	s.WinOK++
}

// roll moves the windows on to the one now is in.
func (s *state) roll(now int64) {
	switch elapsed := now - s.Win; {
	case elapsed >= 2*int64(time.Second) || elapsed < 0:
		s.Win, s.WinOK, s.PrevOK = now, 0, 0
	case elapsed >= int64(time.Second):
		s.Win, s.PrevOK, s.WinOK = s.Win+int64(time.Second), s.WinOK, 0
	}
}

// answered is the rate answers came at over the last second (a sliding
// window over the two fixed ones).
func (s *state) answered(now int64) float64 {
	s.roll(now)
	into := float64(now-s.Win) / float64(time.Second)
	return float64(s.PrevOK)*(1-into) + float64(s.WinOK)
}

// number reads the first of names the header has as a number.
func number(h http.Header, names []string) (float64, bool) {
	for _, name := range names {
		if raw := h.Get(name); raw != "" {
			v, err := strconv.ParseFloat(strings.TrimSpace(raw), 64)
			return v, err == nil && !math.IsNaN(v) && !math.IsInf(v, 0)
		}
	}
	return 0, false
}

// resetIn reads when a limit is whole again: a duration or a time, within
// maxHold; defaultHold when the header says neither.
func resetIn(h http.Header, names []string, now time.Time) time.Duration {
	for _, name := range names {
		raw := strings.TrimSpace(h.Get(name))
		if raw == "" {
			continue
		}
		if d, err := time.ParseDuration(raw); err == nil {
			return bound(d)
		}
		if at, err := time.Parse(time.RFC3339, raw); err == nil {
			return bound(at.Sub(now))
		}
	}
	return defaultHold
}

// retryAfter is RetryAfter, defaultHold when the answer says no wait.
func retryAfter(h http.Header, now time.Time) time.Duration {
	if d, ok := RetryAfter(h, now); ok {
		return d
	}
	return defaultHold
}

// RetryAfter reads a 429's wait: retry-after-ms (OpenAI's), else
// Retry-After in seconds or as an HTTP date, within 0 and maxHold (a
// provider's number neither wraps nor goes negative); false when the
// answer gives none.
func RetryAfter(h http.Header, now time.Time) (time.Duration, bool) {
	if ms, err := strconv.ParseFloat(h.Get("retry-after-ms"), 64); err == nil && ms >= 0 && !math.IsInf(ms, 0) {
		return bound(time.Duration(math.Min(ms, float64(maxHold/time.Millisecond)) * float64(time.Millisecond))), true
	}
	raw := h.Get("Retry-After")
	if secs, err := strconv.ParseFloat(raw, 64); err == nil && secs >= 0 && !math.IsInf(secs, 0) {
		return bound(time.Duration(math.Min(secs, maxHold.Seconds()) * float64(time.Second))), true
	}
	if at, err := http.ParseTime(raw); err == nil {
		return bound(at.Sub(now)), true
	}
	return 0, false
}

// bound keeps a wait within 0 and maxHold.
func bound(d time.Duration) time.Duration { return min(max(d, 0), maxHold) }
