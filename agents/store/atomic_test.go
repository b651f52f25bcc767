package store

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"sync"
	"testing"
)

type sample struct {
	LeagueID string   `json:"league_id"`
	Version  int      `json:"version"`
	Players  []string `json:"players"`
}

func TestWriteJSONReadJSONRoundTrip(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "leagues", "L1", "standings.json") // parents do not exist yet
	want := sample{LeagueID: "L1", Version: 3, Players: []string{"P01", "P02"}}

	if err := WriteJSON(path, want); err != nil {
		t.Fatal(err)
	}
	var got sample
	if err := ReadJSON(path, &got); err != nil {
		t.Fatal(err)
	}
	if got.LeagueID != want.LeagueID || got.Version != want.Version || len(got.Players) != 2 {
		t.Errorf("read %+v, want %+v", got, want)
	}
	info, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if perm := info.Mode().Perm(); perm != filePerm {
		t.Errorf("mode %v, want %v", perm, os.FileMode(filePerm))
	}
	assertOnlyFiles(t, filepath.Dir(path), "standings.json")
}

func TestWriteJSONOverwrite(t *testing.T) {
	path := filepath.Join(t.TempDir(), "rounds.json")
	// The second value is shorter: a non-atomic rewrite in place would leave
	// the first value's tail behind.
	for _, v := range []sample{
		{LeagueID: "L1", Version: 1, Players: []string{"P01", "P02", "P03", "P04"}},
		{LeagueID: "L1", Version: 2},
	} {
		if err := WriteJSON(path, v); err != nil {
			t.Fatal(err)
		}
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !json.Valid(data) {
		t.Fatalf("file is not valid JSON after overwrite:\n%s", data)
	}
	var got sample
	if err := json.Unmarshal(data, &got); err != nil || got.Version != 2 || got.Players != nil {
		t.Errorf("got %+v (%v), want version 2 and no players", got, err)
	}
	assertOnlyFiles(t, filepath.Dir(path), "rounds.json")
}

// Readers racing with writers must always see a whole file.
func TestWriteJSONConcurrentReaders(t *testing.T) {
	path := filepath.Join(t.TempDir(), "standings.json")
	if err := WriteJSON(path, sample{Version: 0}); err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	wg.Go(func() {
		for v := 1; v <= 50; v++ {
			if err := WriteJSON(path, sample{Version: v, Players: make([]string, v%7)}); err != nil {
				t.Error(err)
				return
			}
		}
	})
	for range 4 {
		wg.Go(func() {
			for range 50 {
				var s sample
				if err := ReadJSON(path, &s); err != nil {
					t.Errorf("reader saw a broken file: %v", err)
					return
				}
			}
		})
	}
	wg.Wait()
	assertOnlyFiles(t, filepath.Dir(path), "standings.json")
}

func TestWriteJSONUnencodable(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "bad.json")
	if err := WriteJSON(path, map[string]any{"c": make(chan int)}); err == nil {
		t.Fatal("WriteJSON of a channel succeeded")
	}
	assertOnlyFiles(t, dir)
}

func TestReadJSONErrors(t *testing.T) {
	dir := t.TempDir()
	garbage := filepath.Join(dir, "garbage.json")
	if err := os.WriteFile(garbage, []byte(`{"league_id":`), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name     string
		path     string
		notExist bool
	}{
		{"missing", filepath.Join(dir, "missing.json"), true},
		{"invalid", garbage, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var s sample
			err := ReadJSON(tt.path, &s)
			if err == nil {
				t.Fatal("ReadJSON succeeded")
			}
			if got := errors.Is(err, os.ErrNotExist); got != tt.notExist {
				t.Errorf("errors.Is(%v, os.ErrNotExist) = %v, want %v", err, got, tt.notExist)
			}
		})
	}
}

// assertOnlyFiles fails unless dir holds exactly the named files (so no temp
// file was left behind).
func assertOnlyFiles(t *testing.T, dir string, names ...string) {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range entries {
		got = append(got, e.Name())
	}
	if len(got) != len(names) {
		t.Fatalf("folder holds %q, want %q", got, names)
	}
	for i := range names {
		if got[i] != names[i] {
			t.Fatalf("folder holds %q, want %q", got, names)
		}
	}
}

// TestRemoveTempFiles: the temporary files of atomic writes cut short go,
// every other file stays.
func TestRemoveTempFiles(t *testing.T) {
	root := t.TempDir()
	keep := []string{filepath.Join(root, "matches", "L", "R1M1.json"), filepath.Join(root, ".hidden")}
	cut := []string{filepath.Join(root, "matches", "L", ".R1M2.json.tmp-123"), filepath.Join(root, "players", "P01", ".history.json.tmp-9")}
	for _, path := range append(append([]string{}, keep...), cut...) {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte("{}"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := RemoveTempFiles(root); err != nil {
		t.Fatal(err)
	}
	for _, path := range keep {
		if _, err := os.Stat(path); err != nil {
			t.Errorf("%s: %v, want it kept", path, err)
		}
	}
	for _, path := range cut {
		if _, err := os.Stat(path); !os.IsNotExist(err) {
			t.Errorf("%s is still there", path)
		}
	}
}

// TestWriteAtomicMakesMissingFolders: the folder is made when the temp
// file cannot be created in it, and a write into an existing folder
// needs no more than the file.
func TestWriteAtomicMakesMissingFolders(t *testing.T) {
	root := t.TempDir()
	path := filepath.Join(root, "a", "b", "match.json")
	for _, content := range []string{"first\n", "second\n"} {
		if err := WriteFileAtomic(path, []byte(content)); err != nil {
			t.Fatal(err)
		}
		got, err := os.ReadFile(path)
		if err != nil || string(got) != content {
			t.Fatalf("read %q, %v; want %q", got, err, content)
		}
	}
	blocked := filepath.Join(root, "file")
	if err := os.WriteFile(blocked, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := WriteFileAtomic(filepath.Join(blocked, "x.json"), []byte("{}")); err == nil {
		t.Error("a write under a file (not a folder) succeeded")
	}
}

// TestWriteAtomicNeverReplacesAFolder: a file is never moved over a
// folder of the same name, empty or not, and the temp file goes.
func TestWriteAtomicNeverReplacesAFolder(t *testing.T) {
	root := t.TempDir()
	for _, name := range []string{"empty", "full"} {
		path := filepath.Join(root, name)
		if err := os.Mkdir(path, 0o755); err != nil {
			t.Fatal(err)
		}
		if name == "full" {
			if err := os.WriteFile(filepath.Join(path, "inside"), nil, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		if err := WriteFileAtomic(path, []byte("{}")); err == nil {
			t.Errorf("%s folder: the write succeeded", name)
		}
		if info, err := os.Stat(path); err != nil || !info.IsDir() {
			t.Errorf("%s folder: %v, %v after the write; want it still a folder", name, info, err)
		}
	}
	entries, err := os.ReadDir(root)
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != 2 {
		t.Errorf("%d entries left, want the 2 folders and no temp file: %v", len(entries), entries)
	}
}
