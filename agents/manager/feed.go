package manager

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"net/http"
	"strconv"
	"time"

	"github.com/leaguetui/leaguetui/agents/node"
	"github.com/leaguetui/leaguetui/agents/protocol"
	"github.com/leaguetui/leaguetui/agents/rpc"
	"github.com/leaguetui/leaguetui/engine"
)

// maxFeedBatch bounds one answer of the event feed; a client behind by more
// simply asks again.
const maxFeedBatch = 2000

// defaultFeedWindow is how many of the latest events the feed keeps in
// memory, a few megabytes. Older ones are read back from the journal: a
// league of 1,000 players has some 3.5 million events, and keeping them all
// would cost the manager about 600 MB.
const defaultFeedWindow = 20000

func (m *Manager) serveHTTP() {
	m.Server.HandleHTTP("GET /standings", func(w http.ResponseWriter, r *http.Request) {
		doc, err := m.durableStandings(r.Context())
		if err != nil {
			return // the client went away
		}
		rpc.WriteJSON(w, http.StatusOK, doc)
	})
	m.Server.HandleHTTP("GET /events", m.serveEvents)
	m.Server.HandleHTTP("GET /los", m.serveLOS)
	m.Server.HandleHTTP("GET /matches/{id}", m.serveMatchFile)
}

// serveMatchFile answers GET /matches/{id}: the match's file with its
// transcript, as its referee wrote it in the league's data folder, so the
// console reads transcripts over HTTP like everything else. Only the id of
// a scheduled match reaches a path; a match without a file yet (still
// running) is 404, and the file of a match played by a referee with a data
// folder of its own is fetched from it first (collectTranscript).
//
// A match a stopped league abandoned is served as abandoned, whatever its
// file says: a referee may have finished it and written its file after the
// stop, and it was not played as far as the league is concerned.
func (m *Manager) serveMatchFile(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	m.mu.Lock()
	_, scheduled := m.league.Match(id)
	abandoned := m.isAbandoned(id)
	m.mu.Unlock()
	path, err := m.Layout().Match(id)
	if !scheduled || err != nil {
		http.Error(w, "no such match in this league", http.StatusNotFound)
		return
	}
	if abandoned {
		m.serveAbandoned(w, id)
		return
	}
	if err := m.collectTranscript(r.Context(), id); err != nil {
		m.Log.Warn("transcript not fetched", "match_id", id, "err", err)
	}
	node.ServeFile(w, path, protocol.MaxMatchFile, "no match file yet: the match is still to play or running, or its referee could not be reached")
}

// durableStandings is the standings once the journal holds every event
// they count (its version): like the feed, GET /standings tells only what
// a crash cannot take back. The wait is a group commit, milliseconds.
// After a storage failure the league is paused and the feed says why; the
// table is then served as it is.
func (m *Manager) durableStandings(ctx context.Context) (protocol.StandingsFile, error) {
	doc := m.Standings()
	for {
		changed := m.feedChanged()
		m.mu.Lock()
		failed := m.storageErr != nil
		m.mu.Unlock()
		if failed || m.journal.Committed() >= doc.Version {
			return doc, nil
		}
		select {
		case <-changed:
		case <-ctx.Done():
			return doc, ctx.Err()
		}
	}
}

// serveEvents answers GET /events?after=SEQ&wait=DURATION: the events with a
// larger sequence number, waiting up to wait (at most 30 s) for one to
// arrive. Reading from a cursor means a client that reconnects misses
// nothing and sees nothing twice.
func (m *Manager) serveEvents(w http.ResponseWriter, r *http.Request) {
	query := r.URL.Query() // parsed once: a client following the league asks again and again
	after, err := strconv.ParseInt(query.Get("after"), 10, 64)
	if query.Get("after") == "" {
		after, err = 0, nil
	}
	if err != nil || after < 0 {
		http.Error(w, "after must be a sequence number", http.StatusBadRequest)
		return
	}
	var wait time.Duration
	if text := query.Get("wait"); text != "" { // not parsed when absent: the error would be made for nothing
		wait, _ = time.ParseDuration(text)
	}
	wait = min(max(wait, 0), 30*time.Second)
	page, changed, err := m.eventsAfter(after)
	if err == nil && len(page.Events) == 0 && wait > 0 {
		select {
		case <-changed:
			page, _, err = m.eventsAfter(after)
		case <-time.After(wait):
		case <-r.Context().Done():
			return
		}
	}
	if err != nil {
		m.Log.Error("cannot serve the event feed", "event_type", "FEED_ERROR", "after", after, "err", err)
		http.Error(w, "cannot read the league journal: "+err.Error(), http.StatusInternalServerError)
		return
	}
	page.Events = withoutSecrets(page.Events)
	body, err := protocol.AppendJSON(make([]byte, 0, feedPageBytes(len(page.Events))), &page)
	if err != nil {
		rpc.WriteJSON(w, http.StatusOK, page) // says what encoding/json says of it, as it always did
		return
	}
	rpc.WriteEncoded(w, http.StatusOK, body)
}

// feedPageBytes is room for a page of n events, most of them a match's
// steps and results, so that its text is written in one allocation.
func feedPageBytes(n int) int { return 128 + 320*n }

// withoutSecrets blanks what the journal keeps but no reader of the feed
// may see: an agent's token hashes (kept so that a restarted manager can
// check tokens; a hash would let anyone try guesses offline). The events
// are the page's own copies; the agents they point to are shared, so those
// are copied before they change.
func withoutSecrets(events []engine.Event) []engine.Event {
	for i, ev := range events {
		if ev.Agent != nil && (ev.Agent.TokenHash != "" || ev.Agent.PriorTokenHash != "") {
			agent := ev.Agent.Public()
			events[i].Agent = &agent
		}
	}
	return events
}

// eventsAfter returns the page after a cursor and the channel that closes
// when the feed next grows. Sequence numbers are dense from 1. Only events
// the journal has committed are served: a client never sees an event that a
// crash could take back, and a sequence number it has seen names the same
// event after any restart. The latest events are in memory; a cursor older
// than them is read from the journal, outside m.mu, in a page that stops
// where memory starts.
func (m *Manager) eventsAfter(after int64) (protocol.FeedPage, <-chan struct{}, error) {
	changed := m.feedChanged() // before reading what is committed: a commit in between then wakes us
	m.mu.Lock()
	page := protocol.FeedPage{LastSeq: after, State: m.league.State, StorageFailure: m.storageDetail}
	oldest := m.feed.oldest(m.league.LastSeq() + 1)
	if durable := m.journal.Committed(); after >= oldest-1 && durable > after {
		page.Events = m.feed.after(after, int(min(maxFeedBatch, durable-after)))
	}
	m.mu.Unlock()
	if after < oldest-1 {
		events, err := m.readJournal(after, min(oldest-1, after+maxFeedBatch))
		if err != nil {
			return page, changed, err
		}
		page.Events = events
	}
	if n := len(page.Events); n > 0 {
		page.LastSeq = page.Events[n-1].Seq
	}
	return page, changed, nil
}

// readJournal reads the events after a cursor up to last from the journal,
// which holds every event older than the feed's window: the window forgets
// only events the journal has committed.
func (m *Manager) readJournal(after, last int64) ([]engine.Event, error) {
	events := make([]engine.Event, 0, last-after)
	_, err := m.history.Read(after+1, last, func(raw json.RawMessage) error {
		var ev engine.Event
		if err := json.Unmarshal(raw, &ev); err != nil {
			return err
		}
		if want := after + int64(len(events)) + 1; ev.Seq != want {
			return fmt.Errorf("journal record %d holds event %d", want, ev.Seq)
		}
		events = append(events, ev)
		return nil
	})
	if err == nil && int64(len(events)) < last-after {
		err = fmt.Errorf("the journal ends at record %d, short of event %d", after+int64(len(events)), last)
	}
	return events, err
}

// feedWindow is the feed's latest events, in memory, with consecutive
// sequence numbers.
type feedWindow struct {
	events []engine.Event
	limit  int // events kept once the journal has the older ones
}

// push appends ev, then forgets the oldest events beyond the limit that the
// journal has committed (committed is the last one's sequence number). One
// not yet written stays: a reader would find it neither here nor in the file.
func (w *feedWindow) push(ev engine.Event, committed int64) {
	w.events = append(w.events, ev)
	drop := min(len(w.events)-w.limit, int(committed-w.events[0].Seq+1))
	if drop > 0 {
		clear(w.events[:drop]) // the array outlives the slice: let go of what events point to
		w.events = w.events[drop:]
	}
}

// oldest is the sequence number of the first event in memory, or next when
// there is none yet.
func (w *feedWindow) oldest(next int64) int64 {
	if len(w.events) == 0 {
		return next
	}
	return w.events[0].Seq
}

// after copies up to n events following a cursor at or after oldest()-1.
func (w *feedWindow) after(cursor int64, n int) []engine.Event {
	from := int(cursor - w.oldest(cursor+1) + 1)
	if from >= len(w.events) {
		return nil
	}
	return append([]engine.Event(nil), w.events[from:min(len(w.events), from+n)]...)
}

// serveAbandoned serves the file of a match the stopped league abandoned,
// as abandoned.
func (m *Manager) serveAbandoned(w http.ResponseWriter, id string) {
	_, data, err := m.readMatchFile(id)
	if errors.Is(err, fs.ErrNotExist) {
		http.Error(w, "no match file: the league was stopped before this match was played", http.StatusNotFound)
		return
	}
	if err == nil && !protocol.IsAbandonedMatchFile(data) {
		data, err = protocol.AbandonMatchFile(data, abandonReason)
	}
	if err != nil {
		http.Error(w, "cannot read the match file", http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	_, _ = w.Write(data)
}
