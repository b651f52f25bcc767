// Package web is the live web view for spectators: one page (HTML, CSS
// and script embedded in the binary, no build step, nothing fetched from
// elsewhere) that follows a league through server-sent events fed by the
// manager's journaled feed, so it shows only durable facts.
//
// It is read-only by construction: its client of the manager has no admin
// token, it serves no control, and the events it relays are the feed's,
// which carry no token nor token hash. Every string reaches the page's
// document as text (textContent), never as markup.
package web

import (
	"context"
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"net"
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	"golang.org/x/sync/singleflight"

	"github.com/leaguetui/leaguetui/league/control"
)

//go:embed static
var static embed.FS

// Server is the web view of one manager.
type Server struct {
	ctl *control.Client
	// Wait is how long one poll of the manager's feed waits for an event;
	// a comment keeps each stream alive meanwhile.
	Wait time.Duration
	// Retry is how long the feed waits before asking a manager that did
	// not answer again (one restarting), and what it tells the browser.
	Retry time.Duration
	// MaxClients is how many streams the view serves at once; one more is
	// refused (503, Retry-After).
	MaxClients int
	// WriteTimeout bounds each write to a stream: a spectator that does
	// not read for that long is dropped, so it holds no memory and no
	// goroutine of the view's for longer.
	WriteTimeout time.Duration
	// Batch is the least time between two writes to one stream: events
	// that come meanwhile go in one write, so a busy league costs each
	// stream a few writes a second however many events it has.
	Batch time.Duration
	// HistoryBytes bounds the events the view keeps for streams that
	// start or resume; a stream resuming before them reads them from the
	// manager.
	HistoryBytes int
	// CacheFor is how long a document read from the manager (the
	// standings) answers every request, unless the feed has moved on.
	CacheFor time.Duration

	clients   atomic.Int64
	feedOnce  sync.Once
	feed      *feed
	life      context.Context
	stop      context.CancelFunc
	standings docCache
	fetches   singleflight.Group

	// The streams open now, for Finish to wait on.
	openMu   sync.Mutex
	open     int
	drained  chan struct{} // closed when open comes to 0, while Finish waits
	finished chan struct{} // closed by Finish once the final standings are there
	finish   sync.Once
}

// The view's defaults; docs/web.md and docs/limits.md list them.
const (
	DefaultMaxClients   = 1000
	DefaultWriteTimeout = 10 * time.Second
	DefaultBatch        = 500 * time.Millisecond
	DefaultHistoryBytes = 32 << 20
	DefaultCacheFor     = time.Second
	// retryAfter is what a spectator refused for the cap is told (seconds).
	retryAfter = "10"
)

// New is the web view of the manager at managerURL. It reads with no
// admin token.
func New(managerURL string) *Server {
	life, stop := context.WithCancel(context.Background())
	return &Server{ctl: control.New(managerURL, ""), Wait: 20 * time.Second, Retry: time.Second,
		MaxClients: DefaultMaxClients, WriteTimeout: DefaultWriteTimeout, Batch: DefaultBatch,
		HistoryBytes: DefaultHistoryBytes, CacheFor: DefaultCacheFor, life: life, stop: stop, finished: make(chan struct{})}
}

// Handler serves the page, its stream and the documents it reads.
func (s *Server) Handler() http.Handler {
	mux := http.NewServeMux()
	files, _ := fs.Sub(static, "static")
	mux.Handle("GET /", http.FileServerFS(files))
	mux.HandleFunc("GET /stream", s.serveStream)
	mux.HandleFunc("GET /standings", s.serveStandings)
	mux.HandleFunc("GET /matches/{id}", s.serveMatch)
	mux.HandleFunc("GET /schedule", s.serveSchedule)
	return secured(mux)
}

// secured adds the headers that keep the page to itself: no script, style
// or connection but its own, no framing, no sniffing.
func secured(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Security-Policy", "default-src 'self'; img-src 'self' data:; frame-ancestors 'none'; base-uri 'none'; form-action 'none'")
		w.Header().Set("X-Content-Type-Options", "nosniff")
		w.Header().Set("Referrer-Policy", "no-referrer")
		h.ServeHTTP(w, r)
	})
}

// Start serves the view in the background and returns its URL; it stops,
// feed included, when ctx ends.
func (s *Server) Start(ctx context.Context, addr string) (string, error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return "", fmt.Errorf("web view: %w", err)
	}
	srv := &http.Server{Handler: s.Handler(), ReadHeaderTimeout: 10 * time.Second, IdleTimeout: time.Minute}
	go func() {
		<-ctx.Done()
		s.Close()
		_ = srv.Close()
	}()
	go func() { _ = srv.Serve(ln) }()
	return "http://" + ln.Addr().String() + "/", nil
}

// Close stops the view's reading of the manager's feed.
func (s *Server) Close() { s.stop() }

// shared is the view's one reader of the manager's feed, started at the
// first request that needs it.
func (s *Server) shared() *feed {
	s.feedOnce.Do(func() {
		s.feed = newFeed(s.ctl, s.Wait, s.Retry, s.HistoryBytes)
		go s.feed.run(s.life)
	})
	return s.feed
}

// FeedPolls is how many pages the view has asked of the manager's feed,
// for all its streams together.
func (s *Server) FeedPolls() int {
	f := s.shared()
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.polls
}

// serveStandings relays the manager's durable standings. One read of the
// manager answers every request until the feed moves on or CacheFor
// passes, and requests that come while it is read wait for it: a crowd of
// spectators costs the manager one read.
func (s *Server) serveStandings(w http.ResponseWriter, r *http.Request) {
	raw, err := s.standings.get(r.Context(), s.shared(), s.CacheFor, &s.fetches, func(ctx context.Context) ([]byte, error) {
		doc, err := s.ctl.Standings(ctx)
		if err != nil {
			return nil, err
		}
		return json.Marshal(doc)
	})
	if err != nil {
		http.Error(w, "the manager does not answer", http.StatusBadGateway)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	_, _ = w.Write(raw)
}

// serveMatch relays a match's file, for its transcript once it is over;
// requests for the same match while it is read share the read.
func (s *Server) serveMatch(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	v, err, _ := s.fetches.Do("match/"+id, func() (any, error) {
		ctx, cancel := context.WithTimeout(s.life, fetchTimeout)
		defer cancel()
		return s.ctl.MatchFile(ctx, id)
	})
	switch {
	case errors.Is(err, control.ErrNoMatchFile):
		http.Error(w, "no match file yet", http.StatusNotFound)
		return
	case err != nil:
		http.Error(w, "the manager does not answer", http.StatusBadGateway)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	_, _ = w.Write(v.([]byte))
}

// Pairing is one scheduled match, as GET /schedule lists them.
type Pairing struct {
	MatchID string `json:"match_id"`
	Round   int    `json:"round"`
	PlayerA string `json:"player_a"`
	PlayerB string `json:"player_b"`
}

// serveSchedule lists the league's matches with their players, so that
// the page can name who plays a running match (match_assigned names only
// the match): the schedule the view's feed has read (league_started's and
// each round_scheduled's), an empty list before the league starts. It
// costs the manager nothing: the feed reads the events anyway.
func (s *Server) serveSchedule(w http.ResponseWriter, r *http.Request) {
	f := s.shared()
	ctx, cancel := context.WithTimeout(r.Context(), fetchTimeout)
	defer cancel()
	if !f.caughtUp(ctx) {
		http.Error(w, "the manager does not answer", http.StatusBadGateway)
		return
	}
	writeJSON(w, f.pairings())
}

// fetchTimeout bounds a read of the manager that requests share.
const fetchTimeout = 30 * time.Second

func writeJSON(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	_ = json.NewEncoder(w).Encode(v)
}
