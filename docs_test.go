package leaguetui_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestReadmeLinksEveryPage: the README's index links every page of docs/,
// so no page is written that a reader cannot find from the front page.
func TestReadmeLinksEveryPage(t *testing.T) {
	readme, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	pages, err := filepath.Glob("docs/*.md")
	if err != nil {
		t.Fatal(err)
	}
	if len(pages) == 0 {
		t.Fatal("no page in docs/")
	}
	for _, page := range pages {
		if !strings.Contains(string(readme), "("+filepath.ToSlash(page)+")") {
			t.Errorf("README.md does not link %s: add it to the documentation index", page)
		}
	}
}
