package store

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"
)

func TestLayoutPaths(t *testing.T) {
	root := filepath.FromSlash("/data")
	l := Layout{Root: root, LeagueID: "league_2025_even_odd"}
	must := func(path string, err error) string {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		return path
	}
	tests := []struct {
		name, got, want string
	}{
		{"LeagueDir", l.LeagueDir(), "leagues/league_2025_even_odd"},
		{"Standings", l.Standings(), "leagues/league_2025_even_odd/standings.json"},
		{"Rounds", l.Rounds(), "leagues/league_2025_even_odd/rounds.json"},
		{"LeagueInfo", l.LeagueInfo(), "leagues/league_2025_even_odd/league.json"},
		{"Journal", l.Journal(), "leagues/league_2025_even_odd/journal.jsonl"},
		{"MatchesDir", l.MatchesDir(), "matches/league_2025_even_odd"},
		{"Match", must(l.Match("R1M1")), "matches/league_2025_even_odd/R1M1.json"},
		{"PlayerHistory", must(l.PlayerHistory("P01")), "players/P01/history.json"},
		{"LeagueLog", l.LeagueLog(), "logs/league/league_2025_even_odd/league.log.jsonl"},
		{"AgentLog", must(l.AgentLog("REF01")), "logs/agents/REF01.log.jsonl"},
		{"Credentials", must(l.Credentials("P01")), "credentials/league_2025_even_odd/P01.json"},
		{"SystemLog", l.SystemLog(), "logs/system/orchestrator.log.jsonl"},
		{"ProcessOutput", must(l.ProcessOutput("P01")), "logs/system/P01.out"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if want := filepath.Join(root, filepath.FromSlash(tt.want)); tt.got != want {
				t.Errorf("got %q, want %q", tt.got, want)
			}
		})
	}
}

func TestSafeName(t *testing.T) {
	tests := []struct {
		id string
		ok bool
	}{
		{"P01", true},
		{"REF01", true},
		{"R1M1", true},
		{"league_2025_even-odd.v2", true},
		{"...", false},
		{"a..b", false},
		{".hidden", false},
		{"-flag", false},
		{"_x", false},
		{"x.", true},
		{"conv-7c9e6679-7425-40de-944b-e07fc1f90ae7", true},
		{"../x", false},
		{"a/b", false},
		{`a\b`, false},
		{"", false},
		{"a b", false},
		{"..", false},
		{".", false},
		{"P01\x00", false},
		{"Pé", false},
		{strings.Repeat("a", maxNameLen), true},
		{strings.Repeat("a", maxNameLen+1), false},
	}
	for _, tt := range tests {
		t.Run(tt.id, func(t *testing.T) {
			err := SafeName(tt.id)
			if (err == nil) != tt.ok {
				t.Fatalf("SafeName(%q) = %v, want ok=%v", tt.id, err, tt.ok)
			}
			if err != nil && !errors.Is(err, ErrUnsafeName) {
				t.Errorf("error %v does not wrap ErrUnsafeName", err)
			}
		})
	}
}

func TestLayoutValidate(t *testing.T) {
	tests := []struct {
		layout Layout
		ok     bool
	}{
		{Layout{Root: "data", LeagueID: "L1"}, true},
		{Layout{Root: "", LeagueID: "L1"}, false},
		{Layout{Root: "data", LeagueID: "../L1"}, false},
	}
	for _, tt := range tests {
		if err := tt.layout.Validate(); (err == nil) != tt.ok {
			t.Errorf("%+v.Validate() = %v, want ok=%v", tt.layout, err, tt.ok)
		}
	}
}

// TestLayoutRefusesUnsafeIDs: every method that takes an id refuses one
// that could climb out of the data folder, and a league id is checked by
// NewLayout and again by the methods that put it in a path.
func TestLayoutRefusesUnsafeIDs(t *testing.T) {
	l := Layout{Root: "data", LeagueID: "L1"}
	bad := "../../credentials/L1/P01"
	for name, f := range map[string]func(string) (string, error){
		"Match": l.Match, "PlayerHistory": l.PlayerHistory, "Credentials": l.Credentials,
		"AgentLog": l.AgentLog, "ProcessOutput": l.ProcessOutput,
	} {
		if path, err := f(bad); !errors.Is(err, ErrUnsafeName) {
			t.Errorf("%s(%q) = %q, %v; want ErrUnsafeName", name, bad, path, err)
		}
	}
	if _, err := NewLayout("data", "../../x"); !errors.Is(err, ErrUnsafeName) {
		t.Errorf("NewLayout with league ../../x: %v, want ErrUnsafeName", err)
	}
	literal := Layout{Root: "data", LeagueID: "../x"}
	if path, err := literal.Match("R1M1"); err == nil {
		t.Errorf("Match in league ../x = %q, want an error", path)
	}
}
