package store

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

type event struct {
	G int `json:"g"`
	I int `json:"i"`
}

func openTestJournal(t *testing.T, path string) (*Journal, []json.RawMessage) {
	t.Helper()
	j, recs, err := OpenJournal(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { j.Close() })
	return j, recs
}

func decodeEvents(t *testing.T, recs []json.RawMessage) []event {
	t.Helper()
	events := make([]event, len(recs))
	for i, r := range recs {
		if err := json.Unmarshal(r, &events[i]); err != nil {
			t.Fatalf("record %d %s: %v", i, r, err)
		}
	}
	return events
}

// reopen closes j and returns the records a fresh OpenJournal finds.
func reopen(t *testing.T, j *Journal, path string) []json.RawMessage {
	t.Helper()
	if err := j.Close(); err != nil {
		t.Fatal(err)
	}
	_, recs := openTestJournal(t, path)
	return recs
}

func TestJournalAppendReopen(t *testing.T) {
	path := filepath.Join(t.TempDir(), "leagues", "L1", "journal.jsonl")
	j, recs := openTestJournal(t, path)
	if len(recs) != 0 {
		t.Fatalf("new journal has %d records", len(recs))
	}
	const n = 25
	for i := range n {
		if err := j.Append(event{I: i}); err != nil {
			t.Fatal(err)
		}
	}
	if s := j.Syncs(); s != n {
		t.Errorf("Syncs() = %d after %d sequential appends, want %d", s, n, n)
	}
	events := decodeEvents(t, reopen(t, j, path))
	if len(events) != n {
		t.Fatalf("reopen found %d records, want %d", len(events), n)
	}
	for i, e := range events {
		if e.I != i {
			t.Fatalf("record %d is %+v: out of order", i, e)
		}
	}
}

func TestJournalTornLastLine(t *testing.T) {
	tests := []struct {
		name string
		tail string
	}{
		{"no trailing newline", `{"g":0,"i":9`},
		{"valid JSON without newline", `{"g":0,"i":9}`},
		{"invalid JSON with newline", "{\"g\":0,\"i\"\n"},
		{"invalid JSON then blank lines", "{\"g\":\n\n  \n"},
		{"zeros from a crash", "\x00\x00\x00"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "journal.jsonl")
			j, _ := openTestJournal(t, path)
			for i := range 3 {
				if err := j.Append(event{I: i}); err != nil {
					t.Fatal(err)
				}
			}
			if err := j.Close(); err != nil {
				t.Fatal(err)
			}
			good := fileSize(t, path)
			appendRaw(t, path, tt.tail)

			j, recs := openTestJournal(t, path)
			if len(recs) != 3 {
				t.Fatalf("got %d records, want 3", len(recs))
			}
			if size := fileSize(t, path); size != good {
				t.Fatalf("file is %d bytes after open, want %d (torn line truncated)", size, good)
			}
			if err := j.Append(event{I: 3}); err != nil {
				t.Fatal(err)
			}
			events := decodeEvents(t, reopen(t, j, path))
			if len(events) != 4 || events[3].I != 3 {
				t.Fatalf("after a clean append got %+v", events)
			}
		})
	}
}

func TestJournalCorruptMiddleLine(t *testing.T) {
	tests := []struct {
		name    string
		content string
		line    int
	}{
		{"second of three", "{\"i\":0}\n{\"i\":\n{\"i\":2}\n", 2},
		{"first, before a torn tail", "garbage\n{\"i\":1}\n{\"i\"", 1},
		{"before a blank line and a record", "{\"i\":0}\n\n}\n\n{\"i\":3}\n", 3},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "journal.jsonl")
			appendRaw(t, path, tt.content)
			j, _, err := OpenJournal(path)
			if err == nil {
				j.Close()
				t.Fatal("OpenJournal accepted a corrupt journal")
			}
			if !errors.Is(err, ErrCorruptJournal) {
				t.Errorf("error %v does not wrap ErrCorruptJournal", err)
			}
			if want := fmt.Sprintf("line %d:", tt.line); !strings.Contains(err.Error(), want) {
				t.Errorf("error %q does not name %q", err, want)
			}
			if got := fileSize(t, path); got != int64(len(tt.content)) {
				t.Errorf("a corrupt journal was modified: %d bytes, want %d", got, len(tt.content))
			}
		})
	}
}

func TestJournalConcurrentAppends(t *testing.T) {
	const goroutines, each = 50, 20
	path := filepath.Join(t.TempDir(), "journal.jsonl")
	j, _ := openTestJournal(t, path)

	var wg sync.WaitGroup
	for g := range goroutines {
		wg.Go(func() {
			for i := range each {
				if err := j.Append(event{G: g, I: i}); err != nil {
					t.Error(err)
					return
				}
			}
		})
	}
	wg.Wait()
	if s := j.Syncs(); s < 1 || s > goroutines*each {
		t.Errorf("Syncs() = %d, want between 1 and %d", s, goroutines*each)
	}
	t.Logf("%d records in %d fsyncs", goroutines*each, j.Syncs())

	events := decodeEvents(t, reopen(t, j, path))
	if len(events) != goroutines*each {
		t.Fatalf("got %d records, want %d", len(events), goroutines*each)
	}
	next := make(map[int]int) // per goroutine, the next i expected
	for _, e := range events {
		if e.I != next[e.G] {
			t.Fatalf("goroutine %d: record %d where %d was expected (lost, duplicated or reordered)", e.G, e.I, next[e.G])
		}
		next[e.G]++
	}
}

// TestJournalGroupCommit holds the writer in its first commit until every
// append is queued, so the rest must go in one batch: no timing involved.
func TestJournalGroupCommit(t *testing.T) {
	const n = 1000
	var (
		queued  sync.WaitGroup
		release = make(chan struct{})
		mu      sync.Mutex
		batches []int
	)
	queued.Add(n)
	hooks := journalHooks{
		afterEnqueue: queued.Done,
		beforeCommit: func(size int) {
			mu.Lock()
			batches = append(batches, size)
			mu.Unlock()
			<-release
		},
	}
	path := filepath.Join(t.TempDir(), "journal.jsonl")
	j, _, err := openJournal(path, hooks)
	if err != nil {
		t.Fatal(err)
	}
	defer j.Close()

	var appends sync.WaitGroup
	for i := range n {
		appends.Go(func() {
			if err := j.Append(event{I: i}); err != nil {
				t.Error(err)
			}
		})
	}
	queued.Wait()
	close(release)
	appends.Wait()

	mu.Lock()
	defer mu.Unlock()
	total := 0
	for _, b := range batches {
		total += b
	}
	if total != n || len(batches) > 2 {
		t.Fatalf("batches %v: want at most 2 holding %d records", batches, n)
	}
	if s := j.Syncs(); s != int64(len(batches)) {
		t.Errorf("Syncs() = %d, want one per batch (%d)", s, len(batches))
	}
	if recs := reopen(t, j, path); len(recs) != n {
		t.Errorf("got %d records, want %d", len(recs), n)
	}
}

func TestJournalAppendErrors(t *testing.T) {
	path := filepath.Join(t.TempDir(), "journal.jsonl")
	j, _ := openTestJournal(t, path)

	if err := j.Append(map[string]any{"c": make(chan int)}); err == nil {
		t.Error("Append of a channel succeeded")
	}
	if err := j.Append(json.RawMessage(`{"broken"`)); err == nil {
		t.Error("Append of invalid raw JSON succeeded")
	}
	if err := j.Append(json.RawMessage("{\n\"multi\": \"line\"\n}")); err != nil {
		t.Errorf("Append of multi-line raw JSON: %v", err)
	}
	if err := j.Close(); err != nil {
		t.Fatal(err)
	}
	if err := j.Append(event{}); !errors.Is(err, ErrJournalClosed) {
		t.Errorf("Append after Close = %v, want ErrJournalClosed", err)
	}
	if err := j.Close(); !errors.Is(err, ErrJournalClosed) {
		t.Errorf("second Close = %v, want ErrJournalClosed", err)
	}

	_, recs := openTestJournal(t, path)
	if len(recs) != 1 || string(recs[0]) != `{"multi":"line"}` {
		t.Errorf("records %q, want the one compacted record", recs)
	}
}

// A journal whose file cannot be written stops accepting appends for good:
// its state on disk is unknown.
func TestJournalWriteFailureIsSticky(t *testing.T) {
	path := filepath.Join(t.TempDir(), "journal.jsonl")
	j, _ := openTestJournal(t, path)
	j.f.Close() // pull the file out from under the writer

	first := j.Append(event{I: 1})
	if first == nil {
		t.Fatal("Append to a closed file succeeded")
	}
	if err := j.Append(event{I: 2}); err == nil || err.Error() != first.Error() {
		t.Errorf("second Append = %v, want the sticky %v", err, first)
	}
}

func fileSize(t *testing.T, path string) int64 {
	t.Helper()
	info, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	return info.Size()
}

func appendRaw(t *testing.T, path, s string) {
	t.Helper()
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.WriteString(s); err != nil {
		t.Fatal(err)
	}
}

// BenchmarkJournalAppendParallel measures group commit under contention: the
// more goroutines append at once, the fewer fsyncs each record costs.
func BenchmarkJournalAppendParallel(b *testing.B) {
	j, _, err := OpenJournal(filepath.Join(b.TempDir(), "journal.jsonl"))
	if err != nil {
		b.Fatal(err)
	}
	defer j.Close()
	b.SetParallelism(16) // 16 × GOMAXPROCS appenders, like a busy round
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			if err := j.Append(event{G: 1, I: 2}); err != nil {
				b.Error(err)
				return
			}
		}
	})
	b.StopTimer()
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "records/s")
	b.ReportMetric(float64(j.Syncs())/float64(b.N), "syncs/record")
}

// TestJournalReleasesLargeBuffer: after a huge record (league_started holds
// a whole schedule) the writer does not keep its batch buffer that large.
func TestJournalReleasesLargeBuffer(t *testing.T) {
	j, _, err := OpenJournal(filepath.Join(t.TempDir(), "journal.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	huge := map[string]string{"schedule": strings.Repeat("R1M1 P01 P02 ", 300_000)}
	if err := j.Append(huge); err != nil {
		t.Fatal(err)
	}
	if err := j.Append(map[string]int{"seq": 2}); err != nil {
		t.Fatal(err)
	}
	if err := j.Close(); err != nil {
		t.Fatal(err)
	}
	if cap(j.buf) > keptBufferBytes { // the writer has exited: no race
		t.Errorf("the writer keeps a %d-byte buffer after a huge record, want at most %d", cap(j.buf), keptBufferBytes)
	}
}
