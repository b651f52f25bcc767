// Package hostile_test attacks a real league, every agent its own process,
// the way a competitor's player or a stranger on the network would: paths
// climbed with ids, registrations replayed and impersonated, names that are
// duplicates, too long or escape sequences, referees without a key, forged
// start_match, move calls and results. Each attack must be refused, and
// must leave the standings and every data file as they were; at the end the
// league still plays to its end as if nothing had happened.
package hostile_test

import (
	"crypto/sha256"
	"encoding/hex"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/leaguetui/leaguetui/internal/leaguetest"
)

func TestMain(m *testing.M) { leaguetest.Main(m) }

const leagueID = "league_2025_even_odd"

// snapshot is every file of a folder by its path, with a hash of its
// content; logs are left out, since a refusal is logged.
type snapshot map[string]string

func takeSnapshot(t *testing.T, root string) snapshot {
	t.Helper()
	snap := snapshot{}
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		if d.IsDir() {
			if rel == "logs" || rel == "test-output" {
				return filepath.SkipDir
			}
			return nil
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		sum := sha256.Sum256(data)
		snap[filepath.ToSlash(rel)] = hex.EncodeToString(sum[:])
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return snap
}

// unchanged fails the test for every file added, removed or changed since
// before.
func (before snapshot) unchanged(t *testing.T, root string) {
	t.Helper()
	after := takeSnapshot(t, root)
	for path, sum := range after {
		if old, ok := before[path]; !ok {
			t.Errorf("the attack created %s", path)
		} else if old != sum {
			t.Errorf("the attack changed %s", path)
		}
	}
	for path := range before {
		if _, ok := after[path]; !ok {
			t.Errorf("the attack removed %s", path)
		}
	}
}

// nestedDataDir is a data folder three levels down a fresh folder, so a
// path that climbs out of it still lands where the test can look.
func nestedDataDir(t *testing.T) (base, data string) {
	base = t.TempDir()
	data = filepath.Join(base, "a", "b", "data")
	if err := os.MkdirAll(data, 0o755); err != nil {
		t.Fatal(err)
	}
	return base, data
}

// nothingOutside fails the test if anything but the data folder's own
// parents appeared under base.
func nothingOutside(t *testing.T, base, data string) {
	t.Helper()
	err := filepath.WalkDir(base, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if path == data {
			return filepath.SkipDir
		}
		if !d.IsDir() || !strings.HasPrefix(data, path) {
			t.Errorf("written outside the data folder: %s", path)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// wantRefusal fails the test unless reply refuses the request, as a
// LEAGUE_ERROR result or a JSON-RPC error, with the league error code and
// a text that mentions about.
func wantRefusal(t *testing.T, reply leaguetest.Reply, code, about string) {
	t.Helper()
	var gotCode, text string
	switch {
	case reply.Error != nil:
		gotCode, _ = reply.Error.Data["error_code"].(string)
		text = reply.Error.Message
	case reply.String("message_type") == "LEAGUE_ERROR":
		gotCode, text = reply.String("error_code"), reply.String("error_description")
	case reply.String("status") == "REJECTED":
		gotCode, text = reply.String("error_code"), reply.String("reason")
	default:
		t.Errorf("not refused: %s", reply.Body)
		return
	}
	if gotCode != code || !strings.Contains(text, about) {
		t.Errorf("refused with %s %q; want %s about %q\n%s", gotCode, text, code, about, reply.Body)
	}
}
