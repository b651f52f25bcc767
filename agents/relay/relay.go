// Package relay gives a player the league cannot reach (behind NAT, a
// campus firewall) a pull seat: the manager, the one address every
// participant reaches, holds each call made to the player's relay
// endpoint until the player, polling over a connection it opened itself,
// takes the call and posts its answer, which the relay writes as the
// caller's HTTP response. The messages, tokens and tickets are those of a
// player that serves its own /mcp: only the transport differs.
//
// The exchange, for a player with id P05 (docs/joining.md has it with
// examples):
//
//	POST /pull/P05/mcp             a referee's (or the manager's) call, held
//	GET  /pull/P05/next            the player's long poll (Authorization: Bearer TOKEN):
//	                               200, the call's body and its delivery id in the
//	                               League-Delivery header, or 204 after PollWait
//	POST /pull/P05/reply/DELIVERY  the player's answer (Bearer TOKEN), written as
//	                               the held call's response; 204
//	POST /pull/P05/next            both in one request: the answer to the call the
//	                               League-Delivery header names (none: no answer),
//	                               then the poll's answer
//
// Every participant may be hostile: the token is compared in constant
// time, each seat holds at most Queue calls and 8 polls at once, all
// seats together MaxHeld bytes of calls, bodies are capped at MaxBody,
// every wait is bounded (PollWait, MaxHold), a delivery id is
// random and answered once, and a seat's deliveries are reached only with
// that seat's token.
package relay

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// Marker is the contact_endpoint a player registers with when the league
// cannot reach it: the manager gives it a pull seat and records the
// seat's relay endpoint as the player's.
const Marker = "pull"

// IsMarker says a registration's contact_endpoint asks for a pull seat.
func IsMarker(endpoint string) bool { return strings.EqualFold(strings.TrimSpace(endpoint), Marker) }

// DeliveryHeader carries the id of the call a poll hands out, which the
// player's answer names in its URL.
const DeliveryHeader = "League-Delivery"

// Defaults, each a bound a hostile peer cannot stretch.
const (
	// DefaultPollWait is how long a poll waits for a call before its 204:
	// under the 30 s after which proxies and NAT boxes drop a quiet
	// connection.
	DefaultPollWait = 20 * time.Second
	// MaxPollWait is the longest PollWait a relay takes.
	MaxPollWait = 25 * time.Second
	// DefaultQueue is how many calls a seat holds at once (queued or
	// handed out and not yet answered): a player's matches and the
	// notifications between them, with room to spare.
	DefaultQueue = 64
	// DefaultMaxHold is the longest a call is held, whatever its caller
	// waits: longer than any league deadline (30 s a move), shorter than
	// the 2 minutes an agent's server gives a response to be written.
	DefaultMaxHold = 90 * time.Second
	// DefaultMaxHeld is how many bytes of calls all seats together hold
	// at once: calls posted to many seats at once cannot fill the
	// manager's memory.
	DefaultMaxHeld = 64 << 20
	// pollers is how many polls of one seat may wait at once.
	pollers = 8
	// deadlineSlack is what a held request's read deadline gets beyond its
	// wait (the server's own deadline covers only the request's arrival).
	deadlineSlack = 5 * time.Second
	// DrainGrace is how long, once the manager is stopping (Drain), a call
	// held already waits for its player to take it, and a poll for a call:
	// a player that polls takes its calls within milliseconds, and one
	// that stopped polling must not hold the manager's stop for MaxHold.
	DrainGrace = 2 * time.Second
)

// Options bound a relay; zero values are the defaults.
type Options struct {
	MaxBody  int64         // the largest call or answer, in bytes (the league's message size)
	PollWait time.Duration // how long a poll waits (at most MaxPollWait)
	Queue    int           // calls a seat holds at once
	MaxHold  time.Duration // how long a call is held at most
	MaxHeld  int64         // the bytes of calls all seats hold at once
	Log      *slog.Logger
}

// Relay holds the pull seats of a league's manager.
type Relay struct {
	opts      Options
	held      atomic.Int64  // bytes of the calls held now, all seats together
	draining  chan struct{} // closed by Drain
	drainOnce sync.Once
	mu        sync.Mutex
	seats     map[string]*seat // agent id -> its seat
}

// New makes a relay with opts' bounds.
func New(opts Options) *Relay {
	if opts.MaxBody <= 0 {
		opts.MaxBody = 1 << 20
	}
	if opts.PollWait <= 0 {
		opts.PollWait = DefaultPollWait
	}
	opts.PollWait = min(opts.PollWait, MaxPollWait)
	if opts.Queue <= 0 {
		opts.Queue = DefaultQueue
	}
	if opts.MaxHold <= 0 {
		opts.MaxHold = DefaultMaxHold
	}
	if opts.MaxHeld <= 0 {
		opts.MaxHeld = DefaultMaxHeld
	}
	if opts.Log == nil {
		opts.Log = slog.New(slog.DiscardHandler)
	}
	return &Relay{opts: opts, seats: map[string]*seat{}, draining: make(chan struct{})}
}

// Drain is the manager's stop beginning: from now on a call is held only
// for a player that polls (one whose seat no poll waits on is refused at
// once), and every call and poll waits at most DrainGrace more, so that
// the calls still queued (the league's last notifications) reach the
// players that poll and the manager's server stops within DrainGrace
// whatever the others do.
func (r *Relay) Drain() { r.drainOnce.Do(func() { close(r.draining) }) }

func (r *Relay) isDraining() bool {
	select {
	case <-r.draining:
		return true
	default:
		return false
	}
}

// Endpoint is the relay endpoint of agent's seat, under base (the
// manager's URL without /mcp).
func Endpoint(base, agent string) string {
	return strings.TrimSuffix(base, "/") + "/pull/" + url.PathEscape(agent) + "/mcp"
}

// UnderRelay says a contact endpoint is a relay endpoint's form (a path
// /pull/…/mcp): only the manager hands those out.
func UnderRelay(endpoint string) bool {
	u, err := url.Parse(endpoint)
	return err == nil && strings.HasPrefix(u.Path, "/pull/") && strings.HasSuffix(u.Path, "/mcp")
}

// Router is where the relay's routes go (an agent's rpc.Server).
type Router interface {
	HandleHTTP(pattern string, h http.HandlerFunc)
}

// Mount serves the relay's routes on r.
func (r *Relay) Mount(router Router) {
	router.HandleHTTP("POST /pull/{agent}/mcp", r.serveCall)
	router.HandleHTTP("GET /pull/{agent}/next", r.serveNext)
	router.HandleHTTP("POST /pull/{agent}/reply/{delivery}", r.serveReply)
	router.HandleHTTP("POST /pull/{agent}/next", r.serveAnswerNext)
}

// Polling says agent has a seat and its player polls it (a poll waits
// now, or one ended within the poll wait): what its health is, since the
// league cannot reach the player itself.
func (r *Relay) Polling(agent string) bool {
	s := r.seat(agent)
	return s != nil && s.polling(r.opts.PollWait)
}

// Open gives agent a seat, or its seat a new token (the agent registered
// again): from now on only token opens it. Calls already held stay.
func (r *Relay) Open(agent, token string) {
	sum := sha256.Sum256([]byte(token))
	r.mu.Lock()
	defer r.mu.Unlock()
	s, ok := r.seats[agent]
	if !ok {
		s = newSeat(r.opts.Queue)
		r.seats[agent] = s
	}
	s.setToken(sum)
}

// Close takes agent's seat away (it registered again with an endpoint of
// its own): its held calls end unanswered, its polls and answers are
// refused.
func (r *Relay) Close(agent string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	delete(r.seats, agent)
}

func (r *Relay) seat(agent string) *seat {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.seats[agent]
}

// serveCall holds a call to a seat until its player answers, the caller
// goes, or MaxHold passes.
func (r *Relay) serveCall(w http.ResponseWriter, req *http.Request) {
	s := r.seat(req.PathValue("agent"))
	if s == nil {
		refuse(w, http.StatusNotFound, "no pull seat here: the player registered no pull seat")
		return
	}
	body, ok := r.readBody(w, req)
	if !ok {
		return
	}
	if r.isDraining() && !s.pollWaiting() {
		refuse(w, http.StatusServiceUnavailable, "the league is stopping and the player does not poll its seat now")
		return
	}
	if !r.hold(len(body)) {
		refuse(w, http.StatusServiceUnavailable, "the league's relay holds as many calls as it may; try again later")
		return
	}
	defer r.hold(-len(body))
	d, err := s.enqueue(body)
	if err != nil {
		refuse(w, http.StatusServiceUnavailable, err.Error())
		return
	}
	defer s.release(d)
	extendDeadline(w, r.opts.MaxHold)
	hold := time.NewTimer(r.opts.MaxHold)
	defer hold.Stop()
	draining := r.draining
	for {
		select {
		case a := <-d.answer:
			writeAnswer(w, a)
			return
		case <-hold.C:
			refuse(w, http.StatusGatewayTimeout, "the player did not answer in time")
			return
		case <-req.Context().Done():
			return
		case <-draining:
			draining = nil // fires once
			hold.Reset(DrainGrace)
		}
	}
}

// hold counts n more bytes of calls held (less, for n < 0), unless that
// would pass MaxHeld.
func (r *Relay) hold(n int) bool {
	if r.held.Add(int64(n)) > r.opts.MaxHeld && n > 0 {
		r.held.Add(int64(-n))
		return false
	}
	return true
}

// serveNext hands the seat's next call to its player, or 204 when none
// comes within PollWait.
func (r *Relay) serveNext(w http.ResponseWriter, req *http.Request) {
	if s := r.authorized(w, req); s != nil {
		r.pollNext(w, req, s)
	}
}

// serveAnswerNext answers the call its League-Delivery header names with
// its body, as serveReply does, then waits for the seat's next call as
// serveNext does: a player that answers each call this way makes one
// request a call instead of two. Without the header it is a poll.
func (r *Relay) serveAnswerNext(w http.ResponseWriter, req *http.Request) {
	s := r.authorized(w, req)
	if s == nil {
		return
	}
	if id := req.Header.Get(DeliveryHeader); id != "" {
		body, ok := r.readBody(w, req)
		if !ok {
			return
		}
		if status, why := s.answer(id, body); status != 0 {
			refuse(w, status, why)
			return
		}
	}
	r.pollNext(w, req, s)
}

// pollNext is a poll of s: its next call, or 204 when none comes within
// PollWait.
func (r *Relay) pollNext(w http.ResponseWriter, req *http.Request, s *seat) {
	if !s.startPoll() {
		refuse(w, http.StatusTooManyRequests, "too many polls of this seat at once")
		return
	}
	defer s.endPoll()
	extendDeadline(w, r.opts.PollWait)
	d := s.next(req.Context(), r.opts.PollWait, r.draining)
	if d == nil {
		w.WriteHeader(http.StatusNoContent)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set(DeliveryHeader, d.id)
	w.Header().Set("Cache-Control", "no-store")
	_, _ = w.Write(d.body)
}

// serveReply writes the player's answer as the held call's response.
func (r *Relay) serveReply(w http.ResponseWriter, req *http.Request) {
	s := r.authorized(w, req)
	if s == nil {
		return
	}
	body, ok := r.readBody(w, req)
	if !ok {
		return
	}
	if status, why := s.answer(req.PathValue("delivery"), body); status != 0 {
		refuse(w, status, why)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

// authorized is the seat of the request's agent when it carries that
// seat's token, else nil with the refusal written. An unknown seat and a
// wrong token get the same answer: a poller learns nothing of other seats.
func (r *Relay) authorized(w http.ResponseWriter, req *http.Request) *seat {
	token, ok := strings.CutPrefix(req.Header.Get("Authorization"), "Bearer ")
	s := r.seat(req.PathValue("agent"))
	if !ok || s == nil || !s.opens(token) {
		w.Header().Set("WWW-Authenticate", `Bearer realm="league"`)
		refuse(w, http.StatusUnauthorized, "Authorization: Bearer with the auth_token this player's registration issued is required")
		return nil
	}
	return s
}

// readBody reads a request body of at most MaxBody bytes; a larger one
// is refused with 413 and the connection closed.
func (r *Relay) readBody(w http.ResponseWriter, req *http.Request) ([]byte, bool) {
	body, err := io.ReadAll(http.MaxBytesReader(w, req.Body, r.opts.MaxBody))
	var tooLarge *http.MaxBytesError
	switch {
	case errors.As(err, &tooLarge):
		refuse(w, http.StatusRequestEntityTooLarge, "the body is larger than the league's message size")
		return nil, false
	case err != nil:
		refuse(w, http.StatusBadRequest, "the body could not be read")
		return nil, false
	}
	return body, true
}

// extendDeadline lets a held request outlive the server's deadlines,
// which are meant for a request's arrival and its prompt answer, by wait
// and a little, so that neither cuts a held call or poll short.
func extendDeadline(w http.ResponseWriter, wait time.Duration) {
	rc := http.NewResponseController(w)
	until := time.Now().Add(wait + deadlineSlack)
	_ = rc.SetReadDeadline(until)
	_ = rc.SetWriteDeadline(until)
}

func writeAnswer(w http.ResponseWriter, a answer) {
	if len(a.body) > 0 {
		w.Header().Set("Content-Type", "application/json")
	}
	w.WriteHeader(a.status)
	_, _ = w.Write(a.body)
}

// refuse answers with status and a JSON-RPC error saying why, which a
// league client reads whatever the status.
func refuse(w http.ResponseWriter, status int, why string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	msg, _ := json.Marshal(why)
	_, _ = io.WriteString(w, `{"jsonrpc":"2.0","error":{"code":-32000,"message":`+string(msg)+`},"id":null}`)
}

// newDeliveryID is 16 random bytes in hex: no one answers a call by
// guessing its id.
func newDeliveryID() string {
	buf := make([]byte, 16)
	_, _ = rand.Read(buf) // crypto/rand.Read never fails (Go 1.24)
	return "d-" + hex.EncodeToString(buf)
}
