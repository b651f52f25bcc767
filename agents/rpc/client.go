package rpc

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/go-resty/resty/v2"
	"github.com/sony/gobreaker/v2"

	"github.com/leaguetui/leaguetui/agents/protocol"
	"github.com/leaguetui/leaguetui/config"
)

// CallError is a failure to get any answer from a peer: a timeout (E001) or
// a connection failure (E009), the two errors the specification retries.
type CallError struct {
	Code     string // protocol.ErrTimeout or protocol.ErrConnection
	Endpoint string
	Err      error
}

func (e *CallError) Error() string {
	return fmt.Sprintf("%s %s calling %s: %v", e.Code, protocol.ErrorNames[e.Code], e.Endpoint, e.Err)
}

func (e *CallError) Unwrap() error { return e.Err }

// ErrorCode gives the league error code an error stands for, or "".
func ErrorCode(err error) string {
	var callErr *CallError
	var leagueErr *protocol.LeagueError
	switch {
	case errors.As(err, &callErr):
		return callErr.Code
	case errors.As(err, &leagueErr):
		return leagueErr.ErrorCode
	}
	return ""
}

// Options configure a Client.
type Options struct {
	Retry   config.Retry
	Breaker config.Breaker
	Log     *slog.Logger
	// MaxConnsPerHost bounds the connection pool to each peer; 0 means 64.
	MaxConnsPerHost int
}

// Client sends league messages. One Client per agent process: it keeps
// connections alive, one circuit breaker per endpoint, and remembers per
// endpoint the dialect a peer speaks and the form each message took.
type Client struct {
	http     *resty.Client
	opts     Options
	nextID   atomic.Int64
	mu       sync.Mutex
	circuit  map[string]*gobreaker.CircuitBreaker[[]byte]
	forms    map[string]protocol.Form    // endpoint + "|" + message type -> form that worked
	dialects map[string]protocol.Dialect // endpoint -> the dialect it spoke with us
	vital    map[string]bool             // endpoints calls go to whatever their breaker says
}

// NewClient builds a Client.
func NewClient(opts Options) *Client {
	if opts.MaxConnsPerHost == 0 {
		opts.MaxConnsPerHost = 64
	}
	if opts.Log == nil {
		opts.Log = slog.New(slog.DiscardHandler)
	}
	transport := &http.Transport{
		Proxy:               nil, // agents talk to each other directly, never through a proxy
		DialContext:         (&net.Dialer{Timeout: 5 * time.Second, KeepAlive: 30 * time.Second}).DialContext,
		MaxIdleConns:        1024,
		MaxIdleConnsPerHost: opts.MaxConnsPerHost,
		MaxConnsPerHost:     opts.MaxConnsPerHost,
		IdleConnTimeout:     90 * time.Second,
	}
	httpClient := resty.New().SetTransport(transport).
		SetHeader("Content-Type", "application/json").
		SetHeader("Accept", "application/json, text/event-stream")
	return &Client{
		http:     httpClient,
		opts:     opts,
		circuit:  map[string]*gobreaker.CircuitBreaker[[]byte]{},
		forms:    map[string]protocol.Form{},
		dialects: map[string]protocol.Dialect{},
		vital:    map[string]bool{},
	}
}

// Learn records the dialect a peer used with us, read from the message it
// sent (its registration): calls to endpoint are framed that way first.
func (c *Client) Learn(endpoint string, d protocol.Dialect) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.dialects[endpoint] = d
}

// DialectOf is the dialect calls to endpoint are framed in first, and
// whether it is known (learned, or found by a call that worked).
func (c *Client) DialectOf(endpoint string) (protocol.Dialect, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	d, ok := c.dialects[endpoint]
	return d, ok
}

// Vital exempts endpoint from the circuit breaker. An agent cannot do
// without its manager: when the manager restarts, a result report must
// reach it at once, not after the breaker's reset (60 s by default) has
// dropped every report tried meanwhile.
func (c *Client) Vital(endpoint string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.vital[endpoint] = true
}

// Call describes one message to send.
type Call struct {
	Endpoint string
	Message  protocol.Message
	Timeout  time.Duration // for each attempt
	// Attempts in total for timeouts and connection errors; 0 means the
	// configured retry policy, 1 means a single try.
	Attempts int
	// BeforeRetry runs before attempt n+1 after attempt n failed with err;
	// the referee sends GAME_ERROR from here.
	BeforeRetry func(attempt int, err error)
}

// Send delivers the call and returns the reply's league message.
func (c *Client) Send(ctx context.Context, call Call) (json.RawMessage, error) {
	attempts := call.Attempts
	if attempts <= 0 {
		attempts = c.opts.Retry.Attempts
	}
	var lastErr error
	for attempt := 1; attempt <= attempts; attempt++ {
		reply, err := c.sendOnce(ctx, call)
		if err == nil || !retryable(err) || attempt == attempts || ctx.Err() != nil {
			return reply, err
		}
		lastErr = err
		if call.BeforeRetry != nil {
			call.BeforeRetry(attempt, err)
		}
		select {
		case <-time.After(c.opts.Retry.Delay(attempt)):
		case <-ctx.Done():
			return nil, lastErr
		}
	}
	return nil, lastErr
}

// Do sends the call and decodes the reply into reply.
func (c *Client) Do(ctx context.Context, call Call, reply protocol.Message) error {
	raw, err := c.Send(ctx, call)
	if err != nil {
		return err
	}
	if err := protocol.Decode(raw, reply); err != nil {
		return fmt.Errorf("unreadable reply from %s: %w", call.Endpoint, err)
	}
	return nil
}

func retryable(err error) bool {
	var callErr *CallError
	return errors.As(err, &callErr) && !errors.Is(err, gobreaker.ErrOpenState)
}

// sendOnce is one attempt: it walks the forms the message may be sent in
// until the peer takes one (protocol.TryAnotherForm), and remembers it.
// A peer that answered a flat message with "missing fields" read the
// method but not the params, so the other flat method names are skipped.
func (c *Client) sendOnce(ctx context.Context, call Call) (json.RawMessage, error) {
	messageType := call.Message.Header().MessageType
	var firstErr, lastErr error
	flatRefused := false
	for _, form := range c.formsFor(call.Endpoint, messageType) {
		if flatRefused && form.Wrapper == "" {
			continue
		}
		reply, err := c.post(ctx, call, form)
		if !protocol.TryAnotherForm(err) {
			if err == nil {
				c.remember(call.Endpoint, messageType, form)
			}
			return reply, err
		}
		lastErr = err
		var rpcErr *protocol.RPCError
		if errors.As(err, &rpcErr) && rpcErr.Code != protocol.CodeMethodNotFound {
			flatRefused = flatRefused || form.Wrapper == ""
			if firstErr == nil {
				firstErr = err // says more than the other forms' "method not found"
			}
		}
	}
	if firstErr != nil {
		return nil, firstErr
	}
	return nil, lastErr
}

// formsFor puts first the form that worked last time for this message,
// then the form of the dialect the peer spoke with us, then every form
// in the usual order (protocol.Forms).
func (c *Client) formsFor(endpoint, messageType string) []protocol.Form {
	c.mu.Lock()
	known, worked := c.forms[endpoint+"|"+messageType]
	dialect, spoke := c.dialects[endpoint]
	c.mu.Unlock()
	var forms []protocol.Form
	if worked {
		forms = append(forms, known)
	}
	if spoke {
		forms = append(forms, dialect.FormIn(messageType))
	}
	for _, f := range append(forms, protocol.Forms(messageType)...) {
		if !slices.Contains(forms, f) {
			forms = append(forms, f)
		}
	}
	return forms
}

// remember keeps the form that worked, and the dialect it shows the peer
// speaks, so that its other messages go in that dialect first.
func (c *Client) remember(endpoint, messageType string, form protocol.Form) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.forms[endpoint+"|"+messageType] = form
	c.dialects[endpoint] = form.Dialect(messageType)
}

// post sends one request, in one form, through the endpoint's circuit
// breaker.
func (c *Client) post(ctx context.Context, call Call, form protocol.Form) (json.RawMessage, error) {
	body, err := protocol.EncodeRequest(form.Method, form.Params(call.Message), c.nextID.Add(1))
	if err != nil {
		return nil, err
	}
	respBody, err := c.guarded(call.Endpoint, func() ([]byte, error) {
		return c.roundTrip(ctx, call, body)
	})
	if err != nil {
		if errors.Is(err, gobreaker.ErrOpenState) || errors.Is(err, gobreaker.ErrTooManyRequests) {
			return nil, &CallError{Code: protocol.ErrConnection, Endpoint: call.Endpoint, Err: err}
		}
		return nil, err
	}
	return protocol.ParseReply(respBody)
}

func (c *Client) roundTrip(ctx context.Context, call Call, body []byte) ([]byte, error) {
	attemptCtx, cancel := context.WithTimeout(ctx, call.Timeout)
	defer cancel()
	resp, err := c.http.R().SetContext(attemptCtx).SetBody(body).Post(call.Endpoint)
	if err != nil {
		code := protocol.ErrConnection
		var netErr net.Error
		if errors.Is(err, context.DeadlineExceeded) || (errors.As(err, &netErr) && netErr.Timeout()) {
			code = protocol.ErrTimeout
		}
		return nil, &CallError{Code: code, Endpoint: call.Endpoint, Err: err}
	}
	if len(resp.Body()) == 0 && resp.IsError() {
		return nil, &CallError{Code: protocol.ErrConnection, Endpoint: call.Endpoint,
			Err: fmt.Errorf("HTTP %d with no body", resp.StatusCode())}
	}
	if refused := notServed(resp); refused != nil {
		return nil, refused
	}
	return resp.Body(), nil
}

// notServed reads a client-error status with a body that is not JSON as
// "method not found", so that the next method name is tried: the official
// MCP Go SDK answers a method it does not know with HTTP 400 and plain text,
// and a league method is exactly that to a peer that speaks only MCP.
func notServed(resp *resty.Response) *protocol.RPCError {
	status := resp.StatusCode()
	refused := (status >= 400 && status <= 499) || status == http.StatusNotImplemented
	if !refused || json.Valid(resp.Body()) {
		return nil
	}
	text := strings.TrimSpace(string(resp.Body()))
	if len(text) > 200 {
		text = text[:200]
	}
	return protocol.NewRPCError(protocol.CodeMethodNotFound, "", "HTTP %d: %s", status, text)
}

// guarded runs send through the endpoint's circuit breaker, unless the
// endpoint is vital.
func (c *Client) guarded(endpoint string, send func() ([]byte, error)) ([]byte, error) {
	c.mu.Lock()
	vital := c.vital[endpoint]
	c.mu.Unlock()
	if vital {
		return send()
	}
	return c.breaker(endpoint).Execute(send)
}

// breaker returns the endpoint's circuit breaker. Only failures to get an
// answer trip it: a peer that answers with an error is alive.
func (c *Client) breaker(endpoint string) *gobreaker.CircuitBreaker[[]byte] {
	c.mu.Lock()
	defer c.mu.Unlock()
	if cb, ok := c.circuit[endpoint]; ok {
		return cb
	}
	threshold := uint32(c.opts.Breaker.Failures)
	cb := gobreaker.NewCircuitBreaker[[]byte](gobreaker.Settings{
		Name:    endpoint,
		Timeout: c.opts.Breaker.Reset,
		ReadyToTrip: func(counts gobreaker.Counts) bool {
			return threshold > 0 && counts.ConsecutiveFailures >= threshold
		},
		IsSuccessful: func(err error) bool {
			var callErr *CallError
			return !errors.As(err, &callErr) || errors.Is(err, context.Canceled)
		},
		OnStateChange: func(name string, from, to gobreaker.State) {
			c.opts.Log.Warn("circuit breaker", "endpoint", name, "from", from.String(), "to", to.String())
		},
	})
	c.circuit[endpoint] = cb
	return cb
}

// BreakerOpen reports whether calls to endpoint currently fail fast.
func (c *Client) BreakerOpen(endpoint string) bool {
	return c.breaker(endpoint).State() == gobreaker.StateOpen
}
