package web_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/leaguetui/leaguetui/agents/protocol"
	"github.com/leaguetui/leaguetui/engine"
	"github.com/leaguetui/leaguetui/league/web"
)

// growingFeed is a manager's feed that gains an event every tick up to
// last, each with detail bytes of text, and counts the pages asked of it
// and how many were asked at once at most.
type growingFeed struct {
	last     int64
	detail   string
	started  time.Time
	tick     time.Duration
	inFlight atomic.Int64
	most     atomic.Int64
	asked    atomic.Int64
	standing atomic.Int64 // GET /standings asked
	atOnce   atomic.Int64 // pages asked with no wait: a reader catching up
}

func (g *growingFeed) available() int64 {
	return min(g.last, int64(time.Since(g.started)/g.tick)+1)
}

func (g *growingFeed) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	switch r.URL.Path {
	case "/standings":
		g.standing.Add(1)
		time.Sleep(20 * time.Millisecond) // a read that takes a while, so requests overlap
		_ = json.NewEncoder(w).Encode(protocol.StandingsFile{LeagueID: "crowd", MatchesDone: int(g.available())})
		return
	case "/events":
	default:
		http.NotFound(w, r)
		return
	}
	n := g.inFlight.Add(1)
	defer g.inFlight.Add(-1)
	for m := g.most.Load(); n > m && !g.most.CompareAndSwap(m, n); m = g.most.Load() {
	}
	g.asked.Add(1)
	after, _ := strconv.ParseInt(r.URL.Query().Get("after"), 10, 64)
	wait, _ := time.ParseDuration(r.URL.Query().Get("wait"))
	if wait == 0 {
		g.atOnce.Add(1)
	}
	deadline := time.Now().Add(wait)
	for g.available() <= after && time.Now().Before(deadline) && r.Context().Err() == nil {
		time.Sleep(time.Millisecond) // a long poll with nothing new yet
	}
	page := protocol.FeedPage{LastSeq: after, State: engine.LeagueRunning}
	for seq := after + 1; seq <= g.available() && len(page.Events) < 50; seq++ {
		page.Events = append(page.Events, engine.Event{Seq: seq, Kind: engine.EventMatchStep, MatchID: "R1M1", Step: "turn", Detail: g.detail})
		page.LastSeq = seq
	}
	if page.LastSeq == g.last {
		page.State = engine.LeagueCompleted
	}
	_ = json.NewEncoder(w).Encode(page)
}

// startView serves a web view of feed and returns it and its URL.
func startView(t *testing.T, feed *growingFeed, tune func(*web.Server)) (*web.Server, string) {
	t.Helper()
	feed.started = time.Now()
	mgr := httptest.NewServer(feed)
	t.Cleanup(mgr.Close)
	view := web.New(mgr.URL)
	view.Wait, view.Retry, view.Batch = 200*time.Millisecond, 50*time.Millisecond, 10*time.Millisecond
	if tune != nil {
		tune(view)
	}
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	url, err := view.Start(ctx, "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	return view, url
}

// Two hundred spectators at once cost the manager one feed, not two
// hundred: never more than one poll of its feed at a time, and about as
// many pages as one spectator would cost; each spectator still gets
// every event once and in order, and state completed.
func TestOneFeedForEverySpectator(t *testing.T) {
	const clients, last = 200, 300
	feed := &growingFeed{last: last, tick: 2 * time.Millisecond}
	view, url := startView(t, feed, nil)
	var wg sync.WaitGroup
	errs := make(chan error, clients)
	for range clients {
		wg.Go(func() { errs <- readAll(url+"stream", last) })
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	t.Logf("%d spectators: %d pages asked of the manager's feed (%d counted by the view), at most %d at once",
		clients, feed.asked.Load(), view.FeedPolls(), feed.most.Load())
	if most := feed.most.Load(); most != 1 {
		t.Errorf("%d polls of the manager's feed at once, want 1 whatever the spectators", most)
	}
	if asked := feed.asked.Load(); asked > last+20 {
		t.Errorf("%d pages asked for %d events: more than one reader's", asked, last)
	}
}

// readAll reads a stream until state completed and checks it had events
// 1 to last, each once and in order.
func readAll(url string, last int) error {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(nil, 1<<20)
	next := 1
	for sc.Scan() {
		line := sc.Text()
		if id, ok := strings.CutPrefix(line, "id: "); ok {
			if id != strconv.Itoa(next) {
				return fmt.Errorf("event %s after %d", id, next-1)
			}
			next++
		}
		if strings.HasPrefix(line, "data: ") && strings.Contains(line, `"state":"completed"`) {
			if next != last+1 {
				return fmt.Errorf("completed after %d events, want %d", next-1, last)
			}
			return nil
		}
	}
	return fmt.Errorf("the stream ended (%v) after %d events", sc.Err(), next-1)
}

// The view serves at most MaxClients streams: one more is refused with
// 503 and Retry-After. A spectator that stops reading is dropped once a
// write to it waits past WriteTimeout, which frees its place: a
// newcomer is then let in, while a spectator that reads keeps its own.
func TestSpectatorsCappedAndNonReadersDropped(t *testing.T) {
	// 400 events of 64 KiB: far more than the socket buffers between a
	// spectator that does not read and the view hold.
	feed := &growingFeed{last: 400, tick: time.Microsecond, detail: strings.Repeat("x", 64<<10)}
	_, url := startView(t, feed, func(v *web.Server) { v.MaxClients, v.WriteTimeout = 2, 300*time.Millisecond })
	host := strings.TrimSuffix(strings.TrimPrefix(url, "http://"), "/")

	stalled := dialStalled(t, host) // asks for the stream, never reads
	reading, in := make(chan error, 1), make(chan struct{})
	readerCtx, stopReader := context.WithCancel(context.Background())
	defer stopReader()
	go func() { reading <- readForever(readerCtx, url+"stream", in) }()
	select {
	case <-in:
	case err := <-reading:
		t.Fatalf("the reading spectator was not let in: %v", err)
	}

	// Both places taken: one more is refused, with Retry-After.
	admitted := false
	deadline := time.Now().Add(30 * time.Second)
	refusedOnce := false
	for time.Now().Before(deadline) && !admitted {
		resp, err := http.Get(url + "stream")
		if err != nil {
			t.Fatal(err)
		}
		switch resp.StatusCode {
		case http.StatusServiceUnavailable:
			if resp.Header.Get("Retry-After") == "" {
				t.Fatalf("503 without Retry-After")
			}
			refusedOnce = true
		case http.StatusOK:
			admitted = refusedOnce // before the first refusal the reader may not be in yet
		}
		resp.Body.Close()
		if !admitted {
			time.Sleep(50 * time.Millisecond) // a retry interval, as Retry-After asks
		}
	}
	if !refusedOnce || !admitted {
		t.Fatalf("refused with Retry-After: %v; let in once the non-reader was dropped: %v", refusedOnce, admitted)
	}
	// The non-reader's connection was closed by the view: reading it now
	// drains what was buffered, then ends.
	_ = stalled.SetReadDeadline(time.Now().Add(20 * time.Second))
	if _, err := io.Copy(io.Discard, stalled); err != nil {
		t.Errorf("the non-reading spectator's connection was not closed: %v", err)
	}
	select {
	case err := <-reading:
		t.Errorf("the reading spectator was dropped too: %v", err)
	default:
	}
}

// dialStalled opens a stream with a small receive buffer and never reads.
func dialStalled(t *testing.T, host string) net.Conn {
	t.Helper()
	d := net.Dialer{Control: func(_, _ string, c syscall.RawConn) error {
		var serr error
		err := c.Control(func(fd uintptr) { serr = smallReceiveBuffer(fd) })
		if err != nil {
			return err
		}
		return serr
	}}
	conn, err := d.Dial("tcp", host)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	if _, err := fmt.Fprintf(conn, "GET /stream HTTP/1.1\r\nHost: %s\r\n\r\n", host); err != nil {
		t.Fatal(err)
	}
	return conn
}

// readForever reads a stream until ctx ends; an end before is an error.
// in is closed once it is let in.
func readForever(ctx context.Context, url string, in chan<- struct{}) error {
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("HTTP %d", resp.StatusCode)
	}
	close(in)
	_, err = io.Copy(io.Discard, resp.Body)
	if ctx.Err() != nil {
		return nil
	}
	return fmt.Errorf("the stream ended: %v", err)
}

// Three hundred requests for the standings at once are one read of the
// manager's, and so is a crowd asking for the schedule, which the view
// makes from the feed it reads anyway.
func TestDocumentsReadOnceForACrowd(t *testing.T) {
	feed := &growingFeed{last: 5, tick: time.Millisecond}
	_, url := startView(t, feed, nil)
	before := feed.asked.Load()
	var wg sync.WaitGroup
	var failed atomic.Int64
	for range 300 {
		for _, doc := range []string{"standings", "schedule"} {
			wg.Go(func() {
				resp, err := http.Get(url + doc)
				if err != nil || resp.StatusCode != http.StatusOK {
					failed.Add(1)
					return
				}
				resp.Body.Close()
			})
		}
	}
	wg.Wait()
	if n := failed.Load(); n > 0 {
		t.Fatalf("%d of 600 requests failed", n)
	}
	t.Logf("300 standings and 300 schedule requests: %d standings reads, %d feed pages", feed.standing.Load(), feed.asked.Load()-before)
	if n := feed.standing.Load(); n > 10 {
		t.Errorf("%d reads of the manager's standings for 300 requests at once", n)
	}
}

// A stream that starts before the events the view still keeps (its
// history bounded to a few kilobytes here) reads the older ones from the
// manager, then goes on from the view's memory: every event once, in
// order.
func TestStreamFromBeforeTheViewsHistory(t *testing.T) {
	const last = 60
	feed := &growingFeed{last: last, tick: time.Microsecond, detail: strings.Repeat("d", 200)}
	view, url := startView(t, feed, func(v *web.Server) { v.HistoryBytes = 2 << 10 })
	deadline := time.Now().Add(20 * time.Second)
	for view.FeedPolls() < 4 && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond) // polling for the feed to have read every event and wait for more, bounded
	}
	before := feed.atOnce.Load()
	if err := readAll(url+"stream", last); err != nil {
		t.Fatal(err)
	}
	if feed.atOnce.Load() == before {
		t.Error("the stream read nothing from the manager: the view kept every event, so nothing was tested")
	}
}
