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
	"strconv"
	"strings"
	"time"

	"github.com/leaguetui/leaguetui/agents/control"
	"github.com/leaguetui/leaguetui/engine"
)

//go:embed static
var static embed.FS

// Server is the web view of one manager.
type Server struct {
	ctl *control.Client
	// Wait is how long one poll of the manager's feed waits for an event;
	// a comment keeps the stream alive meanwhile.
	Wait time.Duration
	// Retry is how long the stream waits before asking a manager that did
	// not answer again (one restarting), and what it tells the browser.
	Retry time.Duration
}

// New is the web view of the manager at managerURL. It reads with no
// admin token.
func New(managerURL string) *Server {
	return &Server{ctl: control.New(managerURL, ""), Wait: 20 * time.Second, Retry: time.Second}
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

// Start serves the view in the background and returns its URL.
func (s *Server) Start(ctx context.Context, addr string) (string, error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return "", fmt.Errorf("web view: %w", err)
	}
	srv := &http.Server{Handler: s.Handler(), ReadHeaderTimeout: 10 * time.Second}
	go func() {
		<-ctx.Done()
		_ = srv.Close()
	}()
	go func() { _ = srv.Serve(ln) }()
	return "http://" + ln.Addr().String() + "/", nil
}

// serveStream relays the manager's feed as server-sent events from the
// cursor the browser gives (Last-Event-ID when it reconnects, or ?after=):
// each event's id is its sequence number, which names the same event
// before and after any restart of the manager, so a page that reconnects
// misses nothing and sees nothing twice. A manager that does not answer
// (restarting) is asked again after Retry, and the page is told so.
func (s *Server) serveStream(w http.ResponseWriter, r *http.Request) {
	flusher, ok := w.(http.Flusher)
	if !ok {
		http.Error(w, "streaming unsupported", http.StatusInternalServerError)
		return
	}
	cursor := cursorOf(r)
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-store")
	fmt.Fprintf(w, "retry: %d\n\n", s.Retry.Milliseconds())
	flusher.Flush()
	ctx := r.Context()
	down := false
	for ctx.Err() == nil {
		page, err := s.ctl.Events(ctx, cursor, s.Wait)
		if err != nil {
			if ctx.Err() != nil {
				return
			}
			if !down {
				writeEvent(w, "manager", "", map[string]any{"up": false, "error": err.Error()})
				flusher.Flush()
			}
			down = true
			select {
			case <-time.After(s.Retry):
			case <-ctx.Done():
			}
			continue
		}
		if down {
			writeEvent(w, "manager", "", map[string]any{"up": true})
			down = false
		}
		for _, ev := range page.Events {
			writeEvent(w, "", strconv.FormatInt(ev.Seq, 10), ev)
		}
		cursor = max(cursor, page.LastSeq)
		writeEvent(w, "state", "", map[string]any{"state": page.State, "last_seq": page.LastSeq,
			"storage_failure": page.StorageFailure})
		flusher.Flush()
	}
}

// cursorOf is where the browser's stream resumes.
func cursorOf(r *http.Request) int64 {
	for _, v := range []string{r.Header.Get("Last-Event-ID"), r.URL.Query().Get("after")} {
		if n, err := strconv.ParseInt(v, 10, 64); err == nil && n >= 0 {
			return n
		}
	}
	return 0
}

// writeEvent writes one server-sent event; data is JSON on one line.
func writeEvent(w http.ResponseWriter, name, id string, data any) {
	raw, err := json.Marshal(data)
	if err != nil {
		return
	}
	var b strings.Builder
	if name != "" {
		b.WriteString("event: " + name + "\n")
	}
	if id != "" {
		b.WriteString("id: " + id + "\n")
	}
	b.WriteString("data: ")
	b.Write(raw)
	b.WriteString("\n\n")
	_, _ = w.Write([]byte(b.String()))
}

// serveStandings relays the manager's durable standings.
func (s *Server) serveStandings(w http.ResponseWriter, r *http.Request) {
	doc, err := s.ctl.Standings(r.Context())
	if err != nil {
		http.Error(w, "the manager does not answer", http.StatusBadGateway)
		return
	}
	writeJSON(w, doc)
}

// serveMatch relays a match's file, for its transcript once it is over.
func (s *Server) serveMatch(w http.ResponseWriter, r *http.Request) {
	raw, err := s.ctl.MatchFile(r.Context(), r.PathValue("id"))
	switch {
	case errors.Is(err, control.ErrNoMatchFile):
		http.Error(w, "no match file yet", http.StatusNotFound)
		return
	case err != nil:
		http.Error(w, "the manager does not answer", http.StatusBadGateway)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	_, _ = w.Write(raw)
}

// Pairing is one scheduled match, as GET /schedule lists them.
type Pairing struct {
	MatchID string `json:"match_id"`
	Round   int    `json:"round"`
	PlayerA string `json:"player_a"`
	PlayerB string `json:"player_b"`
}

// maxSchedulePages bounds how far serveSchedule reads the feed for the
// league's start: it follows the registrations, in the first pages.
const maxSchedulePages = 20

// serveSchedule lists the league's matches with their players, so that
// the page can name who plays a running match (match_assigned names only
// the match). The schedule is the one league_started fixes, made again
// from it as the manager makes it (engine.StartInfo.Schedule), and each
// round_scheduled's; an empty list before the league starts.
func (s *Server) serveSchedule(w http.ResponseWriter, r *http.Request) {
	var out []Pairing
	add := func(rounds ...engine.Round) {
		for _, round := range rounds {
			for _, p := range round.Matches {
				out = append(out, Pairing{MatchID: p.MatchID, Round: p.Round, PlayerA: p.PlayerA, PlayerB: p.PlayerB})
			}
		}
	}
	var cursor int64
	for range maxSchedulePages {
		page, err := s.ctl.Events(r.Context(), cursor, 0)
		if err != nil {
			http.Error(w, "the manager does not answer", http.StatusBadGateway)
			return
		}
		for _, ev := range page.Events {
			switch {
			case ev.Kind == engine.EventLeagueStarted && ev.Start != nil:
				rounds, err := ev.Start.Schedule()
				if err == nil {
					add(rounds...)
				}
			case ev.Kind == engine.EventRoundScheduled && ev.Schedule != nil:
				add(*ev.Schedule)
			}
		}
		if len(page.Events) == 0 || page.LastSeq <= cursor {
			break
		}
		cursor = page.LastSeq
	}
	writeJSON(w, out)
}

func writeJSON(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	_ = json.NewEncoder(w).Encode(v)
}
