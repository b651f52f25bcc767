package fakellm

import (
	"fmt"
	"math"
	"net/http"
	"strconv"
	"sync"
	"time"
)

// rateLimit is the fake's limit: a token bucket of PerSecond requests a
// second that holds one second's worth, full at the start, as a
// provider's limit a minute holds a minute's. A request it has no token
// for is answered 429 before any scripted answer is used.
type rateLimit struct {
	perSecond float64
	headers   bool // state the limit in the API's rate-limit headers

	mu     sync.Mutex
	tokens float64
	at     time.Time // when tokens was counted
}

// Limit answers 429 (with Retry-After, and retry-after-ms on the OpenAI
// API) to the requests past perSecond a second; with headers, every
// answer states the limit as the API's own headers do (x-ratelimit-* for
// OpenAI, anthropic-ratelimit-* for Anthropic, the limit given a minute).
// Call it before the first request.
func (s *Server) Limit(perSecond float64, headers bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.limit = &rateLimit{perSecond: perSecond, headers: headers, tokens: perSecond, at: time.Now()}
}

// Refused is how many requests the fake answered 429, whether its limit
// or its script refused them.
func (s *Server) Refused() int {
	n := 0
	for _, r := range s.Requests() {
		if r.Answer == RateLimited {
			n++
		}
	}
	return n
}

// overLimit answers r with 429 when the limit has no token for it, and
// records it; otherwise it writes the limit's headers, if stated, and
// lets the request be answered.
func (s *Server) overLimit(w http.ResponseWriter, api string, r Request) bool {
	s.mu.Lock()
	limit := s.limit
	s.mu.Unlock()
	if limit == nil {
		return false
	}
	left, wait, ok := limit.take(time.Now())
	if limit.headers {
		limit.state(w.Header(), api, left)
	}
	if ok {
		return false
	}
	r.Answer = RateLimited
	s.mu.Lock()
	s.requests = append(s.requests, r)
	s.mu.Unlock()
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Retry-After", strconv.Itoa(int(math.Ceil(wait.Seconds()))))
	if api == "openai" {
		w.Header().Set("retry-after-ms", strconv.FormatInt(max(wait.Milliseconds(), 1), 10))
	}
	w.WriteHeader(http.StatusTooManyRequests)
	_, _ = w.Write(errorBody(api, "rate_limit_error", "over the fake's limit of "+fmt.Sprint(limit.perSecond)+" requests a second"))
	return true
}

// take takes a token if there is one: what is left, and else how long
// until there is one.
func (l *rateLimit) take(now time.Time) (left float64, wait time.Duration, ok bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.tokens = math.Min(l.perSecond, l.tokens+now.Sub(l.at).Seconds()*l.perSecond)
	l.at = now
	if l.tokens < 1 {
		return l.tokens, time.Duration((1 - l.tokens) / l.perSecond * float64(time.Second)), false
	}
	l.tokens--
	return l.tokens, 0, true
}

// state writes the limit's headers: the limit a minute, what is left and
// when the bucket is full again.
func (l *rateLimit) state(h http.Header, api string, left float64) {
	limit := strconv.Itoa(int(math.Round(l.perSecond * 60)))
	remaining := strconv.Itoa(int(math.Floor(left)))
	full := time.Duration((l.perSecond - left) / l.perSecond * float64(time.Second))
	if api == "anthropic" {
		h.Set("anthropic-ratelimit-requests-limit", limit)
		h.Set("anthropic-ratelimit-requests-remaining", remaining)
		h.Set("anthropic-ratelimit-requests-reset", time.Now().Add(full).UTC().Format(time.RFC3339))
		return
	}
	h.Set("x-ratelimit-limit-requests", limit)
	h.Set("x-ratelimit-remaining-requests", remaining)
	h.Set("x-ratelimit-reset-requests", full.Round(time.Millisecond).String())
}
