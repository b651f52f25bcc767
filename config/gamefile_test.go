package config

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// writeManifest writes a manifest (the JSON text given) as NAME.json in
// dir and returns its path.
func writeManifest(t *testing.T, dir, name, text string) string {
	t.Helper()
	path := filepath.Join(dir, name+".json")
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

const goodManifest = `{"name": "tic_tac_toe", "command": ["python3", "t.py"], "rules": "three in a row",
	"seats": 2, "deadlines": {"move_seconds": 9}}`

// TestGameFlagNamesAManifest: --game FILE.json plays the manifest's
// game: its name is the game type and the league's, its move deadline
// the league's unless --move-timeout says otherwise, and the children
// get its absolute path.
func TestGameFlagNamesAManifest(t *testing.T) {
	dir := t.TempDir()
	path := writeManifest(t, dir, "ttt", goodManifest)
	t.Chdir(dir)
	f := newFlags(t, "--game", "ttt.json")
	cfg, err := f.ResolveWith(env(nil))
	if err != nil {
		t.Fatal(err)
	}
	if cfg.GameType != "tic_tac_toe" || cfg.GameFile != path || cfg.LeagueID != "league_2025_tic_tac_toe" || cfg.Timeouts.Move != 9*time.Second {
		t.Errorf("game %q, file %q, league %q, move %v", cfg.GameType, cfg.GameFile, cfg.LeagueID, cfg.Timeouts.Move)
	}
	if args := f.Args(); !slices.Equal(args, []string{"--game", path}) {
		t.Errorf("Args() = %q, want the manifest's absolute path", args)
	}
	cfg, err = newFlags(t, "--game", "ttt.json", "--move-timeout", "2s").ResolveWith(env(nil))
	if err != nil || cfg.Timeouts.Move != 2*time.Second {
		t.Errorf("--move-timeout 2s: %v, move %v", err, cfg.Timeouts.Move)
	}
}

// TestConfigFolderNamesAGame: --game NAME with a config folder plays
// games/NAME.json when NAME is no built-in game's.
func TestConfigFolderNamesAGame(t *testing.T) {
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, "games"), 0o755); err != nil {
		t.Fatal(err)
	}
	path := writeManifest(t, filepath.Join(dir, "games"), "tic_tac_toe", goodManifest)
	cfg, err := newFlags(t, "--config", dir, "--game", "tic_tac_toe").ResolveWith(env(nil))
	if err != nil {
		t.Fatal(err)
	}
	if cfg.GameFile != path || cfg.GameType != "tic_tac_toe" {
		t.Errorf("game %q, file %q", cfg.GameType, cfg.GameFile)
	}
	cfg, err = newFlags(t, "--config", dir).ResolveWith(env(nil))
	if err != nil || cfg.GameFile != "" || cfg.GameType != "even_odd" {
		t.Errorf("the built-in default: %v, game %q, file %q", err, cfg.GameType, cfg.GameFile)
	}
}

// TestBadManifestsAreRefused: each problem is named, with the flag and
// the manifest.
func TestBadManifestsAreRefused(t *testing.T) {
	dir := t.TempDir()
	cases := map[string]struct{ text, want string }{
		"unknown":  {`{"name": "g", "command": ["g"], "rules": "r", "seats": 2, "colour": "red"}`, `unknown field "colour"`},
		"builtin":  {`{"name": "even_odd", "command": ["g"], "rules": "r", "seats": 2}`, `"even_odd" is a built-in game's`},
		"badname":  {`{"name": "Tic Tac", "command": ["g"], "rules": "r", "seats": 2}`, `name "Tic Tac"`},
		"seats":    {`{"name": "g", "command": ["g"], "rules": "r", "seats": 3}`, "seats 3: leaguetui plays games of 2 seats"},
		"command":  {`{"name": "g", "rules": "r", "seats": 2}`, "command: want the program"},
		"rules":    {`{"name": "g", "command": ["g"], "seats": 2}`, "rules: want the game's rules"},
		"deadline": {`{"name": "g", "command": ["g"], "rules": "r", "seats": 2, "deadlines": {"answer_seconds": 601}}`, "deadlines.answer_seconds 601"},
		"missing":  {"", "no such file"},
	}
	for name, c := range cases {
		path := filepath.Join(dir, name+".json")
		if c.text != "" {
			path = writeManifest(t, dir, name, c.text)
		}
		_, err := newFlags(t, "--game", path).ResolveWith(env(nil))
		var fe *FlagError
		if !errors.As(err, &fe) || fe.Flag != "game" || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), path) {
			t.Errorf("%s: %v; want a --game error naming %s and %q", name, err, path, c.want)
		}
	}
}

// TestLeagueFileNamesAManifest: a league file's game_type ending in
// .json is a manifest's path from the config folder.
func TestLeagueFileNamesAManifest(t *testing.T) {
	dir := t.TempDir()
	for _, sub := range []string{"leagues", "mygames"} {
		if err := os.Mkdir(filepath.Join(dir, sub), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	path := writeManifest(t, filepath.Join(dir, "mygames"), "ttt", goodManifest)
	writeManifest(t, filepath.Join(dir, "leagues"), "cup", `{"game_type": "mygames/ttt.json"}`)
	cfg, err := newFlags(t, "--config", dir, "--league-id", "cup").ResolveWith(env(nil))
	if err != nil {
		t.Fatal(err)
	}
	if cfg.GameFile != path || cfg.GameType != "tic_tac_toe" || cfg.LeagueID != "cup" {
		t.Errorf("game %q, file %q, league %q", cfg.GameType, cfg.GameFile, cfg.LeagueID)
	}
}
