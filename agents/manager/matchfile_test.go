package manager

import (
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"
)

// TestMatchFileServed: GET /matches/{id} serves a scheduled match's file
// as its referee wrote it; an id that is not a scheduled match never
// reaches a path, and a match without a file is 404.
func TestMatchFileServed(t *testing.T) {
	m, rounds := journaledLeague(t, t.TempDir())
	defer m.journal.Close()
	played, unplayed := rounds[0].Matches[0].MatchID, rounds[0].Matches[1].MatchID
	body := `{"match_id":"` + played + `","transcript":[]}`
	path, err := m.Layout().Match(played)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	// A file beside the league's folder that a crafted id would reach.
	if err := os.WriteFile(filepath.Join(filepath.Dir(path), "..", "secret.json"), []byte("{}"), 0o644); err != nil {
		t.Fatal(err)
	}
	get := func(id string) *httptest.ResponseRecorder {
		rec := httptest.NewRecorder()
		m.Server.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/matches/"+id, nil))
		return rec
	}
	if rec := get(played); rec.Code != http.StatusOK || rec.Body.String() != body {
		t.Errorf("played match: HTTP %d %q", rec.Code, rec.Body.String())
	}
	for _, id := range []string{unplayed, "R9M9", "..%2Fsecret", "%2E%2E"} {
		if rec := get(id); rec.Code != http.StatusNotFound {
			t.Errorf("GET /matches/%s: HTTP %d %q, want 404", id, rec.Code, rec.Body.String())
		}
	}
}
