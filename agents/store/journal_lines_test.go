package store

import (
	"path/filepath"
	"testing"
)

// TestJournalTakesLines: records given already encoded, several at once,
// are written as they are and counted one a line, between records the
// journal encodes itself; lines that are not as many whole lines as said
// are refused and nothing of them is written.
func TestJournalTakesLines(t *testing.T) {
	path := filepath.Join(t.TempDir(), "journal.jsonl")
	j, _ := openTestJournal(t, path)
	if err := j.Append(event{I: 1}); err != nil {
		t.Fatal(err)
	}
	lines := &Lines{Data: []byte("{\"i\":2}\n{\"g\":1,\"i\":3}\n"), Records: 2}
	if err := j.Enqueue(lines)(); err != nil {
		t.Fatal(err)
	}
	for _, bad := range []*Lines{
		{Data: []byte(`{"i":9}`), Records: 1},
		{Data: []byte("{\"i\":9}\n{\"i\":9}\n"), Records: 1},
		{Data: []byte("{\"i\":9}\n"), Records: 2},
		{Data: nil, Records: 0},
	} {
		if err := j.Append(bad); err == nil {
			t.Errorf("the journal took %d records in %q", bad.Records, bad.Data)
		}
	}
	if err := j.Append(event{I: 4}); err != nil {
		t.Fatal(err)
	}
	if got := j.Committed(); got != 4 {
		t.Errorf("Committed is %d after 4 records", got)
	}
	got := decodeEvents(t, reopen(t, j, path))
	want := []event{{I: 1}, {I: 2}, {G: 1, I: 3}, {I: 4}}
	if len(got) != len(want) {
		t.Fatalf("the journal holds %v, want %v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("record %d is %v, want %v", i+1, got[i], want[i])
		}
	}
}
