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

	"github.com/sony/gobreaker/v2"

	"github.com/leaguetui/leaguetui/agents/protocol"
	"github.com/leaguetui/leaguetui/agents/retry"
	"github.com/leaguetui/leaguetui/config"
)

// CallError is a failure to get any answer from a peer: a timeout (E001) or
// a connection failure (E009), the two errors the specification retries.
type CallError struct {
	Code     string // protocol.CodeTimeout or protocol.CodeConnection
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
	// MaxConnsPerHost bounds the connection pool to each peer; 0 means
	// DefaultMaxConnsPerHost.
	MaxConnsPerHost int
	// MaxReplyBytes bounds a reply; 0 means MaxBodyBytes.
	MaxReplyBytes int64
	// WriteBufferBytes is each connection's write buffer (0: net/http's
	// 4 KB): an agent whose requests are larger sends each in one write
	// with a buffer that holds it (Poster.SetWriteBuffer).
	WriteBufferBytes int
}

// Client sends league messages. One Client per agent process: it keeps
// connections alive, one circuit breaker per endpoint, and remembers per
// endpoint the dialect a peer speaks and the form each message took.
type Client struct {
	poster *Poster
	opts   Options
	policy retry.Policy // Send's retry policy but for its Final: opts.Retry's, made once
	nextID atomic.Int64
	mu     sync.Mutex
	peers  map[string]*peer // by endpoint; never removed
	orders map[formOrder][]protocol.Form
}

// peer is what a Client keeps about one endpoint, under the Client's mu.
// A call looks its endpoint up once and works on this record: the
// breaker, the forms and the dialect were each a map by endpoint before,
// looked up again (the endpoint's URL hashed again) at every step of every
// call.
type peer struct {
	endpoint string
	vital    bool                              // calls go whatever the breaker says (Vital)
	breaker  *gobreaker.CircuitBreaker[[]byte] // nil until a call needs one, and once closed by an answer
	dialect  protocol.Dialect                  // the dialect it spoke with us, when spoke
	spoke    bool
	messages map[string]*sentMessage // by message type; nil until one is sent
	// final is Send's retry policy's Final for this endpoint, made once
	// rather than a closure per call.
	final func(err error) bool
}

// sentMessage is what a peer's record keeps about one message type: the
// form that worked, if one did, with the dialect it shows the peer speaks
// (protocol.Form.Dialect, worked out once), and the order formsFor tries
// its forms in, while the form and the peer's dialect stay as they are.
type sentMessage struct {
	known   protocol.Form
	dialect protocol.Dialect
	worked  bool
	order   []protocol.Form // nil: to work out again
}

// formOrder is all that decides the order formsFor tries a message's forms
// in. A league's peers mostly speak alike, so there are a few of them
// whatever the number of peers, and each order is worked out once: every
// call used to build its list again.
type formOrder struct {
	messageType   string
	known         protocol.Form // the form that worked, if worked
	dialect       protocol.Dialect
	worked, spoke bool
}

// DefaultMaxConnsPerHost is the connection pool to each peer that a
// Client keeps unless told otherwise: open connections are kept alive up
// to it.
const DefaultMaxConnsPerHost = 64

// NewClient builds a Client.
func NewClient(opts Options) *Client {
	if opts.MaxConnsPerHost == 0 {
		opts.MaxConnsPerHost = DefaultMaxConnsPerHost
	}
	if opts.Log == nil {
		opts.Log = slog.New(slog.DiscardHandler)
	}
	poster := NewPoster(opts.MaxConnsPerHost)
	poster.SetMaxReply(opts.MaxReplyBytes)
	poster.SetWriteBuffer(opts.WriteBufferBytes)
	return &Client{
		poster: poster,
		opts:   opts,
		policy: retry.Configured(opts.Retry),
		peers:  map[string]*peer{},
		orders: map[formOrder][]protocol.Form{},
	}
}

// peer is endpoint's record, made on first use. Call it with c.mu held.
func (c *Client) peer(endpoint string) *peer {
	if p, ok := c.peers[endpoint]; ok {
		return p
	}
	p := &peer{endpoint: endpoint}
	p.final = func(err error) bool { return !retryable(err) || c.breakerOpen(p) }
	c.peers[endpoint] = p
	return p
}

// peerOf is endpoint's record, taking c.mu.
func (c *Client) peerOf(endpoint string) *peer {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.peer(endpoint)
}

// learn records the dialect p spoke. Call it with c.mu held.
func (p *peer) learn(d protocol.Dialect) {
	if p.spoke && p.dialect == d {
		return
	}
	p.dialect, p.spoke = d, true
	for _, m := range p.messages {
		m.order = nil // it may start with another form now
	}
}

// message is the record of a message type sent to p, made on first use.
// Call it with c.mu held.
func (p *peer) message(messageType string) *sentMessage {
	if m, ok := p.messages[messageType]; ok {
		return m
	}
	if p.messages == nil {
		p.messages = map[string]*sentMessage{}
	}
	m := &sentMessage{}
	p.messages[messageType] = m
	return m
}

// Learn records the dialect a peer used with us, read from the message it
// sent (its registration): calls to endpoint are framed that way first.
func (c *Client) Learn(endpoint string, d protocol.Dialect) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.peer(endpoint).learn(d)
}

// DialectOf is the dialect calls to endpoint are framed in first, and
// whether it is known (learned, or found by a call that worked).
func (c *Client) DialectOf(endpoint string) (protocol.Dialect, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	p, ok := c.peers[endpoint]
	if !ok || !p.spoke {
		return protocol.Dialect{}, false
	}
	return p.dialect, true
}

// Vital exempts endpoint from the circuit breaker. An agent cannot do
// without its manager: when the manager restarts, a result report must
// reach it at once, not after the breaker's reset (60 s by default) has
// dropped every report tried meanwhile.
func (c *Client) Vital(endpoint string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.peer(endpoint).vital = true
}

// Call describes one message to send.
type Call struct {
	Endpoint string
	Message  protocol.Message
	Timeout  time.Duration // for each attempt
	// Attempts in total for timeouts and connection errors; 0 means the
	// configured retry policy, 1 means a single try.
	Attempts int
	// BeforeRetry runs before attempt n+1 after attempt n failed with err
	// (retry.Policy.BeforeRetry): the referee logs its report's retries
	// with it.
	BeforeRetry func(attempt int, err error)
	// Repeat marks a call that repeats one that just failed (a retry, or
	// the GAME_ERROR notice before one): while the peer's circuit breaker
	// is open it fails at once. Any other call gets one real attempt,
	// whatever the breaker says (see guarded).
	Repeat bool
}

// Send delivers the call and returns the reply's league message. Only
// timeouts and connection failures are retried, and none once the peer's
// breaker is open: the peer failed this attempt and has been failing. When
// the breaker refuses a retry, the last real failure says why.
func (c *Client) Send(ctx context.Context, call Call) (json.RawMessage, error) {
	p := c.peerOf(call.Endpoint)
	policy := c.policy
	if call.Attempts > 0 {
		policy.Attempts = call.Attempts
	}
	policy.Final = p.final
	if call.BeforeRetry != nil {
		policy.BeforeRetry = func(attempt int, err error) error { call.BeforeRetry(attempt, err); return nil }
	}
	var reply json.RawMessage
	var failed error // the last failure of a real attempt
	err := retry.Do(ctx, policy, func(attempt int) error {
		try := call
		try.Repeat = call.Repeat || attempt > 1
		var err error
		reply, err = c.sendOnce(ctx, p, try)
		if !RefusedByBreaker(err) {
			failed = err
		}
		return err
	})
	if err == nil {
		return reply, nil
	}
	var interrupted *retry.Interrupted
	switch {
	case RefusedByBreaker(err) && failed != nil:
		return nil, failed // the breaker opened meanwhile
	case errors.As(err, &interrupted):
		return nil, interrupted.Last
	}
	return reply, err
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
	return errors.As(err, &callErr) && !RefusedByBreaker(err)
}

// RefusedByBreaker reports an attempt that was never made because the
// peer's circuit breaker is open: it says nothing new about the peer.
func RefusedByBreaker(err error) bool {
	return err != nil && (errors.Is(err, gobreaker.ErrOpenState) || errors.Is(err, gobreaker.ErrTooManyRequests))
}

// peerAnswered reports that the peer answered, maybe with an error: it is there.
func peerAnswered(err error) bool {
	if err == nil {
		return true // the usual case, without errors.As's error variable on the heap
	}
	var callErr *CallError
	return !errors.As(err, &callErr)
}

// sendOnce is one attempt: it walks the forms the message may be sent in
// until the peer takes one (protocol.TryAnotherForm), and remembers it.
// A peer that answered a flat message with "missing fields" read the
// method but not the params, so the other flat method names are skipped.
func (c *Client) sendOnce(ctx context.Context, p *peer, call Call) (json.RawMessage, error) {
	messageType := call.Message.Header().MessageType
	var firstErr, lastErr error
	flatRefused := false
	for _, form := range c.formsFor(p, messageType) {
		if flatRefused && form.Wrapper == "" {
			continue
		}
		reply, err := c.post(ctx, p, call, form)
		if err == nil {
			c.remember(p, messageType, form)
			return reply, nil
		}
		if !protocol.TryAnotherForm(err) {
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
// The list is shared: callers only read it.
func (c *Client) formsFor(p *peer, messageType string) []protocol.Form {
	c.mu.Lock()
	defer c.mu.Unlock()
	m := p.message(messageType)
	if m.order != nil {
		return m.order
	}
	o := formOrder{messageType: messageType, known: m.known, worked: m.worked, dialect: p.dialect, spoke: p.spoke}
	forms, ok := c.orders[o]
	if !ok {
		forms = formOrderOf(o)
		c.orders[o] = forms
	}
	m.order = forms
	return forms
}

// formOrderOf is the order formsFor tries a message's forms in.
func formOrderOf(o formOrder) []protocol.Form {
	var forms []protocol.Form
	if o.worked {
		forms = append(forms, o.known)
	}
	if o.spoke {
		forms = append(forms, o.dialect.FormIn(o.messageType))
	}
	for _, f := range append(forms, protocol.Forms(o.messageType)...) {
		if !slices.Contains(forms, f) {
			forms = append(forms, f)
		}
	}
	return forms
}

// remember keeps the form that worked, and the dialect it shows the peer
// speaks, so that its other messages go in that dialect first. Most calls
// only confirm what was known: the form's dialect is worked out again only
// when the form is new, or another message's form changed the dialect since.
func (c *Client) remember(p *peer, messageType string, form protocol.Form) {
	c.mu.Lock()
	defer c.mu.Unlock()
	m := p.message(messageType)
	if !m.worked || m.known != form {
		m.known, m.dialect, m.worked = form, form.Dialect(messageType), true
		m.order = nil
	}
	p.learn(m.dialect)
}

// post sends one request, in one form, through the endpoint's circuit
// breaker.
func (c *Client) post(ctx context.Context, p *peer, call Call, form protocol.Form) (json.RawMessage, error) {
	body, err := protocol.EncodeRequest(form.Method, form.Params(call.Message), c.nextID.Add(1))
	if err != nil {
		return nil, err
	}
	respBody, err := c.guarded(p, call, func() ([]byte, error) {
		return c.roundTrip(ctx, call, body)
	})
	if err != nil {
		if RefusedByBreaker(err) {
			return nil, &CallError{Code: protocol.CodeConnection, Endpoint: call.Endpoint, Err: err}
		}
		return nil, err
	}
	return protocol.ParseReply(respBody)
}

func (c *Client) roundTrip(ctx context.Context, call Call, body []byte) ([]byte, error) {
	attemptCtx, cancel := context.WithTimeout(ctx, call.Timeout)
	defer cancel()
	status, respBody, err := c.poster.Post(attemptCtx, call.Endpoint, body)
	if err == nil {
		return c.answered(call, status, respBody)
	}
	if IsReplyTooLarge(err) {
		// Longer than any request we take: no league reply comes near it,
		// and a hostile peer's endless reply would otherwise fill our
		// memory, and a referee's transcript and match file.
		return nil, err // it answered: no retry, no breaker
	}
	code := protocol.CodeConnection
	var netErr net.Error
	if errors.Is(err, context.DeadlineExceeded) || (errors.As(err, &netErr) && netErr.Timeout()) {
		code = protocol.CodeTimeout
	}
	return nil, &CallError{Code: code, Endpoint: call.Endpoint, Err: err}
}

// answered reads the status and body a peer answered a call with.
func (c *Client) answered(call Call, status int, respBody []byte) ([]byte, error) {
	if len(respBody) == 0 && status >= 300 {
		return nil, &CallError{Code: protocol.CodeConnection, Endpoint: call.Endpoint,
			Err: fmt.Errorf("HTTP %d with no body", status)}
	}
	if refused := notServed(status, respBody); refused != nil {
		return nil, refused
	}
	return respBody, nil
}

// notServed reads a client-error status with a body that is not JSON as
// "method not found", so that the next method name is tried: the official
// MCP Go SDK answers a method it does not know with HTTP 400 and plain text,
// and a league method is exactly that to a peer that speaks only MCP.
func notServed(status int, body []byte) *protocol.RPCError {
	refused := (status >= 400 && status <= 499) || status == http.StatusNotImplemented
	if !refused || json.Valid(body) {
		return nil
	}
	text := strings.TrimSpace(string(body))
	if len(text) > 200 {
		text = text[:200]
	}
	return protocol.NewRPCError(protocol.CodeMethodNotFound, "", "HTTP %d: %s", status, text)
}

// guarded runs send through the endpoint's circuit breaker, unless the
// endpoint is vital. The breaker only shortens repeats: a peer that failed
// a call and is failing again is not waited for a second time. A call of
// its own (Repeat false) is always tried, because a failure decides
// something (a match is lost when a player does not answer its call) and
// only a real attempt may decide it; a peer that answers such a call, such
// as a player back from a stall or an agent restarted on its old port, has
// its breaker closed at once.
func (c *Client) guarded(p *peer, call Call, send func() ([]byte, error)) ([]byte, error) {
	c.mu.Lock()
	vital := p.vital
	var cb *gobreaker.CircuitBreaker[[]byte]
	if !vital {
		cb = c.breaker(p)
	}
	c.mu.Unlock()
	if vital {
		return send()
	}
	reply, err := cb.Execute(send)
	if call.Repeat || !RefusedByBreaker(err) {
		return reply, err
	}
	reply, err = send()
	if peerAnswered(err) {
		c.closeBreaker(p, cb)
	}
	return reply, err
}

// closeBreaker forgets an endpoint's open breaker: the next call gets a
// closed one.
func (c *Client) closeBreaker(p *peer, open *gobreaker.CircuitBreaker[[]byte]) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if p.breaker == open {
		p.breaker = nil
		c.opts.Log.Info("circuit breaker", "endpoint", p.endpoint, "from", open.State().String(), "to", "closed",
			"why", "the peer answered a call")
	}
}

// breaker returns the endpoint's circuit breaker, made on first use. Only
// failures to get an answer trip it: a peer that answers with an error is
// alive. Call it with c.mu held.
func (c *Client) breaker(p *peer) *gobreaker.CircuitBreaker[[]byte] {
	if p.breaker != nil {
		return p.breaker
	}
	threshold := uint32(c.opts.Breaker.Failures)
	p.breaker = gobreaker.NewCircuitBreaker[[]byte](gobreaker.Settings{
		Name:    p.endpoint,
		Timeout: c.opts.Breaker.Reset,
		ReadyToTrip: func(counts gobreaker.Counts) bool {
			return threshold > 0 && counts.ConsecutiveFailures >= threshold
		},
		IsSuccessful: func(err error) bool {
			return peerAnswered(err) || errors.Is(err, context.Canceled)
		},
		OnStateChange: func(name string, from, to gobreaker.State) {
			c.opts.Log.Warn("circuit breaker", "endpoint", name, "from", from.String(), "to", to.String())
		},
	})
	return p.breaker
}

// BreakerOpen reports whether repeated calls to endpoint currently fail
// fast (never for a vital endpoint).
func (c *Client) BreakerOpen(endpoint string) bool {
	return c.breakerOpen(c.peerOf(endpoint))
}

func (c *Client) breakerOpen(p *peer) bool {
	c.mu.Lock()
	if p.vital {
		c.mu.Unlock()
		return false
	}
	cb := c.breaker(p)
	c.mu.Unlock()
	return cb.State() == gobreaker.StateOpen
}
