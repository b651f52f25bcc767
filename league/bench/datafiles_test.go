package bench

import (
	"os"
	"path/filepath"
	"testing"
)

// TestMeasureDataFiles: the files are written the store's way into a
// folder of the data folder's own, their CPU is read, and nothing is left
// behind in the data folder.
func TestMeasureDataFiles(t *testing.T) {
	data := t.TempDir()
	kept := filepath.Join(data, "league.json")
	if err := os.WriteFile(kept, []byte("{}"), 0o644); err != nil {
		t.Fatal(err)
	}
	got, err := MeasureDataFiles(data)
	if err != nil {
		t.Fatal(err)
	}
	if !got.Known || got.Files != dataFileProbes || got.Bytes != 5000 || got.CPUPerFile <= 0 {
		t.Errorf("measured %+v, want %d files of 5000 B and a CPU time > 0", got, dataFileProbes)
	}
	entries, err := os.ReadDir(data)
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != 1 || entries[0].Name() != "league.json" {
		t.Errorf("the data folder holds %v after the measure, want only what was there", entries)
	}
}
