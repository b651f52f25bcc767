package leaguetest

import (
	"crypto/sha256"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
)

// FolderState is every file below dir with a hash of its content and its
// modification time, by path: two states are equal (maps.Equal) when
// nothing in the folder was written, even with the same bytes.
func FolderState(t testing.TB, dir string) map[string]string {
	t.Helper()
	files := map[string]string{}
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		data, err := os.ReadFile(path)
		files[path] = fmt.Sprintf("%x %s", sha256.Sum256(data), info.ModTime())
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// LeagueIn is the id of the one league the data folder dir holds: a
// league's id names its game, so a test that runs either game reads it
// from the folder.
func LeagueIn(t testing.TB, dir string) string {
	t.Helper()
	entries, err := os.ReadDir(filepath.Join(dir, "leagues"))
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, e := range entries {
		if e.IsDir() {
			ids = append(ids, e.Name())
		}
	}
	if len(ids) != 1 {
		t.Fatalf("%s holds leagues %v, want one", dir, ids)
	}
	return ids[0]
}
