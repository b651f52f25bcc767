package referee

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/leaguetui/leaguetui/config"
)

// The phone book (agents/agents_config.json) gives players' endpoints when
// neither the announcement nor the manager does, in any of the spellings
// managers and phone books use.
func TestPhoneBookEndpoints(t *testing.T) {
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "agents"), 0o755); err != nil {
		t.Fatal(err)
	}
	book := `{"players":[{"player_id":"P01","default_endpoint":"http://10.0.0.1:8101/mcp"},
		{"player_id":"P02","endpoint":"http://10.0.0.2:8102/mcp"},{"player_id":"P03","contact_endpoint":"http://10.0.0.3:8103/mcp"}]}`
	if err := os.WriteFile(filepath.Join(dir, "agents", "agents_config.json"), []byte(book), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg := config.Default()
	cfg.Dir = dir
	r := &Referee{opts: Options{Config: cfg}}
	got := r.phoneBook(context.Background())
	want := map[string]string{"P01": "http://10.0.0.1:8101/mcp", "P02": "http://10.0.0.2:8102/mcp", "P03": "http://10.0.0.3:8103/mcp"}
	for id, e := range want {
		if got[id] != e {
			t.Errorf("%s: %q, want %q", id, got[id], e)
		}
	}
}
