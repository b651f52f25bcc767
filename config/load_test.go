package config

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/leaguetui/leaguetui/engine"
)

// absDir returns the absolute path of a folder under testdata/, which is
// what Load stores in Config.Dir.
func absDir(t *testing.T, name string) string {
	t.Helper()
	abs, err := filepath.Abs(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return abs
}

// fullConfig is what testdata/full must load to: every value differs from
// Default().
func fullConfig(t *testing.T) Config {
	return Config{
		LeagueID: "league_2026_test",
		GameType: "tic_tac_toe",
		Network: Network{
			Host:             "0.0.0.0",
			ManagerPort:      9000,
			RefereePortFirst: 9001,
			RefereePortLast:  9020,
			PlayerPortFirst:  9101,
			PlayerPortLast:   9300,
			MessageBytes:     Default().Network.MessageBytes, // the files have no message cap
		},
		Timeouts: Timeouts{
			RegisterReferee: 20 * time.Second,
			RegisterPlayer:  15 * time.Second,
			JoinAck:         2500 * time.Millisecond,
			Move:            12 * time.Second,
			GameOver:        3 * time.Second,
			Report:          7 * time.Second,
			Query:           6 * time.Second,
			Generic:         8 * time.Second,
		},
		Retry:        Retry{Attempts: 4, InitialDelay: 1500 * time.Millisecond, Multiplier: 1},
		Breaker:      Breaker{Failures: 7, Reset: 90 * time.Second},
		Scoring:      Scoring{Win: 6, Draw: 3, Loss: 2, TechnicalLoss: 1},
		Security:     Security{TokenBytes: 48, AuthTokens: false, TokenTTL: 12 * time.Hour},
		Referee:      RefereeDefaults{MaxConcurrentMatches: 4},
		Player:       PlayerDefaults{Strategy: "counter", LLM: Default().Player.LLM}, // the files have no reply cap
		Participants: Participants{MinPlayers: 4, MaxPlayers: 64, MinReferees: 2},
		Suspension:   Suspension{AfterTechnicalLosses: 5, AfterMissedReports: 4},
		Pages:        Default().Pages, // the files have no pages keys
		Dir:          absDir(t, "full"),
	}
}

func TestLoad(t *testing.T) {
	partial := Default()
	partial.Network.Host = "127.0.0.1" // "localhost" in the file
	partial.Timeouts.Move = 20 * time.Second
	partial.Retry.InitialDelay = time.Second
	partial.Scoring.Draw = 2
	partial.Dir = absDir(t, "partial")

	otherLeague := fullConfig(t)
	otherLeague.LeagueID = "league_2026_other"
	otherLeague.GameType = "even_odd"
	otherLeague.Scoring = Scoring{Win: 2, Draw: 1, Loss: 0, TechnicalLoss: 0}
	otherLeague.Participants = Participants{MinPlayers: 3, MaxPlayers: 8, MinReferees: 1}
	otherLeague.Suspension = Default().Suspension // its file has no suspension key

	missingLeague := fullConfig(t)
	missingLeague.LeagueID = "league_without_file"
	missingLeague.GameType = Default().GameType
	missingLeague.Scoring = Default().Scoring
	missingLeague.Participants = Default().Participants
	missingLeague.Suspension = Default().Suspension

	tests := []struct {
		name, dir, league string
		want              Config
	}{
		{"full folder", "full", "", fullConfig(t)},
		{"partial folder keeps the other defaults", "partial", "", partial},
		{"league chosen by caller", "full", "league_2026_other", otherLeague},
		{"league without a file keeps league defaults", "full", "league_without_file", missingLeague},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := LoadLeague(filepath.Join("testdata", tt.dir), tt.league)
			if err != nil {
				t.Fatalf("LoadLeague: %v", err)
			}
			if got != tt.want {
				t.Errorf("LoadLeague(%q, %q) =\n%+v\nwant\n%+v", tt.dir, tt.league, got, tt.want)
			}
			if err := got.Validate(); err != nil {
				t.Errorf("Validate() = %v", err)
			}
		})
	}
}

func TestLoadEmptyFolderIsDefault(t *testing.T) {
	dir := t.TempDir()
	got, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	want := Default()
	want.Dir = dir
	if got != want {
		t.Errorf("Load(empty folder) = %+v, want %+v", got, want)
	}
}

func TestLoadMissingFolder(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "no-such-folder")
	_, err := Load(dir)
	if err == nil {
		t.Fatal("Load of a missing folder succeeded")
	}
	if !strings.Contains(err.Error(), dir) {
		t.Errorf("error %q does not name the folder %q", err, dir)
	}
	if !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("error %q is not fs.ErrNotExist", err)
	}
}

func TestLoadNotAFolder(t *testing.T) {
	file := filepath.Join("testdata", "full", "system.json")
	if _, err := Load(file); err == nil || !strings.Contains(err.Error(), "not a directory") {
		t.Errorf("Load(a file) error = %v, want one saying it is not a directory", err)
	}
}

// writeFolder creates a config folder holding files (name inside the folder
// → content).
func writeFolder(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, content := range files {
		path := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func TestLoadErrors(t *testing.T) {
	tests := []struct {
		name      string
		files     map[string]string
		wantFile  string   // the file the error must name
		wantField string   // the FileError.Field, "" for none
		wantText  []string // further substrings of the message
	}{
		{
			name:     "invalid JSON in system.json",
			files:    map[string]string{"system.json": "{\n  \"network\": {\n    \"base_host\": \"x\",\n  }\n}"},
			wantFile: "system.json",
			wantText: []string{"invalid JSON", "line 4, column 3"},
		},
		{
			name:     "empty file",
			files:    map[string]string{"system.json": ""},
			wantFile: "system.json",
			wantText: []string{"invalid JSON"},
		},
		{
			name:     "invalid JSON in league file",
			files:    map[string]string{"leagues/league_2025_even_odd.json": `{"scoring": {`},
			wantFile: "league_2025_even_odd.json",
			wantText: []string{"invalid JSON"},
		},
		{
			name:     "invalid JSON in defaults",
			files:    map[string]string{"defaults/player.json": `{"settings": }`},
			wantFile: "player.json",
		},
		{
			name:     "invalid JSON in games registry",
			files:    map[string]string{"games/games_registry.json": `{"games": [}`},
			wantFile: "games_registry.json",
		},
		{
			name:     "invalid JSON in agents config",
			files:    map[string]string{"agents/agents_config.json": `not json`},
			wantFile: "agents_config.json",
		},
		{
			name:      "string where seconds belong",
			files:     map[string]string{"system.json": `{"timeouts": {"move_timeout_sec": "30"}}`},
			wantFile:  "system.json",
			wantField: "timeouts.move_timeout_sec",
			wantText:  []string{"got JSON string, want a number"},
		},
		{
			name:      "fraction where an integer belongs",
			files:     map[string]string{"defaults/referee.json": `{"max_concurrent_matches": 1.5}`},
			wantFile:  "referee.json",
			wantField: "max_concurrent_matches",
			wantText:  []string{"want an integer"},
		},
		{
			name:      "object where a section belongs",
			files:     map[string]string{"leagues/league_2025_even_odd.json": `{"scoring": 3}`},
			wantFile:  "league_2025_even_odd.json",
			wantField: "scoring",
			wantText:  []string{"want an object"},
		},
		{
			name:      "port range of three",
			files:     map[string]string{"system.json": `{"network": {"default_player_port_range": [1, 2, 3]}}`},
			wantFile:  "system.json",
			wantField: "network.default_player_port_range",
			wantText:  []string{"got 3 numbers"},
		},
		{
			name:      "unknown backoff strategy",
			files:     map[string]string{"system.json": `{"retry_policy": {"backoff_strategy": "linear"}}`},
			wantFile:  "system.json",
			wantField: "retry_policy.backoff_strategy",
			wantText:  []string{`"linear"`},
		},
		{
			name: "league file for another league",
			files: map[string]string{
				"system.json":            `{"default_league_id": "a"}`,
				"leagues/a.json":         `{"league_id": "b"}`,
				"leagues/unrelated.json": `{}`,
			},
			wantFile:  "a.json",
			wantField: "league_id",
			wantText:  []string{`"b"`},
		},
		{
			name:      "unknown tie-breaker",
			files:     map[string]string{"leagues/league_2025_even_odd.json": `{"scoring": {"tiebreakers": ["points", "goal_difference"]}}`},
			wantFile:  "league_2025_even_odd.json",
			wantField: "scoring.tiebreakers",
			wantText: []string{`unknown tie-breaker "goal_difference"`,
				"known: points, wins, draws, head_to_head, sonneborn_berger, buchholz"},
		},
		{
			name:      "tie-breakers not a list",
			files:     map[string]string{"leagues/league_2025_even_odd.json": `{"scoring": {"tiebreakers": "wins"}}`},
			wantFile:  "league_2025_even_odd.json",
			wantField: "scoring.tiebreakers",
		},
		{
			name:     "league id that escapes the folder",
			files:    map[string]string{"system.json": `{"default_league_id": "../system"}`},
			wantFile: "leagues",
			wantText: []string{"cannot name a file"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Load(writeFolder(t, tt.files))
			if err == nil {
				t.Fatal("Load succeeded, want an error")
			}
			msg := err.Error()
			for _, want := range append([]string{tt.wantFile}, tt.wantText...) {
				if !strings.Contains(msg, want) {
					t.Errorf("error %q does not contain %q", msg, want)
				}
			}
			var fe *FileError
			if tt.wantField != "" && (!errors.As(err, &fe) || fe.Field != tt.wantField) {
				t.Errorf("error %q: want a *FileError for field %q", msg, tt.wantField)
			}
		})
	}
}

// TestLoadRefusesUnknownKeys: a key no file of the config layer holds is
// refused, naming the file, the key and the keys its object holds, so a
// misspelt key never runs a league on a default (issue 27); null keeps
// the default.
func TestLoadRefusesUnknownKeys(t *testing.T) {
	tests := []struct {
		file, content string
		key, holds    string
	}{
		{"system.json", `{"timeouts": {"move_timout_sec": 3}}`, "timeouts.move_timout_sec", "move_timeout_sec"},
		{"system.json", `{"surprise": {"deep": [1, 2]}}`, "surprise", "default_league_id"},
		{"system.json", `{"network": {"extra": true}}`, "network.extra", "base_host"},
		{"leagues/league_2025_even_odd.json", `{"scoring": {"win": 3}}`, "scoring.win", "win_points"},
		{"defaults/referee.json", `{"max_concurent_matches": 4}`, "max_concurent_matches", "max_concurrent_matches"},
		{"defaults/player.json", `{"settings": {"llm": {"modle": "x"}}}`, "settings.llm.modle", "model"},
	}
	for _, tt := range tests {
		dir := writeFolder(t, map[string]string{tt.file: tt.content})
		_, err := Load(dir)
		var fe *FileError
		if !errors.As(err, &fe) || fe.Field != tt.key || !strings.HasSuffix(fe.Path, filepath.FromSlash(tt.file)) ||
			!strings.Contains(err.Error(), "unknown key") || !strings.Contains(err.Error(), tt.holds) {
			t.Errorf("%s %s: %v; want a FileError naming %s and the key %s", tt.file, tt.content, err, tt.key, tt.holds)
		}
	}
}

func TestLoadKeepsDefaultsForNulls(t *testing.T) {
	dir := writeFolder(t, map[string]string{
		"system.json": `{"timeouts": null, "network": {"base_host": null}, "schema_version": "1.0.0"}`,
	})
	got, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	want := Default()
	want.Dir = dir
	if got != want {
		t.Errorf("Load = %+v, want the defaults %+v", got, want)
	}
}

func TestListenHost(t *testing.T) {
	tests := []struct{ in, want string }{
		{"localhost", "127.0.0.1"},
		{" LocalHost ", "127.0.0.1"},
		{"0.0.0.0", "0.0.0.0"},
		{"::1", "::1"},
		{"example.org", "example.org"},
	}
	for _, tt := range tests {
		if got := listenHost(tt.in); got != tt.want {
			t.Errorf("listenHost(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// TestLoadNetworkAcrossMachines: system.json's network section carries the
// settings of a league across machines; file names are read relative to
// the config folder.
func TestLoadNetworkAcrossMachines(t *testing.T) {
	dir := writeFolder(t, map[string]string{"system.json": `{"network": {
		"advertise_url": "https://alpha.example.org:8443/mcp", "tls_cert_file": "certs/alpha.pem",
		"tls_key_file": "/etc/leaguetui/alpha-key.pem", "tls_ca_file": "ca.pem", "require_tls": true}}`})
	cfg, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		t.Fatal(err)
	}
	n := cfg.Network
	if n.Advertise != "https://alpha.example.org:8443/mcp" || n.TLSCert != filepath.Join(abs, "certs", "alpha.pem") ||
		n.TLSKey != "/etc/leaguetui/alpha-key.pem" || n.TLSCA != filepath.Join(abs, "ca.pem") || !n.RequireTLS {
		t.Errorf("network = %+v", n)
	}
	if err := cfg.Validate(); err != nil {
		t.Errorf("Validate: %v", err)
	}
}

// TestLoadTiebreakers: scoring.tiebreakers is read in its order, in any
// case and with the usual aliases; the specification's ["points", "wins",
// "draws"] and an empty list are the default order, exactly.
func TestLoadTiebreakers(t *testing.T) {
	for _, tt := range []struct {
		list string
		want engine.Tiebreakers
	}{
		{`["points", "wins", "draws"]`, ""},
		{`[]`, ""},
		{`null`, ""},
		{`["Head-To-Head", "SB", "buchholz"]`, "head_to_head,sonneborn_berger,buchholz"},
		{`["points", "sonneborn_berger", "wins"]`, "sonneborn_berger,wins"},
	} {
		dir := writeFolder(t, map[string]string{"leagues/league_2025_even_odd.json": `{"scoring": {"tiebreakers": ` + tt.list + `}}`})
		got, err := Load(dir)
		if err != nil {
			t.Fatalf("%s: %v", tt.list, err)
		}
		if got.Scoring.Tiebreakers != tt.want {
			t.Errorf("tiebreakers %s loaded as %q, want %q", tt.list, got.Scoring.Tiebreakers, tt.want)
		}
		if err := got.Validate(); err != nil {
			t.Errorf("%s: Validate() = %v", tt.list, err)
		}
	}
}
