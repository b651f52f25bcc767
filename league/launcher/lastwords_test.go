package launcher

import (
	"os"
	"path/filepath"
	"testing"
)

// A roster program's message about staying down quotes its last lines
// and names the path a permission error of its names, with how to grant it.
func TestLastWordsNameARefusedPath(t *testing.T) {
	dir := t.TempDir()
	log := filepath.Join(dir, "quitter.log")
	output := "leaguetui: program quitter: files confined\nstarting\nPermissionError: [Errno 13] Permission denied: '" + dir + "'\n"
	if err := os.WriteFile(log, []byte(output), 0o644); err != nil {
		t.Fatal(err)
	}
	want := "; its last output: starting | PermissionError: [Errno 13] Permission denied: '" + dir + "'; the sandbox may have denied it " +
		dir + `: grant it with its roster entry's "read"`
	if got := lastWords(log); got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	if got := lastWords(filepath.Join(dir, "none.log")); got != "" {
		t.Errorf("no log: %q", got)
	}
}
