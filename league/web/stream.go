package web

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"strconv"
	"sync"
	"time"
)

// serveStream relays the manager's feed as server-sent events from the
// cursor the browser gives (Last-Event-ID when it reconnects, or ?after=):
// each event's id is its sequence number, which names the same event
// before and after any restart of the manager, so a page that reconnects
// misses nothing and sees nothing twice. The events come from the view's
// one reader of the feed, never from a poll of this stream's own; when
// the manager does not answer (restarting) the page is told so, and told
// again when it is back.
//
// A stream past MaxClients is refused with 503 and Retry-After; a
// spectator that does not read within WriteTimeout is dropped.
func (s *Server) serveStream(w http.ResponseWriter, r *http.Request) {
	if s.clients.Add(1) > int64(s.MaxClients) {
		s.clients.Add(-1)
		w.Header().Set("Retry-After", retryAfter)
		http.Error(w, fmt.Sprintf("this view serves %d spectators at once: try again later", s.MaxClients), http.StatusServiceUnavailable)
		return
	}
	defer s.clients.Add(-1)
	s.streamOpened()
	defer s.streamClosed()
	out := &streamWriter{w: w, rc: http.NewResponseController(w), timeout: s.WriteTimeout}
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-store")
	out.write(fmt.Appendf(nil, "retry: %d\n\n", s.Retry.Milliseconds()))
	if out.flush() != nil {
		return
	}
	st := &streamState{cursor: cursorOf(r)}
	f := s.shared()
	_, now, _, _, _ := f.since(st.cursor)
	st.outages = now.Outages
	if now.Down {
		st.outages-- // this stream says the outage under way
	}
	s.relay(r.Context(), out, st, f)
}

// streamState is what one stream has written.
type streamState struct {
	cursor   int64
	outages  int  // the manager's outages it has told of
	downSaid bool // it last said the manager is down
	state    feedStatus
}

// relay writes what the feed has for the stream, in one write per Batch
// at most, until the spectator leaves or stops reading, or the league's
// final standings are written (Finish): they end the stream.
func (s *Server) relay(ctx context.Context, out *streamWriter, st *streamState, f *feed) {
	keepAlive := time.NewTimer(s.Wait)
	defer keepAlive.Stop()
	for {
		frames, now, changed, gap, first := f.since(st.cursor)
		if gap && !s.catchUp(ctx, out, st, first) {
			return
		}
		if gap {
			continue
		}
		if now.Final == nil { // a manager stopping after the final standings is no news
			s.sayManager(out, st, now)
		}
		for _, frame := range frames {
			out.write(frame)
		}
		st.cursor = max(st.cursor, now.LastSeq)
		if now.CaughtUp && (now.LastSeq != st.state.LastSeq || now.State != st.state.State || now.StorageFailure != st.state.StorageFailure) {
			out.write(eventFrame("state", "", map[string]any{"state": now.State, "last_seq": now.LastSeq,
				"storage_failure": now.StorageFailure}))
			st.state = now
		}
		if now.Final != nil {
			out.write(now.Final)
			_ = out.flush()
			return // the last word: the page stops reading
		}
		if out.flush() != nil {
			return // a spectator that does not read
		}
		keepAlive.Reset(s.Wait)
		select {
		case <-changed:
		case <-keepAlive.C:
			out.write([]byte(": keep-alive\n\n"))
		case <-ctx.Done():
			return
		}
		select { // what else comes within Batch goes in the same write
		case <-time.After(s.Batch):
		case <-s.finished: // the final standings wait for no batch
		case <-ctx.Done():
			return
		}
	}
}

// sayManager tells the page when the manager stopped answering and when
// it is back, each outage once, even one that ended between two writes.
func (s *Server) sayManager(out *streamWriter, st *streamState, now feedStatus) {
	if now.Outages > st.outages && !st.downSaid {
		out.write(eventFrame("manager", "", map[string]any{"up": false, "error": now.DownError}))
		st.downSaid = true
	}
	st.outages = now.Outages
	if st.downSaid && !now.Down {
		out.write(eventFrame("manager", "", map[string]any{"up": true}))
		st.downSaid = false
	}
}

// catchUp writes the events between the stream's cursor and the first
// one the view keeps, read from the manager page by page: a stream
// resuming from before the view's history. false when it cannot go on.
func (s *Server) catchUp(ctx context.Context, out *streamWriter, st *streamState, first int64) bool {
	for st.cursor < first-1 {
		page, err := s.ctl.Events(ctx, st.cursor, 0)
		if err != nil || len(page.Events) == 0 {
			return false // the browser reconnects, from where it got to
		}
		for _, ev := range page.Events {
			if ev.Seq > st.cursor && ev.Seq < first {
				out.write(eventFrame("", strconv.FormatInt(ev.Seq, 10), ev))
			}
		}
		st.cursor = max(st.cursor, min(page.LastSeq, first-1))
		if out.flush() != nil {
			return false
		}
	}
	return true
}

// streamWriter writes to one spectator, each write within the deadline;
// the first error ends the stream.
type streamWriter struct {
	w       http.ResponseWriter
	rc      *http.ResponseController
	timeout time.Duration
	pending *bytes.Buffer // what the next flush sends
	err     error
}

// write adds b to what the next flush sends.
func (o *streamWriter) write(b []byte) {
	if o.pending == nil {
		o.pending = batches.Get().(*bytes.Buffer)
	}
	o.pending.Write(b)
	if o.pending.Len() >= maxWrite {
		_ = o.flush()
	}
}

// flush sends what was written since the last flush in one write, within
// the deadline, and empties it.
func (o *streamWriter) flush() error {
	if o.err != nil {
		return o.err
	}
	_ = o.rc.SetWriteDeadline(time.Now().Add(o.timeout)) // unsupported only off a real server
	if o.pending != nil {
		_, o.err = o.w.Write(o.pending.Bytes())
		o.pending.Reset()
		if o.pending.Cap() <= maxWrite*2 {
			batches.Put(o.pending)
		}
		o.pending = nil
	}
	if o.err == nil {
		o.err = o.rc.Flush()
	}
	return o.err
}

// A stream's writes are gathered in a buffer of the pool, one write to the
// connection per flush: a thousand streams cost a thousand writes per
// batch, not one per event each. maxWrite bounds one buffer.
const maxWrite = 256 << 10

var batches = sync.Pool{New: func() any { return new(bytes.Buffer) }}

// cursorOf is where the browser's stream resumes.
func cursorOf(r *http.Request) int64 {
	for _, v := range []string{r.Header.Get("Last-Event-ID"), r.URL.Query().Get("after")} {
		if n, err := strconv.ParseInt(v, 10, 64); err == nil && n >= 0 {
			return n
		}
	}
	return 0
}
