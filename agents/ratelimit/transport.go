package ratelimit

import (
	"context"
	"fmt"
	"io"
	"math"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// Transport sends each request in its slot of Limiter's schedule and
// tells the limiter what the provider answered.
type Transport struct {
	Limiter *Limiter
	Next    http.RoundTripper
	// AnswerTokens is what a request's answer may add to its prompt's
	// tokens, for a token limit: the answer's cap.
	AnswerTokens int64
}

// bytesPerToken estimates a prompt's tokens from its request's size: a
// token is about four bytes of English, so the estimate errs high for
// the JSON around the prompt, which is what a ceiling wants.
const bytesPerToken = 4

// LimiterRefused is the header of the 429 the limiter answers itself,
// without sending the request: the next free slot is past the request's
// deadline.
const LimiterRefused = "X-Leaguetui-Rate-Limiter"

func (t *Transport) RoundTrip(req *http.Request) (*http.Response, error) {
	deadline, _ := req.Context().Deadline()
	tokens := max(req.ContentLength, 0)/bytesPerToken + t.AnswerTokens
	at, ticket, ok := t.Limiter.Reserve(tokens, deadline)
	if !ok {
		return refused(req, at.Sub(t.Limiter.now())), nil
	}
	if err := waitUntil(req.Context(), at.Sub(t.Limiter.now())); err != nil {
		return nil, err
	}
	resp, err := t.Next.RoundTrip(req)
	if err == nil {
		t.Limiter.Observe(ticket, resp.StatusCode, resp.Header)
	}
	return resp, err
}

// waitUntil waits d, or until ctx ends.
func waitUntil(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return nil
	}
	timer := time.NewTimer(d)
	defer timer.Stop()
	select {
	case <-timer.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// refused is the 429 of a request whose slot is past its deadline: the
// move fails as the provider's rate limit would fail it
// (PROVIDER_RATE_LIMIT), without a request the provider would count.
func refused(req *http.Request, wait time.Duration) *http.Response {
	secs := strconv.Itoa(int(math.Ceil(max(wait, 0).Seconds())))
	body := fmt.Sprintf(`{"type":"error","error":{"type":"rate_limit_error","message":"leaguetui's rate limiter: the next free slot is in %s, past the request's deadline"}}`,
		wait.Round(time.Millisecond))
	return &http.Response{
		Status: "429 Too Many Requests", StatusCode: http.StatusTooManyRequests,
		Proto: "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1,
		Header: http.Header{"Content-Type": {"application/json"}, "Retry-After": {secs}, LimiterRefused: {"1"}},
		Body:   io.NopCloser(strings.NewReader(body)), ContentLength: int64(len(body)), Request: req,
	}
}
