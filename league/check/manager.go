package check

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"sync"
	"time"

	"github.com/leaguetui/leaguetui/agents/protocol"
)

// inbound is one request a server of the checker received.
type inbound struct {
	At      time.Time
	Method  string
	Type    string // message_type, as routing reads it
	Body    json.RawMessage
	Message json.RawMessage // the league message, unwrapped from any dialect
	Dialect protocol.Dialect
}

// peer is an HTTP server of the checker's (the manager, a fake player):
// POST /mcp answered by a function of the request, every request kept.
type peer struct {
	URL    string // its /mcp URL
	srv    *http.Server
	mux    *http.ServeMux                            // POST /mcp, and what HandleHTTP adds (the manager's pull seats)
	answer func(ctx context.Context, in inbound) any // the result; nil answers with an ack

	mu   sync.Mutex
	got  []inbound
	news chan struct{} // a token each time a request arrives
}

// startPeer listens on host at a port the kernel picks.
func startPeer(host string, answer func(ctx context.Context, in inbound) any) (*peer, error) {
	ln, err := net.Listen("tcp", net.JoinHostPort(host, "0"))
	if err != nil {
		return nil, err
	}
	p := &peer{URL: "http://" + ln.Addr().String() + "/mcp", answer: answer, news: make(chan struct{}, 1), mux: http.NewServeMux()}
	p.mux.HandleFunc("/", p.serve)
	p.srv = &http.Server{Handler: p.mux, ReadHeaderTimeout: 10 * time.Second}
	go func() { _ = p.srv.Serve(ln) }()
	return p, nil
}

func (p *peer) close() { _ = p.srv.Close() }

// HandleHTTP serves h beside POST /mcp (relay.Router).
func (p *peer) HandleHTTP(pattern string, h http.HandlerFunc) { p.mux.HandleFunc(pattern, h) }

func (p *peer) serve(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(io.LimitReader(r.Body, 1<<20))
	if err != nil || r.Method != http.MethodPost {
		http.Error(w, "POST a JSON-RPC request", http.StatusBadRequest)
		return
	}
	req, rpcErr := protocol.ParseRequest(body)
	w.Header().Set("Content-Type", "application/json")
	if rpcErr != nil {
		_, _ = w.Write(protocol.EncodeError(nil, rpcErr))
		return
	}
	routed, _ := req.Route()
	in := inbound{At: time.Now(), Method: req.Method, Type: routed.MessageType, Body: body, Message: routed.Body,
		Dialect: protocol.DialectOf(routed)}
	p.mu.Lock()
	p.got = append(p.got, in)
	p.mu.Unlock()
	select {
	case p.news <- struct{}{}:
	default:
	}
	reply := p.answer(r.Context(), in)
	if req.IsNotification() {
		w.WriteHeader(http.StatusAccepted)
		return
	}
	if reply == nil {
		reply = &protocol.Ack{Envelope: protocol.NewEnvelope(routed.MessageType+"_ACK", protocol.SenderManager, ""), Status: "ok"}
	}
	out, err := protocol.EncodeResult(req.ID, reply)
	if err != nil {
		out = protocol.EncodeError(req.ID, protocol.NewRPCError(protocol.CodeInternal, "", "%v", err))
	}
	_, _ = w.Write(out)
}

// received lists the requests of message type kind received so far.
func (p *peer) received(kind string) []inbound {
	p.mu.Lock()
	defer p.mu.Unlock()
	var out []inbound
	for _, in := range p.got {
		if in.Type == kind {
			out = append(out, in)
		}
	}
	return out
}

// since lists the requests received after t.
func (p *peer) since(t time.Time) []inbound {
	p.mu.Lock()
	defer p.mu.Unlock()
	var out []inbound
	for _, in := range p.got {
		if in.At.After(t) {
			out = append(out, in)
		}
	}
	return out
}

func orNone(messageType string) string {
	if messageType == "" {
		return "request"
	}
	return messageType
}

// errGone is what awaiting reports when the agent it waits on ended.
var errGone = errors.New("the agent exited")

// await waits until ok holds of what the peer received, or until
// timeout; alive, when set, is asked between arrivals whether the agent
// still runs (a dead agent sends nothing more).
func (p *peer) await(ctx context.Context, timeout time.Duration, alive func() error, ok func() bool) error {
	deadline := time.NewTimer(timeout)
	defer deadline.Stop()
	tick := time.NewTicker(100 * time.Millisecond)
	defer tick.Stop()
	for !ok() {
		select {
		case <-p.news:
		case <-tick.C:
			if alive != nil {
				if err := alive(); err != nil {
					return err
				}
			}
		case <-deadline.C:
			return fmt.Errorf("nothing within %s", timeout)
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	return nil
}
