package web_test

import (
	"bufio"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/leaguetui/leaguetui/agents/protocol"
	"github.com/leaguetui/leaguetui/config"
	"github.com/leaguetui/leaguetui/engine"
	"github.com/leaguetui/leaguetui/internal/leaguetest"
	"github.com/leaguetui/leaguetui/league/control"
	"github.com/leaguetui/leaguetui/league/web"
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

// The same across a real restart: the manager of a league of real
// processes is killed (SIGKILL) while it runs and started again on its
// data folder at its port, as a supervisor would. The stream says the
// manager went down and came back, and relays every event of the journal
// once and in order, the restart's own included, to league_completed.
func TestStreamAcrossARealManagerRestart(t *testing.T) {
	dir := t.TempDir()
	mgr := leaguetest.StartManager(t, dir, adminToken, "--seed", "6")
	leaguetest.StartReferee(t, dir, mgr.Endpoint, "REF01")
	leaguetest.StartPlayer(t, dir, mgr.Endpoint, "random", "--strategy", "random")
	leaguetest.StartPlayer(t, dir, mgr.Endpoint, "pattern", "--strategy", "pattern")
	// Slow players, so that the league is still running when its manager dies.
	leaguetest.StartBadPlayer(t, dir, mgr.Endpoint, "slow1", "slow", "--delay", "300ms")
	leaguetest.StartBadPlayer(t, dir, mgr.Endpoint, "slow2", "slow", "--delay", "300ms")
	view := web.New(mgr.Endpoint)
	view.Wait, view.Retry = 200*time.Millisecond, 50*time.Millisecond
	srv := httptest.NewServer(view.Handler())
	defer srv.Close()
	u, err := url.Parse(mgr.Endpoint)
	if err != nil {
		t.Fatal(err)
	}
	if err := control.New(mgr.Endpoint, adminToken).Start(context.Background()); err != nil {
		t.Fatal(err)
	}

	var completed atomic.Int64 // league_completed's sequence number, once the restarted manager has it
	restarted := false
	ids, names := readStream(t, srv.URL+"/stream", "", func(ids []string, _ []string) bool {
		if !restarted && len(ids) >= 12 { // registrations, the start, the first matches under way
			restarted = true
			mgr.Kill()
			again := leaguetest.StartManager(t, dir, adminToken, "--seed", "6", "--port", u.Port())
			go waitCompleted(control.New(again.Endpoint, adminToken), &completed)
		}
		last := completed.Load()
		return last > 0 && len(ids) > 0 && ids[len(ids)-1] == strconv.FormatInt(last, 10)
	})
	for i, id := range ids {
		if id != strconv.Itoa(i+1) {
			t.Fatalf("event ids %v: want 1 to %d, each once and in order", ids, len(ids))
		}
	}
	if !strings.Contains(strings.Join(names, ","), "manager,manager") {
		t.Errorf("the stream did not say the manager went down and came back: %v", names)
	}
	kinds := journalKinds(t, dir)
	t.Logf("relayed %d events across the restart; the stream's named events: %v", len(ids), names)
	if len(kinds) != len(ids) || !slices.Contains(kinds, engine.EventRestarted) {
		t.Errorf("the stream relayed %d events; the journal holds %d (%v), manager_restarted among them", len(ids), len(kinds), kinds)
	}
}

// waitCompleted stores league_completed's sequence number in seq once the
// manager's feed has it (within a minute; the test's stream read is
// bounded too).
func waitCompleted(ctl *control.Client, seq *atomic.Int64) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	var after int64
	for ctx.Err() == nil {
		page, err := ctl.Events(ctx, after, 5*time.Second)
		if err != nil {
			time.Sleep(50 * time.Millisecond) // a retry interval: the manager may still be starting
			continue
		}
		for _, ev := range page.Events {
			if ev.Kind == engine.EventLeagueCompleted {
				seq.Store(ev.Seq)
				return
			}
		}
		after = page.LastSeq
	}
}

// journalKinds are the kinds of the events of the league's journal in dir.
func journalKinds(t *testing.T, dir string) []engine.EventKind {
	t.Helper()
	var kinds []engine.EventKind
	for _, ev := range leaguetest.Journal(t, dir, config.Default().LeagueID) {
		kinds = append(kinds, ev.Kind)
	}
	return kinds
}
