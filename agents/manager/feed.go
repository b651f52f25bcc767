package manager

import (
	"net/http"
	"strconv"
	"time"

	"github.com/leaguetui/leaguetui/agents/control"
	"github.com/leaguetui/leaguetui/agents/rpc"
	"github.com/leaguetui/leaguetui/engine"
)

// maxFeedBatch bounds one answer of the event feed; a client behind by more
// simply asks again.
const maxFeedBatch = 2000

func (m *Manager) serveHTTP() {
	m.Server.HandleHTTP("GET /standings", func(w http.ResponseWriter, _ *http.Request) {
		rpc.WriteJSON(w, http.StatusOK, m.Standings())
	})
	m.Server.HandleHTTP("GET /events", m.serveEvents)
}

// serveEvents answers GET /events?after=SEQ&wait=DURATION: the events with a
// larger sequence number, waiting up to wait (at most 30 s) for one to
// arrive. Reading from a cursor means a client that reconnects misses
// nothing and sees nothing twice.
func (m *Manager) serveEvents(w http.ResponseWriter, r *http.Request) {
	after, err := strconv.ParseInt(r.URL.Query().Get("after"), 10, 64)
	if r.URL.Query().Get("after") == "" {
		after, err = 0, nil
	}
	if err != nil || after < 0 {
		http.Error(w, "after must be a sequence number", http.StatusBadRequest)
		return
	}
	wait, _ := time.ParseDuration(r.URL.Query().Get("wait"))
	wait = min(max(wait, 0), 30*time.Second)
	page, changed := m.eventsAfter(after)
	if len(page.Events) == 0 && wait > 0 {
		select {
		case <-changed:
			page, _ = m.eventsAfter(after)
		case <-time.After(wait):
		case <-r.Context().Done():
			return
		}
	}
	rpc.WriteJSON(w, http.StatusOK, page)
}

// eventsAfter returns the page after a cursor and the channel that closes
// when the feed next grows. Sequence numbers are dense from 1, so the
// cursor indexes the feed directly.
func (m *Manager) eventsAfter(after int64) (control.FeedPage, <-chan struct{}) {
	m.mu.Lock()
	defer m.mu.Unlock()
	page := control.FeedPage{LastSeq: after, State: m.league.State}
	if after < int64(len(m.feed)) {
		end := min(int64(len(m.feed)), after+maxFeedBatch)
		page.Events = append([]engine.Event(nil), m.feed[after:end]...)
		page.LastSeq = end
	}
	return page, m.changed
}
