package main_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// leaguetui scan and export refuse a command line they cannot read with
// one line and status 2, and a league the folder does not hold with one
// naming those it does.
func TestScanAndExportCommandLines(t *testing.T) {
	data := t.TempDir()
	if err := os.MkdirAll(filepath.Join(data, "leagues", "league_a"), 0o755); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		args   []string
		status int
		want   string
	}{
		{[]string{"scan"}, 2, "name the data folder"},
		{[]string{"scan", data, "--season", data}, 2, "a data folder or --season, not both"},
		{[]string{"export", data}, 2, `--format "": want jsonl or csv`},
		{[]string{"export", data, "--format", "xml"}, 2, `--format "xml": want jsonl or csv`},
		{[]string{"export", "--season", data, "--format", "csv"}, 2, "--format csv exports one league"},
		{[]string{"scan", data, "--league", "league_b"}, 1, `holds no league "league_b" (it holds: league_a)`},
	}
	for _, tt := range tests {
		stdout, stderr, status := run(t, tt.args...)
		lines := strings.Split(strings.TrimSpace(stderr), "\n")
		if status != tt.status || stdout != "" || len(lines) != 1 || !strings.Contains(lines[0], tt.want) {
			t.Errorf("%v: status %d, stdout %q, stderr %q; want status %d and one line saying %q", tt.args, status, stdout, stderr,
				tt.status, tt.want)
		}
	}
	// A league without a match yet scans to an empty table.
	stdout, stderr, status := run(t, "scan", data)
	if status != 0 || !strings.Contains(stdout, "no model player in these matches") {
		t.Errorf("an empty league: status %d, stdout %q, stderr %q", status, stdout, stderr)
	}
}
