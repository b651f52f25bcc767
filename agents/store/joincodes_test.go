package store_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/leaguetui/leaguetui/agents/store"
)

// TestJoinCodesKept: join codes are made once, long and distinct, in a
// file only its owner may read, and a later run keeps them (an entry's
// author may hold one already), whatever the case of the name, adding
// codes only for names new to it.
func TestJoinCodesKept(t *testing.T) {
	path := store.Layout{Root: t.TempDir()}.JoinCodes()
	first, err := store.EnsureJoinCodes(path, []string{"carol", "dave"})
	if err != nil {
		t.Fatal(err)
	}
	if len(first["carol"]) < 32+len("join-") || first["carol"] == first["dave"] {
		t.Errorf("codes %v, want two distinct long secrets", first)
	}
	info, err := os.Stat(path)
	if err != nil || info.Mode().Perm() != 0o600 || filepath.Base(path) != "join-codes.json" {
		t.Fatalf("%s: %v (%v), want join-codes.json, mode 0600", path, info, err)
	}
	again, err := store.EnsureJoinCodes(path, []string{"Carol", "erin"})
	if err != nil {
		t.Fatal(err)
	}
	if again["Carol"] != first["carol"] || again["erin"] == "" || len(again) != 2 {
		t.Errorf("the second run's codes %v, want carol's kept and one for erin", again)
	}
	kept, err := store.LoadJoinCodes(path)
	if err != nil || len(kept) != 3 || kept["dave"] != first["dave"] {
		t.Errorf("the file holds %v (%v), want carol's, dave's and erin's", kept, err)
	}
	if code, ok := kept.Lookup("DAVE"); !ok || code != first["dave"] {
		t.Errorf("Lookup(DAVE) = %q, %v; want dave's code", code, ok)
	}
}

// TestForgetJoinCodes: a name's code leaves the file, whatever its case,
// and the others stay; a file without it is left as it is.
func TestForgetJoinCodes(t *testing.T) {
	path := filepath.Join(t.TempDir(), "join-codes.json")
	if _, err := store.EnsureJoinCodes(path, []string{"carol", "Agent Alpha"}); err != nil {
		t.Fatal(err)
	}
	if err := store.ForgetJoinCodes(path, []string{"agent alpha", "nobody"}); err != nil {
		t.Fatal(err)
	}
	codes, err := store.LoadJoinCodes(path)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := codes.Lookup("Agent Alpha"); ok || len(codes) != 1 || codes["carol"] == "" {
		t.Errorf("codes after forgetting Agent Alpha: %v, want carol's alone", codes)
	}
	if err := store.ForgetJoinCodes(filepath.Join(t.TempDir(), "none.json"), []string{"carol"}); err != nil {
		t.Errorf("forgetting in a missing file: %v", err)
	}
}
