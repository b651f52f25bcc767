package pages

import (
	"context"
	"database/sql"
	"net/http/httptest"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/leaguetui/leaguetui/agents/mcpserve"
	"github.com/leaguetui/leaguetui/config"
)

func TestLoadJSONL(t *testing.T) {
	path := filepath.Join(t.TempDir(), "graph.jsonl")
	lines := `{"title":"Paris","links":["France","Seine"],"summary":"Capital of France"}

{"title":"France","links":["Paris"]}
`
	if err := os.WriteFile(path, []byte(lines), 0o644); err != nil {
		t.Fatal(err)
	}
	g, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if p, _ := g.Page("Paris"); !reflect.DeepEqual(p.Links, []string{"France", "Seine"}) || p.Summary != "Capital of France" {
		t.Errorf("Paris = %+v", p)
	}
	if !reflect.DeepEqual(g.Titles(), []string{"France", "Paris"}) {
		t.Errorf("titles %v", g.Titles())
	}
	if err := os.WriteFile(path, []byte("{\"links\":[]}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Load(path); err == nil {
		t.Error("a page without a title loaded")
	}
}

// A file in the WikiRace Arena schema: core_articles(title, links_json).
func TestLoadSQLite(t *testing.T) {
	path := filepath.Join(t.TempDir(), "wikihop.db")
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	for _, stmt := range []string{
		"CREATE TABLE core_articles (title TEXT, links_json TEXT)",
		`INSERT INTO core_articles VALUES ('Paris', '["France","Seine"]'), ('France', '["Paris"]'), ('Seine', NULL)`,
	} {
		if _, err := db.Exec(stmt); err != nil {
			t.Fatal(err)
		}
	}
	db.Close()
	g, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if p, _ := g.Page("Paris"); !reflect.DeepEqual(p.Links, []string{"France", "Seine"}) {
		t.Errorf("Paris = %+v", p)
	}
	if p, ok := g.Page("Seine"); !ok || len(p.Links) != 0 {
		t.Errorf("Seine = %+v, %v", p, ok)
	}
	if _, err := Load(filepath.Join(t.TempDir(), "missing.db")); err == nil {
		t.Error("a missing file loaded")
	}
}

func TestGenerateIsReproducible(t *testing.T) {
	a, b := Generate(7, 50), Generate(7, 50)
	if !reflect.DeepEqual(a, b) || len(a.Titles()) != 50 {
		t.Fatalf("two graphs of seed 7 differ, or not 50 pages (%d)", len(a.Titles()))
	}
	if reflect.DeepEqual(a.Titles(), Generate(8, 50).Titles()) {
		t.Error("seeds 7 and 8 gave the same pages")
	}
	for _, title := range a.Titles() {
		p, _ := a.Page(title)
		if len(p.Links) == 0 {
			t.Errorf("%s has no links", title)
		}
	}
}

// The page server over real HTTP, read by the referee's navigator.
func TestServerThroughNavigator(t *testing.T) {
	g := Generate(3, 40)
	srv := httptest.NewServer(Handler(NewServer(g)))
	defer srv.Close()
	nav, err := mcpserve.ConnectPages(context.Background(), srv.URL+"/mcp", config.Pages{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer nav.Close()
	if nav.Capability() != "navigate" {
		t.Errorf("capability %q", nav.Capability())
	}
	titles, err := nav.Titles()
	if err != nil || !reflect.DeepEqual(titles, g.Titles()) {
		t.Fatalf("titles %v, %v", titles, err)
	}
	want, _ := g.Page(titles[0])
	got, err := nav.Page(titles[0])
	if err != nil || !reflect.DeepEqual(got, want) {
		t.Errorf("page %+v, %v; want %+v", got, err, want)
	}
	if _, err := nav.Page("No Such Page"); err == nil {
		t.Error("an unknown page is no error")
	}
}
