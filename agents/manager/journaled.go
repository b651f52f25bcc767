package manager

import (
	"fmt"

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

// batch stages the events of one journaled call.
type batch struct {
	m     *Manager
	waits []func() error // one per staged event: waits for its fsync
	done  bool           // journaled has released m.mu: no more staging
}

// journaled runs decide with m.mu held, where decide reads the league and
// stages its events in b. Once m.mu is released it waits until the
// journal holds every event staged, and returns decide's error or else
// the journal's. A caller acts on the change (replies, announces, writes
// files) only after journaled returned nil.
func (m *Manager) journaled(decide func(b *batch) error) error {
	b := &batch{m: m}
	m.mu.Lock()
	err := decide(b)
	b.done = true
	m.mu.Unlock()
	// Waited for even when decide failed after staging some: they are in
	// the journal's queue all the same, and a failure to write them must
	// pause the league.
	if werr := b.wait(); err == nil {
		err = werr
	}
	return err
}

// stage applies ev and queues it for the journal, returning it numbered
// and timed. An event the league refuses changes nothing and returns the
// error.
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
	b.waits = append(b.waits, m.journal.Enqueue(ev))
	return ev, nil
}

// wait waits until the journal holds every staged event and returns the
// first error. One group commit holds them all: waiting for each costs
// nothing more.
func (b *batch) wait() error {
	var first error
	for _, wait := range b.waits {
		if err := wait(); err != nil && first == nil {
			b.m.storageFailed(err)
			first = fmt.Errorf("journal: %w", err)
		}
	}
	return first
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
