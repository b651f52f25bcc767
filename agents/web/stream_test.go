package web_test

import (
	"bufio"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/leaguetui/leaguetui/agents/protocol"
	"github.com/leaguetui/leaguetui/agents/web"
	"github.com/leaguetui/leaguetui/engine"
)

// A manager that goes down and comes back (a restart on its journal):
// the stream says so, goes on after the last event it relayed, and a
// browser reconnecting with Last-Event-ID gets only what follows.
func TestStreamAcrossAManagerRestart(t *testing.T) {
	var down atomic.Bool
	var asked atomic.Int64
	const last = 5
	mgr := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/events" {
			http.NotFound(w, r)
			return
		}
		after, _ := strconv.ParseInt(r.URL.Query().Get("after"), 10, 64)
		asked.Add(1)
		if down.Load() {
			http.Error(w, "restarting", http.StatusServiceUnavailable)
			return
		}
		page := protocol.FeedPage{LastSeq: after, State: engine.LeagueRunning}
		if after < last { // one event a page, so the restart falls between two
			page.Events = []engine.Event{{Seq: after + 1, Kind: engine.EventMatchStep, MatchID: "R1M1", Step: "turn"}}
			page.LastSeq = after + 1
		} else {
			time.Sleep(20 * time.Millisecond) // a long poll with nothing new
		}
		if after == 2 {
			down.Store(true) // goes down after serving event 3
		}
		_ = json.NewEncoder(w).Encode(page)
	}))
	defer mgr.Close()
	view := web.New(mgr.URL)
	view.Wait, view.Retry = 50*time.Millisecond, 50*time.Millisecond
	srv := httptest.NewServer(view.Handler())
	defer srv.Close()

	ids, names := readStream(t, srv.URL+"/stream", "", func(ids []string, names []string) bool {
		if strings.Join(names, ",") == "manager" { // down: bring it back
			down.Store(false)
		}
		return len(ids) == last
	})
	if strings.Join(ids, ",") != "1,2,3,4,5" {
		t.Errorf("event ids %v, want 1 to 5 once each", ids)
	}
	if !strings.Contains(strings.Join(names, ","), "manager,manager") {
		t.Errorf("the stream did not say the manager went down and came back: %v", names)
	}
	ids, _ = readStream(t, srv.URL+"/stream", "3", func(ids []string, _ []string) bool { return len(ids) == 2 })
	if strings.Join(ids, ",") != "4,5" {
		t.Errorf("resumed after 3: ids %v, want 4,5", ids)
	}
}

// readStream reads server-sent events until done says so (bounded), and
// returns the events' ids and the names of named events, in order.
func readStream(t *testing.T, url, lastID string, done func(ids, names []string) bool) (ids, names []string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if lastID != "" {
		req.Header.Set("Last-Event-ID", lastID)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if ct := resp.Header.Get("Content-Type"); ct != "text/event-stream" {
		t.Fatalf("Content-Type %q", ct)
	}
	sc := bufio.NewScanner(resp.Body)
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "id: "):
			ids = append(ids, strings.TrimPrefix(line, "id: "))
		case strings.HasPrefix(line, "event: ") && line != "event: state":
			names = append(names, strings.TrimPrefix(line, "event: "))
		case line == "" && done(ids, names):
			return ids, names
		}
	}
	t.Fatalf("the stream ended (%v) with ids %v, names %v", sc.Err(), ids, names)
	return nil, nil
}
