package store_test

import (
	"os"
	"slices"
	"testing"

	"github.com/leaguetui/leaguetui/agents/store"
)

// TestStartSpecRoundTrip: a folder without league-start.json has none, a
// saved one reads back as it was, and a file that is not one is an error
// naming it.
func TestStartSpecRoundTrip(t *testing.T) {
	dir := t.TempDir()
	if _, ok, err := store.LoadStartSpec(dir); ok || err != nil {
		t.Fatalf("a new folder: ok %v, err %v; want no start spec and no error", ok, err)
	}
	want := store.StartSpec{Args: []string{"--games-per-pair=3", "--roster=/abs/roster.json", "--players=4"}}
	if err := store.SaveStartSpec(dir, want); err != nil {
		t.Fatal(err)
	}
	got, ok, err := store.LoadStartSpec(dir)
	if err != nil || !ok || !slices.Equal(got.Args, want.Args) {
		t.Fatalf("read back %+v (ok %v, err %v), want %+v", got, ok, err, want)
	}
	if err := os.WriteFile(store.StartSpecFile(dir), []byte("not json"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, _, err := store.LoadStartSpec(dir); err == nil {
		t.Error("a league-start.json that is not JSON was read")
	}
}
