package web

import (
	"context"
	"encoding/json"
	"slices"
	"sort"
	"strconv"
	"sync"
	"time"

	"github.com/leaguetui/leaguetui/engine"
	"github.com/leaguetui/leaguetui/league/control"
)

// feed is the view's one reader of the manager's event feed, shared by
// every stream: however many spectators watch, the manager sees one long
// poll. Each event is encoded once, as the server-sent event every stream
// writes, and kept (up to historyBytes) so that a stream starting or
// resuming at any cursor writes from memory. It also keeps what the page
// asks of the feed besides the events: the schedule and the last state.
type feed struct {
	ctl          *control.Client
	wait, retry  time.Duration
	historyBytes int

	mu       sync.Mutex
	events   []relayed // in sequence order, the oldest dropped past historyBytes
	bytes    int       // the kept events' encoded size
	status   feedStatus
	schedule []Pairing
	changed  chan struct{} // closed, and replaced, at each change
	polls    int           // pages asked of the manager, for the tests' count
}

// relayed is one event as every stream writes it.
type relayed struct {
	seq   int64
	frame []byte
}

// feedStatus is what the feed knows of the league and of the manager.
type feedStatus struct {
	LastSeq        int64
	State          engine.LeagueState
	StorageFailure string
	CaughtUp       bool   // the feed has been read to its end once
	Down           bool   // the manager's last answer was none
	DownError      string // why, while Down
	Outages        int    // how many times the manager stopped answering
	// Final is the event of the league's final standings, once Finish has
	// read them: every stream writes it after the events and ends.
	Final []byte
}

func newFeed(ctl *control.Client, wait, retry time.Duration, historyBytes int) *feed {
	return &feed{ctl: ctl, wait: wait, retry: retry, historyBytes: historyBytes, changed: make(chan struct{})}
}

// run reads the feed from its start until ctx ends: at once (no wait)
// until it has caught up, then by long polls. A manager that does not
// answer is asked again after retry.
func (f *feed) run(ctx context.Context) {
	var cursor int64
	for ctx.Err() == nil {
		wait := f.wait
		if !f.snapshotStatus().CaughtUp {
			wait = 0
		}
		page, err := f.ctl.Events(ctx, cursor, wait)
		f.mu.Lock()
		f.polls++
		f.mu.Unlock()
		if err != nil {
			if ctx.Err() != nil {
				return
			}
			f.managerDown(err)
			select {
			case <-time.After(f.retry):
			case <-ctx.Done():
			}
			continue
		}
		caughtUp := len(page.Events) == 0 || page.LastSeq <= cursor
		cursor = max(cursor, page.LastSeq)
		f.add(page.Events, feedStatus{LastSeq: cursor, State: page.State, StorageFailure: page.StorageFailure, CaughtUp: caughtUp})
	}
}

// managerDown records a manager that did not answer.
func (f *feed) managerDown(err error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if !f.status.Down {
		f.status.Outages++
	}
	f.status.Down, f.status.DownError = true, err.Error()
	f.notifyLocked()
}

// add keeps a page's events, encoded, and its status.
func (f *feed) add(events []engine.Event, st feedStatus) {
	f.mu.Lock()
	defer f.mu.Unlock()
	last := f.status.LastSeq
	for _, ev := range events {
		if ev.Seq <= last {
			continue // seen before a restart of the manager
		}
		last = ev.Seq
		frame := eventFrame("", strconv.FormatInt(ev.Seq, 10), ev)
		f.events = append(f.events, relayed{seq: ev.Seq, frame: frame})
		f.bytes += len(frame)
		f.schedule = append(f.schedule, pairingsOf(ev)...)
	}
	f.trimLocked()
	st.CaughtUp = st.CaughtUp || f.status.CaughtUp
	st.Outages = f.status.Outages
	st.Final = f.status.Final
	st.LastSeq = max(st.LastSeq, last)
	f.status = st
	f.notifyLocked()
}

// trimLocked drops the oldest events past historyBytes, a quarter of
// them at a time so the slice is copied seldom; the last event is kept.
func (f *feed) trimLocked() {
	if f.bytes <= f.historyBytes || len(f.events) < 2 {
		return
	}
	drop := 0
	for target := f.bytes - f.historyBytes*3/4; drop < len(f.events)-1 && target > 0; drop++ {
		target -= len(f.events[drop].frame)
		f.bytes -= len(f.events[drop].frame)
	}
	f.events = slices.Clone(f.events[drop:])
}

func (f *feed) notifyLocked() {
	close(f.changed)
	f.changed = make(chan struct{})
}

// since is what a stream at cursor has to write: the kept events after
// it, the status, and the channel closed at the next change. gap says the
// events just after cursor are no longer kept: the stream reads them from
// the manager, up to first.
func (f *feed) since(cursor int64) (frames [][]byte, st feedStatus, changed <-chan struct{}, gap bool, first int64) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if len(f.events) > 0 {
		first = f.events[0].seq
	}
	gap = len(f.events) > 0 && cursor < first-1
	i := sort.Search(len(f.events), func(i int) bool { return f.events[i].seq > cursor })
	for _, ev := range f.events[i:] {
		frames = append(frames, ev.frame)
	}
	return frames, f.status, f.changed, gap, first
}

func (f *feed) snapshotStatus() feedStatus {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.status
}

// caughtUp waits until the feed has been read to its end once, or ctx
// ends (false).
func (f *feed) caughtUp(ctx context.Context) bool {
	for {
		f.mu.Lock()
		done, changed := f.status.CaughtUp, f.changed
		f.mu.Unlock()
		if done {
			return true
		}
		select {
		case <-changed:
		case <-ctx.Done():
			return false
		}
	}
}

// reached waits until the feed has read every event up to seq, or ctx
// ends (its error).
func (f *feed) reached(ctx context.Context, seq int64) error {
	for {
		f.mu.Lock()
		done, changed := f.status.LastSeq >= seq, f.changed
		f.mu.Unlock()
		if done {
			return nil
		}
		select {
		case <-changed:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

// setFinal keeps the final standings' event for every stream, and wakes
// them.
func (f *feed) setFinal(frame []byte) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.status.Final = frame
	f.notifyLocked()
}

// pairings is the schedule as the feed has told it so far.
func (f *feed) pairings() []Pairing {
	f.mu.Lock()
	defer f.mu.Unlock()
	return slices.Clone(f.schedule)
}

// pairingsOf are the matches an event schedules: the schedule
// league_started fixes, made again from it as the manager makes it
// (engine.StartInfo.Schedule), and each round_scheduled's.
func pairingsOf(ev engine.Event) []Pairing {
	var rounds []engine.Round
	switch {
	case ev.Kind == engine.EventLeagueStarted && ev.Start != nil:
		rounds, _ = ev.Start.Schedule()
	case ev.Kind == engine.EventRoundScheduled && ev.Schedule != nil:
		rounds = []engine.Round{*ev.Schedule}
	}
	var out []Pairing
	for _, round := range rounds {
		for _, p := range round.Matches {
			out = append(out, Pairing{MatchID: p.MatchID, Round: p.Round, PlayerA: p.PlayerA, PlayerB: p.PlayerB})
		}
	}
	return out
}

// eventFrame is one server-sent event; data is JSON on one line.
func eventFrame(name, id string, data any) []byte {
	raw, err := json.Marshal(data)
	if err != nil {
		return nil
	}
	var b []byte
	if name != "" {
		b = append(b, "event: "+name+"\n"...)
	}
	if id != "" {
		b = append(b, "id: "+id+"\n"...)
	}
	b = append(b, "data: "...)
	b = append(b, raw...)
	return append(b, "\n\n"...)
}
