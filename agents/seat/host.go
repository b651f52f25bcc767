// Package seat is the seat host: MCP-client seats, where an MCP client
// (an assistant, an agent written with any MCP SDK) with nothing but the
// endpoint and a join code plays a league through four tools (take_seat,
// wait_for_turn, submit_move, get_standings). Behind each seat runs an
// ordinary agents/player.Player, registered with the manager under the
// seat's name and join code, whose moves come from the seat's client
// (player.Options.Moves): the manager and referees see a league.v2 player
// like any other, with the same deadlines and technical losses.
package seat

import (
	"context"
	"crypto/subtle"
	"crypto/tls"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/leaguetui/leaguetui/agents/node"
	"github.com/leaguetui/leaguetui/agents/player"
	"github.com/leaguetui/leaguetui/agents/protocol"
	"github.com/leaguetui/leaguetui/agents/rpc"
	"github.com/leaguetui/leaguetui/agents/store"
	"github.com/leaguetui/leaguetui/agents/throttle"
	"github.com/leaguetui/leaguetui/agents/tlsconf"
	"github.com/leaguetui/leaguetui/config"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Options are what a seat host is started with.
type Options struct {
	Config     config.Config
	DataDir    string // the seats' players keep their files here, as any player
	Port       int    // the MCP endpoint's port; 0 takes a free one
	ManagerURL string
	Seats      []store.SeatCode
	// Stdout gets the ready line (node.ReadyListening and the URL); nil
	// writes nothing.
	Stdout io.Writer
}

// Host serves the seats' MCP endpoint and runs their players.
type Host struct {
	opts   Options
	seats  []*seat
	server *http.Server
	url    string
	http   *http.Client // to the manager's standings

	guesses *throttle.Guesses // wrong join codes by source: take_seat's guesses are bounded

	mu        sync.Mutex
	bySession map[string]*seat // MCP session id -> the seat it took
}

// seat is one MCP-client seat: its code, the moves asked of it, and its
// player once a client first took it.
type seat struct {
	name, code string
	turns      *turns

	taking  sync.Mutex // one registration at a time
	player  *player.Player
	session string // the MCP session that holds it now (under Host.mu)
}

// Bounds on what a client may cost the host.
const (
	requestBytes   = 64 << 10         // an MCP request body; a larger one is refused (413)
	standingsBytes = 8 << 20          // the manager's standings document
	sessionIdle    = 10 * time.Minute // a session that sends nothing this long is closed (its seat is kept)
)

// New prepares a host for the seats; nothing listens until Start.
func New(opts Options) (*Host, error) {
	if len(opts.Seats) == 0 {
		return nil, errors.New("a seat host needs one seat or more")
	}
	h := &Host{opts: opts, bySession: map[string]*seat{}, guesses: throttle.New(throttle.Options{}),
		http: &http.Client{Timeout: 10 * time.Second, Transport: &http.Transport{TLSClientConfig: tlsconf.Client()}}}
	names := map[string]bool{}
	for _, s := range opts.Seats {
		key := strings.ToLower(s.Name)
		if names[key] {
			return nil, fmt.Errorf("seat %q is listed twice", s.Name)
		}
		names[key] = true
		store.Redact(s.JoinCode)
		h.seats = append(h.seats, &seat{name: s.Name, code: s.JoinCode, turns: newTurns()})
	}
	return h, nil
}

// Start listens on the MCP endpoint and serves it in the background,
// then brings back the seats taken before (reseat) and prints the ready
// line.
func (h *Host) Start(ctx context.Context) error {
	ln, err := h.listen()
	if err != nil {
		return err
	}
	sdk := mcp.NewServer(&mcp.Implementation{Name: "leaguetui-seats", Title: "leaguetui MCP-client seats",
		Version: protocol.ProtocolVersion}, &mcp.ServerOptions{Instructions: instructions})
	h.addTools(sdk)
	handler := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return sdk },
		&mcp.StreamableHTTPOptions{JSONResponse: true, SessionTimeout: sessionIdle, MaxRequestBodyBytes: requestBytes})
	mux := http.NewServeMux()
	mux.Handle("/mcp", withSource(handler))
	// No write deadline: a wait_for_turn holds its request up to MaxWait.
	h.server = rpc.NewHTTPServer(mux, 0, nil)
	go func() { _ = h.server.Serve(ln) }()
	h.reseat(ctx)
	if h.opts.Stdout != nil {
		fmt.Fprintln(h.opts.Stdout, node.ReadyListening+h.url) // every agent's ready line: a launcher reads it the same way
	}
	return nil
}

// listen opens the endpoint's port, with TLS when the league serves its
// agents with a certificate (--tls-cert), and sets its URL.
func (h *Host) listen() (net.Listener, error) {
	serverTLS, err := tlsconf.Server(h.opts.Config.Network.TLSCert, h.opts.Config.Network.TLSKey)
	if err != nil {
		return nil, err
	}
	addr := net.JoinHostPort(h.opts.Config.Network.Host, strconv.Itoa(h.opts.Port))
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("cannot listen on %s (is port %d in use? --port 0 takes a free one): %w", addr, h.opts.Port, err)
	}
	scheme := "http"
	if serverTLS != nil {
		ln, scheme = tls.NewListener(ln, serverTLS), "https"
	}
	h.url = scheme + "://" + rpc.LocalAddr(ln.Addr().String()) + "/mcp"
	return ln, nil
}

// reseat brings back the player of every seat a client took before this
// host started (its credentials are saved: the host was restarted, the
// league resumed), registering again as itself before the host says it is
// ready, so that a resumed league reaches it at once; its client comes
// back with its code and finds its moves waiting. A seat that cannot
// register now does so when its client takes it.
func (h *Host) reseat(ctx context.Context) {
	layout, err := store.NewLayout(h.opts.DataDir, h.opts.Config.LeagueID)
	if err != nil {
		return
	}
	var registering sync.WaitGroup
	for _, s := range h.seats {
		path, err := layout.Credentials(s.name)
		if err != nil {
			continue
		}
		if _, taken, _ := store.LoadCredentials(path); taken {
			registering.Go(func() { _ = h.seatPlayer(ctx, s) })
		}
	}
	registering.Wait()
}

// URL is the seats' MCP endpoint, once started.
func (h *Host) URL() string { return h.url }

// Shutdown stops serving, then stops every seat's player (which writes
// its history).
func (h *Host) Shutdown(ctx context.Context) error {
	for _, s := range h.seats {
		s.turns.close() // a client's wait in flight returns now, not when the server's grace is over
	}
	var errs []error
	if h.server != nil {
		errs = append(errs, h.server.Shutdown(ctx))
	}
	var stopping sync.WaitGroup
	for _, s := range h.seats {
		s.taking.Lock()
		p := s.player
		s.taking.Unlock()
		if p != nil {
			stopping.Go(func() { _ = p.Shutdown(ctx) })
		}
	}
	stopping.Wait()
	return errors.Join(errs...)
}

// sourceHeader carries, from withSource to the tools, the address a
// request came from: the tools see the request's header and nothing else.
const sourceHeader = "League-Seat-Source"

// withSource sets each request's sourceHeader to its remote address,
// whatever the client sent in it.
func withSource(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		r.Header.Set(sourceHeader, throttle.Source(r.RemoteAddr))
		next.ServeHTTP(w, r)
	})
}

// take binds session to the seat whose join code is code, registering
// its player on the first take. A client that comes back in a new session
// takes the same seat: the old session loses it. A source (withSource)
// that gave too many wrong codes of late is refused for a while
// (agents/throttle), whatever its code, and a wrong one makes the wait
// longer.
func (h *Host) take(ctx context.Context, session, source, code string) (*seat, error) {
	s := h.seatWithCode(code)
	if wait := h.guesses.LockedOut(source); wait > 0 {
		if s == nil {
			wait = h.guesses.Wrong(source)
		}
		return nil, fmt.Errorf("too many wrong join codes from your address: try again in %s", wait.Round(time.Second))
	}
	if s == nil {
		h.guesses.Wrong(source)
		return nil, errors.New("no seat has this join code: check it with the league's organiser")
	}
	if err := h.seatPlayer(ctx, s); err != nil {
		return nil, err
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	if held := h.bySession[session]; held != nil && held != s {
		return nil, fmt.Errorf("this session already holds seat %s: open another MCP session for another seat", held.name)
	}
	if s.session != "" {
		delete(h.bySession, s.session)
	}
	s.session = session
	h.bySession[session] = s
	return s, nil
}

// seatWithCode is the seat of code, comparing it with every seat's in
// constant time.
func (h *Host) seatWithCode(code string) *seat {
	var found *seat
	for _, s := range h.seats {
		if subtle.ConstantTimeCompare([]byte(s.code), []byte(code)) == 1 {
			found = s
		}
	}
	return found
}

// seatPlayer starts and registers the seat's player if no client took
// the seat before.
func (h *Host) seatPlayer(ctx context.Context, s *seat) error {
	s.taking.Lock()
	defer s.taking.Unlock()
	if s.player != nil {
		return nil
	}
	p, err := player.New(player.Options{Config: h.opts.Config, DataDir: h.opts.DataDir, ManagerURL: h.opts.ManagerURL,
		Name: s.name, JoinCode: s.code, Moves: s.turns})
	if err != nil {
		return err
	}
	p.Stdout = io.Discard // the host's own output is its ready line
	if err := p.Start(ctx); err != nil {
		shut, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		_ = p.Shutdown(shut)
		return fmt.Errorf("the seat could not register with the league: %w", err)
	}
	p.Log.Info("seat taken", "event_type", "SEAT_TAKEN", "seat", s.name)
	s.player = p
	return nil
}

// seatOf is the seat session holds, nil for none.
func (h *Host) seatOf(session string) *seat {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.bySession[session]
}

// standings is the manager's standings (GET /standings), as the tool
// shows them.
func (h *Host) standings(ctx context.Context) (StandingsOut, error) {
	base := strings.TrimSuffix(strings.TrimSuffix(h.opts.ManagerURL, "/"), "/mcp")
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, base+"/standings", nil)
	if err != nil {
		return StandingsOut{}, err
	}
	resp, err := h.http.Do(req)
	if err != nil {
		return StandingsOut{}, fmt.Errorf("the league's manager did not answer: %w", err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return StandingsOut{}, fmt.Errorf("the league's manager answered HTTP %d", resp.StatusCode)
	}
	var doc protocol.StandingsFile
	if err := json.NewDecoder(io.LimitReader(resp.Body, standingsBytes)).Decode(&doc); err != nil {
		return StandingsOut{}, fmt.Errorf("the league's standings cannot be read: %w", err)
	}
	out := StandingsOut{State: string(doc.State), RoundsCompleted: doc.RoundsCompleted, RoundsTotal: doc.RoundsTotal,
		MatchesDone: doc.MatchesDone, MatchesTotal: doc.MatchesTotal, Standings: doc.Standings}
	if out.Standings == nil {
		out.Standings = []protocol.StandingRow{}
	}
	return out, nil
}
