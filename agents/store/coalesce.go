package store

import (
	"io"
	"sync"
	"time"
)

// Coalescer keeps one derived file (a snapshot of state held in memory) up
// to date at a bounded rate. Request is cheap and never blocks: it only says
// the state changed. A single goroutine does every write, so writes land in
// snapshot order, and it waits at least the interval after a request before
// writing, so a burst of requests costs one write: the cost of the file no
// longer depends on how often the state changes.
//
// A large file also slows itself down: the wait is at least nine times what
// the last write took, so writing one file takes at most about a tenth of
// the time whatever its size.
//
// The file lags the state by at most the wait; Flush and Close write it at
// once. A crash loses at most that lag, which is why only derived files
// (whose facts are recorded elsewhere) should be written this way.
type Coalescer struct {
	path    string
	every   time.Duration
	encode  func(io.Writer) error
	onError func(error)

	kick      chan struct{}      // buffered: a request is pending
	flush     chan chan struct{} // a Flush waiting for its write
	quit      chan struct{}
	done      chan struct{}
	closeOnce sync.Once

	lastCost time.Duration // owned by the writer goroutine
}

// NewCoalescer starts the writer of path. encode writes the file's content
// (IndentedJSON of a snapshot, for a JSON file); the writer calls it when it
// writes, so it sees the latest state, and it must be safe to call from
// another goroutine. onError gets every failed write (the next write heals
// it).
func NewCoalescer(path string, every time.Duration, encode func(io.Writer) error, onError func(error)) *Coalescer {
	c := &Coalescer{path: path, every: every, encode: encode, onError: onError,
		kick: make(chan struct{}, 1), flush: make(chan chan struct{}),
		quit: make(chan struct{}), done: make(chan struct{})}
	go c.run()
	return c
}

// Request says the state changed: the file is written within the wait.
func (c *Coalescer) Request() {
	select {
	case c.kick <- struct{}{}:
	default: // a request is already pending and will see this change too
	}
}

// Flush writes the current state now and returns once it is written. After
// Close it does nothing.
func (c *Coalescer) Flush() {
	written := make(chan struct{})
	select {
	case c.flush <- written:
		<-written
	case <-c.done:
	}
}

// Close writes what a request still waits for and stops the writer.
func (c *Coalescer) Close() {
	c.closeOnce.Do(func() { close(c.quit) })
	<-c.done
}

func (c *Coalescer) run() {
	defer close(c.done)
	var due <-chan time.Time // set while a request waits for its write
	for {
		select {
		case <-c.kick:
			if due == nil {
				due = time.After(max(c.every, 9*c.lastCost))
			}
		case <-due:
			due = nil
			c.write()
		case written := <-c.flush:
			due = nil
			c.takeRequest() // the write below covers it
			c.write()
			close(written)
		case <-c.quit:
			if c.takeRequest() || due != nil {
				c.write()
			}
			return
		}
	}
}

// takeRequest consumes a pending request, reporting whether there was one.
func (c *Coalescer) takeRequest() bool {
	select {
	case <-c.kick:
		return true
	default:
		return false
	}
}

func (c *Coalescer) write() {
	start := time.Now()
	if err := WriteAtomic(c.path, c.encode); err != nil && c.onError != nil {
		c.onError(err)
	}
	c.lastCost = time.Since(start)
}
