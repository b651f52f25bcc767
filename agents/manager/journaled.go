package manager

import (
	"fmt"

	"github.com/leaguetui/leaguetui/agents/protocol"
	"github.com/leaguetui/leaguetui/agents/store"
	"github.com/leaguetui/leaguetui/engine"
)

// Every change of league state follows one rule: its events are applied
// and queued for the journal under m.mu, so that the journal's order is
// the order of application, and the journal's fsync is waited for after
// m.mu is released, so that the events of many matches share one fsync
// and a journal failure (which takes m.mu to pause the league) is
// reported rather than waited on for ever. Nothing that tells anyone the
// change happened (a reply, an announcement, a file derived from it) is
// done before that wait. journaled is the rule: a batch, the only way to
// stage an event, exists only inside it (lockrule_test.go holds the
// package to that).

// batch stages the events of one journaled call. They go to the journal
// together, as lines encoded as they are staged, when decide returns:
// still under m.mu, so in the order they were applied, and one request
// and one wait for all of them.
type batch struct {
	m         *Manager
	lines     store.Lines
	encodeErr error        // the first event that could not be encoded, which is not journaled
	queued    func() error // waits for the lines' fsync, once they are queued
	done      bool         // journaled has released m.mu: no more staging
}

// firstLines is room for a match's result and the steps before it, so
// that a batch's lines are one allocation.
const firstLines = 1 << 10

// journaled runs decide with m.mu held, where decide reads the league and
// stages its events in b. Once m.mu is released it waits until the
// journal holds every event staged, and returns decide's error or else
// the journal's. A caller acts on the change (replies, announces, writes
// files) only after journaled returned nil.
func (m *Manager) journaled(decide func(b *batch) error) error {
	b := &batch{m: m}
	m.mu.Lock()
	err := decide(b)
	// Queued even when decide failed after staging some: they are
	// applied, and a failure to write them must pause the league.
	b.enqueue()
	b.done = true
	m.mu.Unlock()
	if werr := b.wait(); err == nil {
		err = werr
	}
	return err
}

// stage applies ev and adds it to the lines the batch gives the journal,
// returning it numbered and timed. An event the league refuses changes
// nothing and returns the error.
func (b *batch) stage(ev engine.Event) (engine.Event, error) {
	if b.done {
		panic("manager: an event staged after its journaled call returned")
	}
	m := b.m
	if m.storageErr != nil {
		return ev, fmt.Errorf("the league journal cannot be written (%w); restart the manager once the disk is fixed", m.storageErr)
	}
	if err := m.apply(&ev); err != nil {
		return ev, err
	}
	if b.lines.Data == nil {
		b.lines.Data = make([]byte, 0, firstLines)
	}
	line, err := journalLine(b.lines.Data, &ev)
	if err != nil {
		if b.encodeErr == nil {
			b.encodeErr = fmt.Errorf("store: encode journal record: %w", err)
		}
		return ev, nil // applied all the same, as it always was: the wait reports it
	}
	b.lines.Data = append(line, '\n')
	b.lines.Records++
	return ev, nil
}

// enqueue queues the staged events' lines for the journal, once.
func (b *batch) enqueue() {
	switch {
	case b.lines.Records == 0:
		return
	case b.queued != nil:
		panic("manager: events staged after their batch went to the journal")
	}
	b.queued = b.m.journal.Enqueue(&b.lines)
	b.lines = store.Lines{} // the journal's now
}

// wait waits until the journal holds every staged event (queuing them
// first if journaled has not) and returns the first error, which pauses
// the league. One group commit holds them all.
func (b *batch) wait() error {
	b.enqueue()
	var first error
	for _, err := range [...]error{b.encodeErr, b.waitQueued()} {
		if err != nil && first == nil {
			b.m.storageFailed(err)
			first = fmt.Errorf("journal: %w", err)
		}
	}
	return first
}

// waitQueued waits for the queued lines' fsync, if any were queued.
func (b *batch) waitQueued() error {
	if b.queued == nil {
		return nil
	}
	return b.queued()
}

// record applies an event to the league, journals it and publishes it on
// the feed, returning once it is durable. An event the league refuses
// changes nothing and returns the error.
func (m *Manager) record(ev engine.Event) (engine.Event, error) {
	err := m.journaled(func(b *batch) (err error) {
		ev, err = b.stage(ev)
		return err
	})
	return ev, err
}

// journalLine appends ev's line as encoding/json writes it. The wire
// codec writes a time beyond the year 9999 that no reader takes back
// (time.Time refuses it), where encoding/json refused to write it: the
// journal refuses it too, so that every line it holds can be replayed.
func journalLine(dst []byte, ev *engine.Event) ([]byte, error) {
	if year := ev.Time.Year(); year < 0 || year > 9999 {
		return dst, fmt.Errorf("event time %v: year outside of range [0,9999]", ev.Time)
	}
	return protocol.AppendJSON(dst, ev)
}
