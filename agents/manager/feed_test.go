package manager

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"os"
	"testing"
	"time"

	"github.com/leaguetui/leaguetui/agents/protocol"
	"github.com/leaguetui/leaguetui/agents/store"
	"github.com/leaguetui/leaguetui/config"
	"github.com/leaguetui/leaguetui/engine"
)

// leagueEvents is a league of n events the engine accepts: two players
// register, the league starts, then its one match takes steps.
func leagueEvents(n int) []engine.Event {
	base := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	ids := []string{"P01", "P02"}
	rounds, err := engine.RoundRobin(ids)
	if err != nil {
		panic(err)
	}
	events := make([]engine.Event, n)
	for i := range events {
		ev := engine.Event{Seq: int64(i + 1), Time: base.Add(time.Duration(i) * time.Millisecond)}
		switch {
		case i < len(ids):
			ev.Kind = engine.EventAgentRegistered
			ev.Agent = &engine.AgentInfo{ID: ids[i], Role: engine.RolePlayer, Endpoint: "http://127.0.0.1:1/" + ids[i]}
		case i == len(ids):
			ev.Kind, ev.Start = engine.EventLeagueStarted, &engine.StartInfo{Players: ids, LegacyRounds: rounds}
		default:
			ev.Kind, ev.MatchID, ev.Round = engine.EventMatchStep, rounds[0].Matches[0].MatchID, 1
			ev.Step = fmt.Sprintf("drawn %d", i)
		}
		events[i] = ev
	}
	return events
}

// writeJournal journals events in the data folder as a manager would, and
// returns the file's path.
func writeJournal(t testing.TB, dataDir string, events []engine.Event) string {
	t.Helper()
	path := store.Layout{Root: dataDir, LeagueID: config.Default().LeagueID}.Journal()
	j, _, err := store.OpenJournal(path)
	if err != nil {
		t.Fatal(err)
	}
	var wait func() error
	for _, ev := range events {
		wait = j.Enqueue(ev)
	}
	if err := wait(); err != nil {
		t.Fatal(err)
	}
	if err := j.Close(); err != nil {
		t.Fatal(err)
	}
	return path
}

// newFeedManager opens a manager on dataDir keeping window events in memory.
func newFeedManager(t testing.TB, dataDir string, window int) *Manager {
	t.Helper()
	m, err := New(Options{Config: config.Default(), DataDir: dataDir, AdminToken: "adm-feed-test", feedWindow: window})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		m.closeFiles() // a resumed league's derived files are being rewritten
		m.journal.Close()
	})
	return m
}

// checkPage asks the feed for the page after a cursor and compares it with
// what it owes: the events after the cursor, dense, at most maxFeedBatch,
// and from the journal at most up to the window's start.
func checkPage(t *testing.T, m *Manager, all []engine.Event, cursor int64) {
	t.Helper()
	page, _, err := m.eventsAfter(cursor)
	if err != nil {
		t.Fatalf("after %d: %v", cursor, err)
	}
	m.mu.Lock()
	oldest, state := m.feed.oldest(m.league.LastSeq()+1), m.league.State
	m.mu.Unlock()
	end := min(cursor+maxFeedBatch, int64(len(all)))
	if cursor < oldest-1 {
		end = min(end, oldest-1)
	}
	end = max(end, cursor)
	if page.LastSeq != end || page.State != state {
		t.Fatalf("after %d: last_seq %d state %s, want %d %s", cursor, page.LastSeq, page.State, end, state)
	}
	var want []engine.Event
	if cursor < end {
		want = all[cursor:end]
	}
	if !bytes.Equal(encode(t, page.Events), encode(t, want)) {
		t.Fatalf("after %d: %d events differ from the %d journaled after it", cursor, len(page.Events), end-cursor)
	}
}

// readAll reads the whole feed page by page from 0, as the console does.
func readAll(t *testing.T, m *Manager) []engine.Event {
	t.Helper()
	var got []engine.Event
	for cursor, pages := int64(0), 0; ; pages++ {
		if pages > 100000 {
			t.Fatal("the feed never ends")
		}
		page, _, err := m.eventsAfter(cursor)
		if err != nil {
			t.Fatal(err)
		}
		if len(page.Events) == 0 {
			return got
		}
		got = append(got, page.Events...)
		cursor = page.LastSeq
	}
}

func encode(t testing.TB, events []engine.Event) []byte {
	t.Helper()
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	for _, ev := range events {
		if err := enc.Encode(ev); err != nil {
			t.Fatal(err)
		}
	}
	return buf.Bytes()
}

// TestFeedServesOldCursorsFromJournal: a resumed manager keeps only its
// window in memory, yet every cursor gets exactly the events after it.
func TestFeedServesOldCursorsFromJournal(t *testing.T) {
	const n, window = 50000, 3000
	dir := t.TempDir()
	all := leagueEvents(n)
	writeJournal(t, dir, all)
	m := newFeedManager(t, dir, window)

	if got := len(m.feed.events); got != window {
		t.Fatalf("resumed with %d events in memory, want the window's %d", got, window)
	}
	if m.league.LastSeq() != n {
		t.Fatalf("league replayed to %d, want %d", m.league.LastSeq(), n)
	}
	oldest := int64(n - window + 1)
	cursors := []int64{0, 1, 2, 1023, 1024, 1025, oldest - maxFeedBatch - 1, oldest - 2, oldest - 1, oldest, oldest + 1,
		n - maxFeedBatch, n - 1, n, n + 1, n + 1000}
	rng := rand.New(rand.NewPCG(1, 2))
	for range 100 {
		cursors = append(cursors, rng.Int64N(n+10))
	}
	for _, c := range cursors {
		checkPage(t, m, all, c)
	}
	if !bytes.Equal(encode(t, readAll(t, m)), encode(t, all)) {
		t.Fatal("the feed read page by page differs from the journal")
	}
}

// TestFeedIndexScansJournalOnce: reading the whole feed page by page reads
// the journal about once, and any later old cursor reads only from the
// nearest indexed record, never from the file's start.
func TestFeedIndexScansJournalOnce(t *testing.T) {
	const n, window = 50000, 2500
	dir := t.TempDir()
	all := leagueEvents(n)
	path := writeJournal(t, dir, all)
	m := newFeedManager(t, dir, window)
	starts := lineStarts(mustRead(t, path))
	const readAhead = 64 << 10 // the reader's buffer may run past the last line it needs

	readAll(t, m)
	fromJournal := starts[n-window] // the bytes before the window
	pages := int64((n-window)/maxFeedBatch + 1)
	if got := m.history.Scanned(); got > fromJournal+readAhead*pages {
		t.Fatalf("reading the feed once scanned %d bytes of a journal of %d before the window", got, fromJournal)
	}

	rng := rand.New(rand.NewPCG(3, 4))
	for range 80 {
		cursor := rng.Int64N(n - window)
		before := m.history.Scanned()
		checkPage(t, m, all, cursor)
		mark := cursor / store.JournalIndexEvery * store.JournalIndexEvery // index of the record it seeks to
		end := min(cursor+maxFeedBatch, n-window)
		if got, bound := m.history.Scanned()-before, starts[end]-starts[mark]+readAhead; got > bound {
			t.Fatalf("after %d: scanned %d bytes, want at most %d (from record %d)", cursor, got, bound, mark+1)
		}
	}
}

// lineStarts is the offset of each line, and the file's length last.
func lineStarts(data []byte) []int64 {
	starts := []int64{0}
	for i, c := range data {
		if c == '\n' {
			starts = append(starts, int64(i+1))
		}
	}
	return starts
}

// TestFeedWindowKeepsUnwrittenEvents: a live manager with a tiny window
// forgets only events the journal has committed, so a reader finds every
// event, in memory or in the file, even while the writer lags; a restart
// keeps the window only and reads the rest from the file.
func TestFeedWindowKeepsUnwrittenEvents(t *testing.T) {
	const window = 4
	dir := t.TempDir()
	m := newFeedManager(t, dir, window)
	all := leagueEvents(1201)
	for _, burst := range [][]engine.Event{all[:3], all[3:10], all[10:500], all[500:1200]} {
		// journaled, with a look at the feed between the staging and the wait.
		b := &batch{m: m}
		m.mu.Lock()
		for _, ev := range burst {
			if _, err := b.stage(ev); err != nil {
				m.mu.Unlock()
				t.Fatal(err)
			}
		}
		m.mu.Unlock()
		// Some of the burst may still be on its way to the file: the feed
		// serves what the journal has committed, and nothing more.
		upTo := int(burst[len(burst)-1].Seq)
		committed := int(m.journal.Committed())
		if got := readAll(t, m); len(got) < committed || len(got) > upTo || !sameSteps(got, all[:len(got)]) {
			t.Fatalf("after staging up to %d with %d committed: the feed has %d events, want the committed ones", upTo, committed, len(got))
		}
		if err := b.wait(); err != nil {
			t.Fatal(err)
		}
		if got := readAll(t, m); !sameSteps(got, all[:upTo]) {
			t.Fatalf("after committing up to %d: the feed has %d events, not the ones committed", upTo, len(got))
		}
	}
	// Once the journal has them, the next event lets them go.
	if _, err := m.record(all[1200]); err != nil {
		t.Fatal(err)
	}
	if got := len(m.feed.events); got != window {
		t.Fatalf("%d events in memory with all but the last committed, want %d", got, window)
	}
	if err := m.journal.Close(); err != nil {
		t.Fatal(err)
	}
	m.lock.Release() // as a crash would: the next manager owns the folder

	resumed := newFeedManager(t, dir, window)
	if got := len(resumed.feed.events); got != window {
		t.Fatalf("resumed with %d events in memory, want %d", got, window)
	}
	if got := readAll(t, resumed); !sameSteps(got, all) {
		t.Fatalf("the resumed feed has %d events, not the %d journaled", len(got), len(all))
	}
	// Over HTTP, an old cursor is answered at once from the journal.
	rec := httptest.NewRecorder()
	resumed.serveEvents(rec, httptest.NewRequest(http.MethodGet, "/events?after=7&wait=30s", nil))
	var page protocol.FeedPage
	if err := json.Unmarshal(rec.Body.Bytes(), &page); err != nil || rec.Code != http.StatusOK {
		t.Fatalf("GET /events?after=7: %d %s (%v)", rec.Code, rec.Body, err)
	}
	if want := all[7 : len(all)-window]; page.LastSeq != want[len(want)-1].Seq || !sameSteps(page.Events, want) {
		t.Fatalf("GET /events?after=7: %d events to %d, want %d to %d", len(page.Events), page.LastSeq, len(want), want[len(want)-1].Seq)
	}
}

// sameSteps compares events a live manager stamped with its own time.
func sameSteps(got, want []engine.Event) bool {
	if len(got) != len(want) {
		return false
	}
	for i := range got {
		if got[i].Seq != want[i].Seq || got[i].Kind != want[i].Kind || got[i].Step != want[i].Step {
			return false
		}
	}
	return true
}

// TestFeedReportsShortJournal: a journal cut short under a running manager
// is an error on the feed, not an empty page a client would ask for again
// and again.
func TestFeedReportsShortJournal(t *testing.T) {
	dir := t.TempDir()
	all := leagueEvents(100)
	path := writeJournal(t, dir, all)
	m := newFeedManager(t, dir, 10)
	starts := lineStarts(mustRead(t, path))
	if err := os.Truncate(path, starts[50]); err != nil {
		t.Fatal(err)
	}
	rec := httptest.NewRecorder()
	m.serveEvents(rec, httptest.NewRequest(http.MethodGet, "/events?after=0", nil))
	if rec.Code != http.StatusInternalServerError {
		t.Fatalf("status %d (%s), want 500", rec.Code, rec.Body)
	}
}

func mustRead(t *testing.T, path string) []byte {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// BenchmarkEventsAfterOldCursor: a page for a cursor older than the window,
// read from a journal of 50,000 events, at cursors spread over the file.
func BenchmarkEventsAfterOldCursor(b *testing.B) {
	const n = 50000
	dir := b.TempDir()
	writeJournal(b, dir, leagueEvents(n))
	m := newFeedManager(b, dir, defaultFeedWindow)
	old := int64(n - defaultFeedWindow)
	var i int64
	for b.Loop() {
		cursor := i * 7919 % old
		i++
		page, _, err := m.eventsAfter(cursor)
		if err != nil || len(page.Events) == 0 {
			b.Fatal(err, len(page.Events))
		}
	}
	b.ReportMetric(float64(m.history.Scanned())/float64(i), "scanned-B/op")
}

// BenchmarkEventsAfterInWindow: the same page served from memory, to compare.
func BenchmarkEventsAfterInWindow(b *testing.B) {
	const n = 50000
	dir := b.TempDir()
	writeJournal(b, dir, leagueEvents(n))
	m := newFeedManager(b, dir, defaultFeedWindow)
	for b.Loop() {
		page, _, err := m.eventsAfter(n - defaultFeedWindow + 1000)
		if err != nil || len(page.Events) == 0 {
			b.Fatal(err, len(page.Events))
		}
	}
}

// TestFeedServesNoTokenHash: the journal keeps each agent's token hash; GET
// /events serves none, whether the event comes from memory or from the
// journal, and the manager's own copy keeps its hash.
func TestFeedServesNoTokenHash(t *testing.T) {
	events := leagueEvents(6)
	var hashes []string
	for i := range events {
		if a := events[i].Agent; a != nil {
			a.TokenHash = hashToken(fmt.Sprintf("tok-%s-secret", a.ID))
			hashes = append(hashes, a.TokenHash)
		}
	}
	for _, window := range []int{1, 100} { // agents' events from the journal, then from memory
		t.Run(fmt.Sprintf("window %d", window), func(t *testing.T) {
			dir := t.TempDir()
			writeJournal(t, dir, events)
			m := newFeedManager(t, dir, window)
			var served []byte
			for cursor, n := int64(0), 0; n < len(events); {
				rec := httptest.NewRecorder()
				m.Server.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, fmt.Sprintf("/events?after=%d", cursor), nil))
				var page protocol.FeedPage
				if err := json.Unmarshal(rec.Body.Bytes(), &page); err != nil || len(page.Events) == 0 {
					t.Fatalf("HTTP %d after %d (%v): %.300s", rec.Code, cursor, err, rec.Body)
				}
				served = append(served, rec.Body.Bytes()...)
				cursor, n = page.LastSeq, n+len(page.Events)
			}
			if bytes.Contains(served, []byte("token_hash")) {
				t.Errorf("the feed serves token_hash: %s", served)
			}
			for _, h := range hashes {
				if bytes.Contains(served, []byte(h)) {
					t.Errorf("the feed serves the hash %s", h)
				}
			}
			for _, ev := range readAll(t, m) {
				if ev.Agent != nil && ev.Agent.TokenHash == "" {
					t.Errorf("serving blanked the manager's own hash of %s", ev.Agent.ID)
				}
			}
		})
	}
}
