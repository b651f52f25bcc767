package store

import (
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"
)

// TestCoalescerWritesOnceForABurst: requests inside the interval make no
// write; Flush writes the latest state once; Close writes only what is still
// requested; Flush after Close returns at once.
func TestCoalescerWritesOnceForABurst(t *testing.T) {
	path := filepath.Join(t.TempDir(), "standings.json")
	var state, snapshots atomic.Int64
	c := NewCoalescer(path, time.Hour, IndentedJSON(func() any {
		snapshots.Add(1)
		return sample{Version: int(state.Load())}
	}), func(err error) { t.Error(err) })
	for i := 1; i <= 100; i++ {
		state.Store(int64(i))
		c.Request()
	}
	if n := snapshots.Load(); n != 0 {
		t.Fatalf("%d writes before the interval, want none", n)
	}
	c.Flush()
	var got sample
	if err := ReadJSON(path, &got); err != nil || got.Version != 100 {
		t.Fatalf("after Flush read %+v (%v), want version 100", got, err)
	}
	c.Close() // nothing requested since the flush: no write
	if n := snapshots.Load(); n != 1 {
		t.Errorf("%d writes, want 1", n)
	}
	c.Flush()
	c.Close()
}

// TestCoalescerCloseWritesPending: a request still waiting is written by Close.
func TestCoalescerCloseWritesPending(t *testing.T) {
	path := filepath.Join(t.TempDir(), "history.json")
	c := NewCoalescer(path, time.Hour, IndentedJSON(func() any { return sample{LeagueID: "L1", Version: 7} }), nil)
	c.Request()
	c.Close()
	var got sample
	if err := ReadJSON(path, &got); err != nil || got.Version != 7 {
		t.Fatalf("after Close read %+v (%v), want version 7", got, err)
	}
}

// TestCoalescerWritesAfterTheInterval: without Flush a request is written
// by the writer on its own once the interval has passed.
func TestCoalescerWritesAfterTheInterval(t *testing.T) {
	path := filepath.Join(t.TempDir(), "rounds.json")
	taken := make(chan struct{}, 1)
	c := NewCoalescer(path, time.Millisecond, IndentedJSON(func() any {
		taken <- struct{}{}
		return sample{Version: 1}
	}), nil)
	defer c.Close()
	c.Request()
	select {
	case <-taken:
	case <-time.After(30 * time.Second):
		t.Fatal("a request was not written")
	}
}
