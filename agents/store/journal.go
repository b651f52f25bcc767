package store

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
)

// ErrJournalClosed is returned by Append and Close once the journal is closed.
// It wraps os.ErrClosed.
var ErrJournalClosed = fmt.Errorf("store: journal closed: %w", os.ErrClosed)

// ErrCorruptJournal is wrapped by OpenJournal's error when a line other than
// the last is not valid JSON: that cannot be a crash mid-write, so the file
// was damaged and guessing would lose or invent league events.
var ErrCorruptJournal = errors.New("store: corrupt journal")

// Journal is an append-only JSON-lines file: the league's source of truth.
// Appends from many goroutines are group-committed: Append returns only after
// its record is fsynced, but concurrent Appends share one fsync, so the cost
// per record falls as results arrive faster.
//
// One goroutine, started by OpenJournal, does all writing. Append queues its
// line and waits; the writer takes everything queued, writes it with one write
// and one fsync, and answers every waiter. While it is syncing, new lines pile
// up and go together in the next batch.
type Journal struct {
	path  string
	f     *os.File
	hooks journalHooks

	mu       sync.Mutex
	pending  []appendRequest // queued lines, in arrival order
	closed   bool
	failed   error  // sticky: once set, the file's state is unknown
	onCommit func() // see OnCommit

	kick    chan struct{} // wakes the writer; buffered, so a wake-up is never lost
	stopped chan struct{} // closed when the writer has exited
	syncs   atomic.Int64
	// committed is how many records the file holds, in the order they were
	// enqueued; it stops at the first failed batch, after which the file may
	// lack records that later ones follow.
	committed atomic.Int64
	gap       bool // owned by the writer: a batch has failed

	// Owned by the writer goroutine.
	size int64  // length of the file up to the last committed record
	buf  []byte // reused to assemble a batch
}

type appendRequest struct {
	lines   []byte // one or more records, each a line
	records int
	done    chan error // buffered, so the writer never waits for a waiter
}

// Lines are records already encoded for the journal: each one JSON value
// on a line of its own, ending in a newline. Enqueue takes a *Lines as
// they are, written together and in their order, where it would encode
// any other record with encoding/json: a writer that encodes its records
// itself (without reflection) gives them so, and many records then cost
// one request. Enqueue keeps Data: it must not change afterwards.
type Lines struct {
	Data    []byte
	Records int // how many lines Data holds
}

// check refuses lines that are not whole lines, as many as said: the
// journal counts its records by lines.
func (l *Lines) check() error {
	switch {
	case l.Records < 1 || len(l.Data) == 0 || l.Data[len(l.Data)-1] != '\n':
		return fmt.Errorf("%d records in %d bytes that do not end a line", l.Records, len(l.Data))
	case bytes.Count(l.Data, []byte{'\n'}) != l.Records:
		return fmt.Errorf("%d lines given as %d records", bytes.Count(l.Data, []byte{'\n'}), l.Records)
	}
	return nil
}

// journalHooks are seams for tests; both are nil in production.
type journalHooks struct {
	afterEnqueue func()      // called by Append once its line is queued
	beforeCommit func(n int) // called by the writer with each batch's size
}

// OpenJournal opens the journal at path, creating it and its folders, and
// returns the records already in it, in order.
//
// A torn last line is the trace of a crash mid-append (its Append never
// returned), so it is dropped and truncated away: the last line is torn when it
// has no trailing newline or is not valid JSON. Invalid JSON on any earlier
// line is an error (wrapping ErrCorruptJournal) naming the line number. Blank
// lines are skipped.
func OpenJournal(path string) (*Journal, []json.RawMessage, error) {
	return openJournal(path, journalHooks{})
}

func openJournal(path string, hooks journalHooks) (*Journal, []json.RawMessage, error) {
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, dirPerm); err != nil {
		return nil, nil, fmt.Errorf("store: %w", err)
	}
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|os.O_APPEND, filePerm)
	if err != nil {
		return nil, nil, fmt.Errorf("store: %w", err)
	}
	records, size, err := readJournal(f, path)
	if err == nil {
		// Make the file's folder entry durable in case we just created it.
		err = syncDir(dir)
	}
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	j := &Journal{
		path:    path,
		f:       f,
		hooks:   hooks,
		kick:    make(chan struct{}, 1),
		stopped: make(chan struct{}),
		size:    size,
	}
	j.committed.Store(int64(len(records)))
	go j.run()
	return j, records, nil
}

// readJournal parses the whole file and truncates a torn tail away, returning
// the records and the length of the file that remains.
func readJournal(f *os.File, path string) ([]json.RawMessage, int64, error) {
	data, err := io.ReadAll(f)
	if err != nil {
		return nil, 0, fmt.Errorf("store: read %s: %w", path, err)
	}
	records, keep, err := parseJournal(data)
	if err != nil {
		return nil, 0, fmt.Errorf("%w: %s %w", ErrCorruptJournal, path, err)
	}
	if keep < len(data) {
		slog.Warn("store: dropping the torn last line of the journal",
			"path", path, "bytes", len(data)-keep)
		if err := f.Truncate(int64(keep)); err != nil {
			return nil, 0, fmt.Errorf("store: truncate torn journal %s: %w", path, err)
		}
		if err := f.Sync(); err != nil {
			return nil, 0, fmt.Errorf("store: sync %s: %w", path, err)
		}
	}
	return records, int64(keep), nil
}

// parseJournal splits data into records and returns how many leading bytes
// hold whole, valid lines; anything after them is a torn last line.
func parseJournal(data []byte) (records []json.RawMessage, keep int, err error) {
	// Bytes after the last newline were never acknowledged: torn.
	complete := data[:bytes.LastIndexByte(data, '\n')+1]
	keep = len(complete)
	badLine, badStart := 0, 0 // an invalid line, which is fine only if last
	lineNo := 0
	for start := 0; start < len(complete); {
		end := start + bytes.IndexByte(complete[start:], '\n')
		line := bytes.TrimSpace(complete[start:end])
		lineNo++
		lineStart := start
		start = end + 1
		if len(line) == 0 {
			continue
		}
		if badLine != 0 {
			return nil, 0, fmt.Errorf("line %d: invalid JSON", badLine)
		}
		if !json.Valid(line) {
			badLine, badStart = lineNo, lineStart
			continue
		}
		records = append(records, json.RawMessage(line))
	}
	if badLine != 0 {
		keep = badStart
	}
	return records, keep, nil
}

// Append marshals rec as one line (a *Lines is taken as it is) and returns
// after it is durable. Safe for concurrent use. After Close it returns an
// error.
func (j *Journal) Append(rec any) error {
	return j.Enqueue(rec)()
}

// Enqueue queues rec (a *Lines: its records) and returns a wait that
// reports when it is durable. Records are written in the order Enqueue was
// called, so a caller that orders its records under its own lock can
// enqueue under that lock and wait outside it, letting records from many
// callers share one fsync.
func (j *Journal) Enqueue(rec any) (wait func() error) {
	req, err := newRequest(rec)
	if err != nil {
		return func() error { return fmt.Errorf("store: encode journal record: %w", err) }
	}

	j.mu.Lock()
	switch {
	case j.closed:
		j.mu.Unlock()
		return func() error { return ErrJournalClosed }
	case j.failed != nil:
		failed := j.failed
		j.mu.Unlock()
		return func() error { return failed }
	}
	j.pending = append(j.pending, req)
	j.mu.Unlock()

	j.wake()
	if j.hooks.afterEnqueue != nil {
		j.hooks.afterEnqueue()
	}
	done := req.done // not req: a waiter kept a while must not keep the line
	return func() error { return <-done }
}

// newRequest is the request that appends rec.
func newRequest(rec any) (appendRequest, error) {
	if lines, ok := rec.(*Lines); ok {
		if err := lines.check(); err != nil {
			return appendRequest{}, err
		}
		return appendRequest{lines: lines.Data, records: lines.Records, done: make(chan error, 1)}, nil
	}
	line, err := json.Marshal(rec) // escapes newlines inside strings: one record, one line
	if err != nil {
		return appendRequest{}, err
	}
	return appendRequest{lines: append(line, '\n'), records: 1, done: make(chan error, 1)}, nil
}

// OnCommit sets f to be called, from the writer goroutine, after each
// batch of records becomes durable (Committed has grown): a reader that
// serves only durable records waits for it. f must not wait for the
// journal.
func (j *Journal) OnCommit(f func()) {
	j.mu.Lock()
	j.onCommit = f
	j.mu.Unlock()
}

// Syncs is how many fsyncs appends have done (for tests and benchmarks of
// group commit). The fsyncs of OpenJournal are not counted.
func (j *Journal) Syncs() int64 {
	return j.syncs.Load()
}

// Committed is how many records are durable in the file: records 1 to
// Committed, numbered as OpenJournal returns them, can be read back with a
// JournalReader and will not change.
func (j *Journal) Committed() int64 {
	return j.committed.Load()
}

// Close waits for the queued appends to be committed, then closes the file.
// A second Close returns ErrJournalClosed.
func (j *Journal) Close() error {
	j.mu.Lock()
	if j.closed {
		j.mu.Unlock()
		return ErrJournalClosed
	}
	j.closed = true
	j.mu.Unlock()

	j.wake()
	<-j.stopped
	if err := j.f.Close(); err != nil {
		return fmt.Errorf("store: close journal: %w", err)
	}
	return nil
}

func (j *Journal) wake() {
	select {
	case j.kick <- struct{}{}:
	default: // a wake-up is already pending; it will see our line too
	}
}

// run is the writer goroutine: it commits whatever is queued, one batch at a
// time, until the journal is closed and nothing is left.
func (j *Journal) run() {
	defer close(j.stopped)
	for {
		<-j.kick
		for {
			batch, closed := j.takePending()
			if len(batch) == 0 {
				if closed {
					return
				}
				break
			}
			err := j.commit(batch)
			for _, req := range batch {
				req.done <- err
			}
		}
	}
}

func (j *Journal) takePending() (batch []appendRequest, closed bool) {
	j.mu.Lock()
	defer j.mu.Unlock()
	batch, j.pending = j.pending, nil
	return batch, j.closed
}

// commit writes a batch and counts its records as committed, unless an
// earlier batch failed: the file would then lack that batch's records.
func (j *Journal) commit(batch []appendRequest) error {
	err := j.write(batch)
	if err != nil {
		j.gap = true
	}
	if !j.gap {
		records := 0
		for _, req := range batch {
			records += req.records
		}
		j.committed.Add(int64(records))
		j.mu.Lock()
		notify := j.onCommit
		j.mu.Unlock()
		if notify != nil {
			notify()
		}
	}
	return err
}

// write writes a batch with one write and one fsync.
func (j *Journal) write(batch []appendRequest) error {
	if err := j.failure(); err != nil {
		return err
	}
	if j.hooks.beforeCommit != nil {
		j.hooks.beforeCommit(len(batch))
	}
	defer j.releaseLargeBuffer()
	j.buf = j.buf[:0]
	for _, req := range batch {
		j.buf = append(j.buf, req.lines...)
	}
	if _, err := j.f.Write(j.buf); err != nil {
		err = fmt.Errorf("store: append to journal %s: %w", j.path, err)
		// Cut a partial write away, or the next batch would follow a torn
		// line and turn it into corruption in the middle of the file.
		if terr := j.f.Truncate(j.size); terr != nil {
			return j.fail(fmt.Errorf("%w (and cannot truncate it back: %v)", err, terr))
		}
		return err
	}
	j.syncs.Add(1)
	if err := j.f.Sync(); err != nil {
		// After a failed fsync the kernel may have dropped the dirty pages:
		// nothing about the file can be trusted any more.
		return j.fail(fmt.Errorf("store: sync journal %s: %w", j.path, err))
	}
	j.size += int64(len(j.buf))
	countWrite(len(j.buf))
	return nil
}

// keptBufferBytes is the largest batch buffer the writer keeps for the
// next batch. A rare huge record (league_started holds the whole schedule:
// tens of MB for 1,000 players) must not stay allocated for the league's life.
const keptBufferBytes = 1 << 20

func (j *Journal) releaseLargeBuffer() {
	if cap(j.buf) > keptBufferBytes {
		j.buf = nil
	}
}

func (j *Journal) failure() error {
	j.mu.Lock()
	defer j.mu.Unlock()
	return j.failed
}

// fail makes err sticky: every later Append returns it.
func (j *Journal) fail(err error) error {
	j.mu.Lock()
	defer j.mu.Unlock()
	if j.failed == nil {
		j.failed = err
	}
	return j.failed
}

// JournalReader reads records back from a journal file by number (from 1, as
// OpenJournal numbers them) while the journal appends to it. It keeps a
// sparse index, the offset of every JournalIndexEvery-th record, built by the
// reads themselves: a read seeks to the nearest indexed record at or before
// its first one, so it costs what it returns plus at most JournalIndexEvery
// records skipped, however long the file. It also remembers where the last
// read stopped, so a reader going through the file page by page reads each
// part of it once. Safe for concurrent use; it holds no file open between
// reads.
type JournalReader struct {
	path    string
	scanned atomic.Int64

	mu    sync.Mutex
	marks []int64  // marks[i] is the offset of record i*JournalIndexEvery+1
	next  position // where the last read stopped
}

// JournalIndexEvery is the stride of a JournalReader's index: it costs 8
// bytes per that many records.
const JournalIndexEvery = 1024

// position is the offset at which a record's line starts.
type position struct{ record, offset int64 }

// NewJournalReader reads the journal at path.
func NewJournalReader(path string) *JournalReader {
	return &JournalReader{path: path, marks: []int64{0}, next: position{1, 0}}
}

// Scanned is how many bytes reads have taken from the file (for tests and
// benchmarks of the index).
func (r *JournalReader) Scanned() int64 {
	return r.scanned.Load()
}

// Read calls fn with records from to last (inclusive), in order. It stops
// early at the end of the file or at a line without its newline, one being
// appended: read only records the journal has committed to get them all.
// It returns how many records fn was given. fn must not keep the slice: it
// is reused for the next record.
func (r *JournalReader) Read(from, last int64, fn func(json.RawMessage) error) (int64, error) {
	if from < 1 || last < from {
		return 0, nil
	}
	f, err := os.Open(r.path)
	if err != nil {
		return 0, fmt.Errorf("store: read journal: %w", err)
	}
	defer f.Close()
	at := r.start(from)
	if _, err := f.Seek(at.offset, io.SeekStart); err != nil {
		return 0, fmt.Errorf("store: read journal %s: %w", r.path, err)
	}
	s := lineScanner{in: bufio.NewReaderSize(countedReader{f, &r.scanned}, 64<<10)}
	var given int64
	for at.record <= last {
		r.mark(at)
		keep := at.record >= from
		if ok, err := s.next(keep); err != nil || !ok {
			return given, err
		}
		at.offset += s.size
		if s.blank { // OpenJournal does not count it either
			continue
		}
		if keep {
			if err := fn(s.line); err != nil {
				return given, err
			}
			given++
		}
		at.record++
	}
	r.stopped(at)
	return given, nil
}

// start is the nearest known position at or before record from.
func (r *JournalReader) start(from int64) position {
	r.mu.Lock()
	defer r.mu.Unlock()
	i := min(int((from-1)/JournalIndexEvery), len(r.marks)-1)
	at := position{int64(i)*JournalIndexEvery + 1, r.marks[i]}
	if r.next.record <= from && r.next.record > at.record {
		at = r.next
	}
	return at
}

// mark indexes a record's position if it is the next one the index lacks.
func (r *JournalReader) mark(at position) {
	if (at.record-1)%JournalIndexEvery != 0 {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if int((at.record-1)/JournalIndexEvery) == len(r.marks) {
		r.marks = append(r.marks, at.offset)
	}
}

func (r *JournalReader) stopped(at position) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.next = at
}

// lineScanner reads a journal's lines one at a time, however long.
type lineScanner struct {
	in    *bufio.Reader
	line  []byte // the last line, trimmed, if it was kept; reused
	blank bool   // the last line held only spaces
	size  int64  // bytes of the last line, its newline included
}

// next reads one line, keeping its bytes only if asked (otherwise it is
// skipped without being copied). It is false at the end of the file's
// complete lines: a last line without its newline is being appended.
func (s *lineScanner) next(keep bool) (bool, error) {
	s.line, s.size, s.blank = s.line[:0], 0, true
	for {
		part, err := s.in.ReadSlice('\n')
		s.size += int64(len(part))
		s.blank = s.blank && len(bytes.TrimSpace(part)) == 0
		if keep {
			s.line = append(s.line, part...)
		}
		switch {
		case err == bufio.ErrBufferFull:
			continue
		case err == io.EOF:
			return false, nil
		case err != nil:
			return false, fmt.Errorf("store: read journal: %w", err)
		}
		s.line = bytes.TrimSpace(s.line)
		return true, nil
	}
}

// countedReader counts the bytes read through it.
type countedReader struct {
	r io.Reader
	n *atomic.Int64
}

func (c countedReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n.Add(int64(n))
	return n, err
}
