// Package rpc is the HTTP side of every agent: the /mcp server that routes
// league.v2 JSON-RPC to handlers, and the client that sends league messages
// with deadlines, retries, method fallbacks and a circuit breaker per endpoint.
package rpc

import (
	"bytes"
	"context"
	"crypto/tls"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math/bits"
	"net"
	"net/http"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/leaguetui/leaguetui/agents/protocol"
)

// MaxBodyBytes is the default bound of a league message's body, a request
// (larger ones are refused unread) or a reply (refused as REPLY_TOO_LARGE);
// --message-bytes sets another (SetMaxBodyBytes, Options.MaxReplyBytes).
const MaxBodyBytes = 1 << 20

// presizedBodyBytes bounds the buffer made from a request's stated length
// before its body arrives (see readBody); league messages are a few KB,
// a 64-player standings update about 10 KB.
const presizedBodyBytes = 32 << 10

// Handler answers one routed league message. It returns the reply message,
// or a *protocol.LeagueError (sent back as a LEAGUE_ERROR result), or a
// *protocol.RPCError (sent back as a JSON-RPC error).
type Handler func(ctx context.Context, in protocol.Inbound) (any, error)

// route is a message type's handler, and whether it only borrows the
// request's body (HandleBorrowing).
type route struct {
	handler Handler
	borrows bool
}

// Server serves POST /mcp for one agent plus any extra routes it adds.
type Server struct {
	mux      *http.ServeMux
	log      *slog.Logger
	sender   func() string
	mu       sync.RWMutex
	handlers map[string]route
	served   atomic.Int64
	mcp      http.Handler // MCP methods go here when set (MountMCP)

	readTimeout time.Duration // for a whole request to arrive (SetReadTimeout)
	maxBody     int64         // a request body's bound (SetMaxBodyBytes)
	tls         *tls.Config   // serve HTTPS when set (SetTLS)
}

// DefaultReadTimeout is how long a client has to send a whole request, and
// maxHeaderTimeout how long at most for its headers: a client that drips
// its request a byte at a time is cut off then, while the others are served.
const (
	DefaultReadTimeout = 15 * time.Second
	maxHeaderTimeout   = 5 * time.Second
)

// SetReadTimeout changes how long a client has to send a whole request
// (headers within at most 5 s of it). Call it before Listen.
func (s *Server) SetReadTimeout(d time.Duration) {
	if d > 0 {
		s.readTimeout = d
	}
}

// SetMaxBodyBytes changes the bound of a request body (MaxBodyBytes by
// default). Call it before Listen.
func (s *Server) SetMaxBodyBytes(n int64) {
	if n > 0 {
		s.maxBody = n
	}
}

// SetTLS makes Listen serve HTTPS with cfg (nil: plain HTTP). Call it
// before Listen.
func (s *Server) SetTLS(cfg *tls.Config) { s.tls = cfg }

// NewServer makes a server whose LEAGUE_ERROR replies carry sender().
func NewServer(log *slog.Logger, sender func() string) *Server {
	s := &Server{mux: http.NewServeMux(), log: log, sender: sender, handlers: map[string]route{},
		readTimeout: DefaultReadTimeout, maxBody: MaxBodyBytes}
	s.mux.HandleFunc("/mcp", s.serveMCP)
	s.HandleBorrowing(protocol.TypePing, func(context.Context, protocol.Inbound) (any, error) {
		return map[string]string{"status": "ok"}, nil
	})
	return s
}

// Served counts the JSON-RPC requests this server has answered.
func (s *Server) Served() int64 { return s.served.Load() }

// Handle routes a message type to h. A message type has one handler: a
// second is a programming error and panics, as net/http's ServeMux does.
// in.Body is h's own: h may keep it, or hand it on, for as long as it likes.
func (s *Server) Handle(messageType string, h Handler) { s.add(messageType, route{handler: h}) }

// HandleBorrowing routes a message type to h, which only borrows in.Body:
// it reads it until it returns and keeps no slice of it, nor starts
// anything that reads it later (the values it decodes from it are its
// own: the decoders copy strings and raw fields). The server lends it the
// buffer the request was read into, and reads a later request into the
// same memory once the reply is written: a handler that acknowledges a
// 10 KB standings update allocates nothing for it.
func (s *Server) HandleBorrowing(messageType string, h Handler) {
	s.add(messageType, route{handler: h, borrows: true})
}

func (s *Server) add(messageType string, r route) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, taken := s.handlers[messageType]; taken {
		panic("rpc: a second handler for " + messageType)
	}
	s.handlers[messageType] = r
}

// HandleHTTP adds a plain HTTP route such as "GET /health".
func (s *Server) HandleHTTP(pattern string, h http.HandlerFunc) { s.mux.HandleFunc(pattern, h) }

func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) { s.mux.ServeHTTP(w, r) }

func (s *Server) serveMCP(w http.ResponseWriter, r *http.Request) {
	mcpHandler := s.mcpHandler()
	if r.Method != http.MethodPost {
		if mcpHandler != nil {
			mcpHandler.ServeHTTP(w, r) // the MCP SDK answers GET and DELETE
			return
		}
		w.Header().Set("Allow", http.MethodPost)
		http.Error(w, "POST a JSON-RPC request to /mcp", http.StatusMethodNotAllowed)
		return
	}
	body, pooled, err := readBody(w, r, s.maxBody)
	if err != nil {
		s.served.Add(1) // answered, with an error
		var tooLarge *http.MaxBytesError
		if errors.As(err, &tooLarge) {
			WriteEncoded(w, http.StatusRequestEntityTooLarge, protocol.EncodeError(nil,
				protocol.NewRPCError(protocol.CodeInvalidRequest, "", "request body over %d bytes", s.maxBody)))
			return
		}
		WriteEncoded(w, http.StatusBadRequest, protocol.EncodeError(nil,
			protocol.NewRPCError(protocol.CodeParseError, "", "could not read the body: %v", err)))
		return
	}
	var parsed protocol.Request // on the stack: nothing keeps the request
	req, rpcErr := protocol.ParseRequestInto(body, &parsed)
	if mcpHandler != nil && s.routesToMCP(r, req) {
		serveBodyTo(mcpHandler, w, r, body) // the SDK's now: never given back
		return
	}
	reply := s.answer(r.Context(), req, rpcErr, pooled != nil)
	if reply == nil {
		// A notification: accepted, and answered with nothing, as the MCP
		// transport answers one.
		w.WriteHeader(http.StatusAccepted)
	} else {
		status := http.StatusOK // league peers read the body, whatever the status
		if rpcErr != nil && speaksMCP(r) {
			status = http.StatusBadRequest // what the MCP transport answers a message it cannot take
		}
		WriteEncoded(w, status, reply)
	}
	// The reply is written (net/http copied it) and was encoded from
	// values of its own; the handler has returned, with its own copy of
	// the body unless it only borrowed it: nothing reads the buffer now.
	giveBack(pooled)
}

// readBody reads a request's body, at most limit bytes of it. A body of
// a stated length (every league peer's) is read into a buffer of the
// pool, returned as pooled, which serveMCP gives back once the reply is
// written: io.ReadAll grows its buffer from 512 bytes, and a fresh buffer
// of the right size is zeroed before the body is read into it, on every
// request. net/http's body never gives more than the stated length, so
// no MaxBytesReader is needed there. Only up to presizedBodyBytes,
// though: a stated length is a claim, and a hostile peer could claim a
// megabyte on each of many connections and send nothing; above it the
// buffer grows with what actually arrives, and is not pooled.
func readBody(w http.ResponseWriter, r *http.Request, limit int64) (body []byte, pooled *[]byte, err error) {
	if n := r.ContentLength; n > 0 && n <= min(presizedBodyBytes, limit) {
		pooled = borrowBuffer(int(n))
		if _, err := io.ReadFull(r.Body, *pooled); err != nil {
			giveBack(pooled)
			return nil, nil, err
		}
		return *pooled, pooled, nil
	}
	body, err = io.ReadAll(http.MaxBytesReader(w, r.Body, limit))
	return body, nil, err
}

// bodyBuffers holds the buffers requests of a stated length are read
// into, at least minBodyBuffer and at most presizedBodyBytes each: one
// per request in flight, reused from one request to the next.
var bodyBuffers sync.Pool // of *[]byte

const minBodyBuffer = 4 << 10

// borrowBuffer gives a buffer of n bytes from the pool, or a new one
// sized for this body and those like it. A pooled buffer too small for
// this body is dropped: the pool keeps to buffers big enough for the
// largest bodies the agent gets, and a stated length is capped by
// presizedBodyBytes.
func borrowBuffer(n int) *[]byte {
	if buf, ok := bodyBuffers.Get().(*[]byte); ok && cap(*buf) >= n {
		*buf = (*buf)[:n]
		return buf
	}
	buf := make([]byte, n, max(minBodyBuffer, 1<<bits.Len(uint(n-1))))
	return &buf
}

// giveBack returns a buffer to the pool once nothing reads it (nil: none).
func giveBack(buf *[]byte) {
	if buf != nil {
		bodyBuffers.Put(buf)
	}
}

// Dispatch answers one JSON-RPC request body and returns the response body,
// or nil for a notification. It is the single path every league request
// takes, whatever carried it.
func (s *Server) Dispatch(ctx context.Context, body []byte) []byte {
	req, rpcErr := protocol.ParseRequest(body)
	return s.answer(ctx, req, rpcErr, false)
}

// answer frames the reply to a parsed request, or returns nil for a
// notification (JSON-RPC 2.0: it is acted on, never answered, not even
// with an error). A request that is not valid JSON-RPC is no notification:
// its error goes back with the id, or null when the id was not valid.
// lent says the body is a pooled buffer, lent only until the reply is
// written (see respond).
func (s *Server) answer(ctx context.Context, req *protocol.Request, rpcErr *protocol.RPCError, lent bool) []byte {
	s.served.Add(1)
	if rpcErr != nil {
		var id json.RawMessage
		if req != nil {
			id = req.ID
		}
		return protocol.EncodeError(id, rpcErr)
	}
	reply := s.respond(ctx, req, lent)
	if req.IsNotification() {
		return nil
	}
	return reply
}

// respond routes a valid request to its handler and frames the reply. The
// body was scanned once, by ParseRequest, which read the message's head for
// routing on the way; the handler decodes its typed message from the raw
// params. A body that is only lent (a pooled buffer) is lent on to a
// handler that only borrows it; any other handler gets a copy of its
// message to keep.
func (s *Server) respond(ctx context.Context, req *protocol.Request, lent bool) []byte {
	in, ok := req.Route()
	target := s.handler(in.MessageType)
	if !ok || target.handler == nil {
		return protocol.EncodeError(req.ID, protocol.NewRPCError(protocol.CodeMethodNotFound, "",
			"method %q not found", req.Method))
	}
	if in.Protocol != "" && in.Protocol != protocol.Version {
		// protocol.md §2 rule 2: a missing protocol may be assumed, a
		// different one is refused, before any handler sees the message.
		return s.encodeFailure(req.ID, in, protocol.Reject(protocol.CodeProtocolVersion,
			"protocol %q is not %s", in.Protocol, protocol.Version))
	}
	if lent && !target.borrows {
		in.Body = bytes.Clone(in.Body)
	}
	reply, err := s.call(ctx, target.handler, in)
	if err != nil {
		return s.encodeFailure(req.ID, in, err)
	}
	if in.ViaTool {
		wrapped, werr := protocol.ToolResult(reply, false)
		if werr != nil {
			return protocol.EncodeError(req.ID, protocol.NewRPCError(protocol.CodeInternal, "", "%v", werr))
		}
		reply = wrapped
	}
	out, err := protocol.EncodeResult(req.ID, reply)
	if err != nil {
		return protocol.EncodeError(req.ID, protocol.NewRPCError(protocol.CodeInternal, "", "%v", err))
	}
	return out
}

func (s *Server) handler(messageType string) route {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.handlers[messageType]
}

// call runs the handler, turning a panic into an internal error so one bad
// message never takes the agent down.
func (s *Server) call(ctx context.Context, h Handler, in protocol.Inbound) (reply any, err error) {
	defer func() {
		if p := recover(); p != nil {
			s.log.Error("handler panicked", "message_type", in.MessageType, "panic", fmt.Sprint(p))
			err = protocol.NewRPCError(protocol.CodeInternal, "", "internal error")
		}
	}()
	return h(ctx, in)
}

func (s *Server) encodeFailure(id json.RawMessage, in protocol.Inbound, err error) []byte {
	var leagueErr *protocol.LeagueError
	var rpcErr *protocol.RPCError
	switch {
	case errors.As(err, &leagueErr):
		s.stampLeagueError(leagueErr, in)
		// "refused" is store.RefusedKey: the agent's log counts these
		// rather than write each (rpc may not import store).
		s.log.Warn("rejected", "refused", leagueErr.ErrorCode, "message_type", in.MessageType, "error_code", leagueErr.ErrorCode,
			"reason", leagueErr.ErrorDescription)
		if in.ViaTool {
			wrapped, _ := protocol.ToolResult(leagueErr, true)
			out, _ := protocol.EncodeResult(id, wrapped)
			return out
		}
		out, _ := protocol.EncodeResult(id, leagueErr)
		return out
	case errors.As(err, &rpcErr):
		return protocol.EncodeError(id, rpcErr)
	default:
		s.log.Error("handler failed", "message_type", in.MessageType, "err", err)
		return protocol.EncodeError(id, protocol.NewRPCError(protocol.CodeInternal, "", "%v", err))
	}
}

func (s *Server) stampLeagueError(e *protocol.LeagueError, in protocol.Inbound) {
	e.Envelope = protocol.NewEnvelope(protocol.TypeLeagueError, s.sender(), in.ConversationID)
	e.OriginalMessageType = in.MessageType
}

// jsonContentType is every JSON reply's Content-Type, shared: net/http
// copies a reply's headers before it writes them and never changes the
// values a handler set.
var jsonContentType = []string{"application/json"}

// chunkedAbove is the size above which net/http would send a reply in
// chunks unless it is told its length: it buffers this much of a reply
// before it writes the headers.
const chunkedAbove = 2048

// WriteEncoded answers with body, JSON already encoded, the way every
// league reply is written.
func WriteEncoded(w http.ResponseWriter, status int, body []byte) {
	h := w.Header()
	h["Content-Type"] = jsonContentType
	if len(body) > chunkedAbove {
		h["Content-Length"] = []string{strconv.Itoa(len(body))}
	}
	w.WriteHeader(status)
	_, _ = w.Write(body)
}

// WriteJSON answers a plain HTTP route with v as JSON.
func WriteJSON(w http.ResponseWriter, status int, v any) {
	body, err := json.Marshal(v)
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	WriteEncoded(w, status, body)
}

// Listening is a server bound to an address.
type Listening struct {
	Addr   string // host:port actually bound (port 0 picks a free one)
	Scheme string // "http", or "https" with TLS
	srv    *http.Server
	done   chan error
}

// URL is the agent's /mcp endpoint, as this machine reaches it.
func (l *Listening) URL() string { return l.Base() + "/mcp" }

// Base is the agent's base URL without a path, as this machine reaches it:
// an agent bound to every address (0.0.0.0 or ::) is reached on loopback.
func (l *Listening) Base() string { return l.Scheme + "://" + LocalAddr(l.Addr) }

// LocalAddr turns a wildcard host:port into the loopback address of its
// family, the one address sure to reach it from this machine.
func LocalAddr(hostport string) string {
	host, port, err := net.SplitHostPort(hostport)
	ip := net.ParseIP(host)
	if err != nil || ip == nil || !ip.IsUnspecified() {
		return hostport
	}
	if ip.To4() != nil {
		return net.JoinHostPort("127.0.0.1", port)
	}
	return net.JoinHostPort("::1", port)
}

// Shutdown stops accepting requests and waits for those in flight.
// Connections a peer opened but never used count as busy for five seconds
// in net/http's Shutdown; agents answer quickly, so after a short grace the
// rest are closed rather than waited for.
func (l *Listening) Shutdown(ctx context.Context) error {
	grace, cancel := context.WithTimeout(ctx, shutdownGrace)
	defer cancel()
	err := l.srv.Shutdown(grace)
	if errors.Is(err, context.DeadlineExceeded) && ctx.Err() == nil {
		err = l.srv.Close()
	}
	<-l.done
	return err
}

// NewHTTPServer is the net/http server every leaguetui server runs on (an
// agent's, the page server's, the manager's pprof, the bench's; log nil
// leaves net/http's own error log): a client has
// readTimeout to send a whole request, body included, and at most 5 s of
// it for the headers; a connection idle for IdleTimeout is closed; headers
// are at most 64 KiB. A client that drips its request a byte at a time, or
// opens connections and sends nothing, is cut off, while the others are
// served. Each server adds its own write deadline, if any.
func NewHTTPServer(h http.Handler, readTimeout time.Duration, log *slog.Logger) *http.Server {
	if readTimeout <= 0 {
		readTimeout = DefaultReadTimeout
	}
	srv := &http.Server{
		Handler:           h,
		ReadHeaderTimeout: min(readTimeout, maxHeaderTimeout),
		ReadTimeout:       readTimeout,
		IdleTimeout:       IdleTimeout,
		MaxHeaderBytes:    64 << 10,
		// Each connection's requests know where they come from
		// (RemoteAddr), for bounds kept per source: one value a connection.
		ConnContext: func(ctx context.Context, c net.Conn) context.Context {
			return context.WithValue(ctx, remoteAddrKey{}, c.RemoteAddr().String())
		},
	}
	if log != nil {
		srv.ErrorLog = slog.NewLogLogger(log.Handler(), slog.LevelWarn)
	}
	return srv
}

type remoteAddrKey struct{}

// RemoteAddr is the address ("host:port") of the peer whose request ctx
// is (a handler's, on a server NewHTTPServer made); "" when unknown.
func RemoteAddr(ctx context.Context) string {
	addr, _ := ctx.Value(remoteAddrKey{}).(string)
	return addr
}

// IdleTimeout is how long a server keeps a connection no request uses.
const IdleTimeout = 2 * time.Minute

// shutdownGrace is how long requests in flight get to finish at shutdown.
const shutdownGrace = time.Second

// Listen binds host:port and serves in the background. A port in use gives
// an error that names it.
func (s *Server) Listen(host string, port int) (*Listening, error) {
	addr := net.JoinHostPort(host, strconv.Itoa(port))
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("cannot listen on %s (is port %d in use? --port 0 takes a free one): %w", addr, port, err)
	}
	srv := NewHTTPServer(s, s.readTimeout, s.log)
	srv.WriteTimeout = 2 * time.Minute
	l := &Listening{Addr: ln.Addr().String(), Scheme: "http", srv: srv, done: make(chan error, 1)}
	if s.tls != nil {
		srv.TLSConfig = s.tls
		ln = tls.NewListener(ln, s.tls)
		l.Scheme = "https"
	}
	go func() { l.done <- srv.Serve(ln) }()
	return l, nil
}

// DecodeParams decodes a routed message into msg, or returns the JSON-RPC
// error for params that do not fit the message's shape.
func DecodeParams(in protocol.Inbound, msg protocol.Message) error {
	if err := protocol.Decode(in.Body, msg); err != nil {
		return protocol.NewRPCError(protocol.CodeInvalidParams, "", "invalid %s: %v", in.MessageType, err)
	}
	return nil
}
