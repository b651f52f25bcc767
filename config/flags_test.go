package config

import (
	"flag"
	"io"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// newFlags returns Flags registered on a fresh FlagSet parsed from args.
func newFlags(t *testing.T, args ...string) *Flags {
	t.Helper()
	fs := flag.NewFlagSet("test", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	f := AddFlags(fs)
	if err := fs.Parse(args); err != nil {
		t.Fatalf("Parse(%q): %v", args, err)
	}
	return f
}

// env returns a getenv backed by a map.
func env(vars map[string]string) func(string) string {
	return func(key string) string { return vars[key] }
}

func TestResolvePrecedence(t *testing.T) {
	full := filepath.Join("testdata", "full") // move_timeout_sec 12, max_retries 4, base_host 0.0.0.0
	tests := []struct {
		name     string
		args     []string
		env      map[string]string
		move     time.Duration
		attempts int
		host     string
	}{
		{"defaults", nil, nil, 30 * time.Second, 3, "127.0.0.1"},
		{"file beats defaults", []string{"--config", full}, nil, 12 * time.Second, 4, "0.0.0.0"},
		{"config folder from env", nil, map[string]string{"LEAGUETUI_CONFIG": full}, 12 * time.Second, 4, "0.0.0.0"},
		{
			"env beats file",
			[]string{"--config", full},
			map[string]string{"LEAGUETUI_MOVE_TIMEOUT": "7s", "LEAGUETUI_ATTEMPTS": "5", "LEAGUETUI_HOST": "localhost"},
			7 * time.Second, 5, "127.0.0.1",
		},
		{
			"flag beats env",
			[]string{"--config", full, "--move-timeout", "2s", "--attempts=6", "--host", "10.0.0.1"},
			map[string]string{"LEAGUETUI_MOVE_TIMEOUT": "7s", "LEAGUETUI_ATTEMPTS": "5", "LEAGUETUI_HOST": "::1"},
			2 * time.Second, 6, "10.0.0.1",
		},
		{
			"unset flags leave env and file alone",
			[]string{"--config", full, "--join-timeout", "1s"},
			map[string]string{"LEAGUETUI_ATTEMPTS": "5"},
			12 * time.Second, 5, "0.0.0.0",
		},
		{
			"config flag beats config env",
			[]string{"--config", full},
			map[string]string{"LEAGUETUI_CONFIG": filepath.Join("testdata", "partial")},
			12 * time.Second, 4, "0.0.0.0",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg, err := newFlags(t, tt.args...).ResolveWith(env(tt.env))
			if err != nil {
				t.Fatalf("ResolveWith: %v", err)
			}
			if cfg.Timeouts.Move != tt.move || cfg.Retry.Attempts != tt.attempts || cfg.Network.Host != tt.host {
				t.Errorf("move, attempts, host = %v, %d, %q; want %v, %d, %q",
					cfg.Timeouts.Move, cfg.Retry.Attempts, cfg.Network.Host, tt.move, tt.attempts, tt.host)
			}
		})
	}
}

func TestResolveEveryOverride(t *testing.T) {
	cfg, err := newFlags(t,
		"--join-timeout", "1s", "--move-timeout", "2s", "--generic-timeout", "3s",
		"--report-timeout", "4s", "--retry-delay", "500ms", "--attempts", "9", "--suspend-after", "0",
		"--ratings-exclude-technical",
	).ResolveWith(env(nil))
	if err != nil {
		t.Fatal(err)
	}
	want := Default()
	want.Timeouts.JoinAck = time.Second
	want.Timeouts.Move = 2 * time.Second
	want.Timeouts.Generic = 3 * time.Second
	want.Timeouts.Report = 4 * time.Second
	want.Retry.InitialDelay = 500 * time.Millisecond
	want.Retry.Attempts = 9
	want.Suspension.AfterTechnicalLosses = 0
	want.Ratings.ExcludeTechnical = true
	if cfg != want {
		t.Errorf("ResolveWith =\n%+v\nwant\n%+v", cfg, want)
	}
}

func TestResolveLeagueID(t *testing.T) {
	full := filepath.Join("testdata", "full")
	tests := []struct {
		name       string
		args       []string
		env        map[string]string
		wantLeague string
		wantGame   string
	}{
		{"from system.json", []string{"--config", full}, nil, "league_2026_test", "tic_tac_toe"},
		{"env selects the league file", []string{"--config", full},
			map[string]string{"LEAGUETUI_LEAGUE_ID": "league_2026_other"}, "league_2026_other", "even_odd"},
		{"flag beats env", []string{"--config", full, "--league-id", "league_2026_test"},
			map[string]string{"LEAGUETUI_LEAGUE_ID": "league_2026_other"}, "league_2026_test", "tic_tac_toe"},
		{"without a config folder", []string{"--league-id", "cup"}, nil, "cup", "even_odd"},
		{"unnamed: the game names it", []string{"--game", "link_race"}, nil, "league_2025_link_race", "link_race"},
		{"unnamed, game from the environment", nil, map[string]string{"LEAGUETUI_GAME": "link_race"}, "league_2025_link_race", "link_race"},
		{"unnamed even/odd", nil, nil, "league_2025_even_odd", "even_odd"},
		{"named by the flag, whatever the game", []string{"--league-id", "cup", "--game", "link_race"}, nil, "cup", "link_race"},
		{"named by system.json, whatever the game", []string{"--config", full, "--game", "link_race"}, nil, "league_2026_test", "link_race"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg, err := newFlags(t, tt.args...).ResolveWith(env(tt.env))
			if err != nil {
				t.Fatal(err)
			}
			if cfg.LeagueID != tt.wantLeague || cfg.GameType != tt.wantGame {
				t.Errorf("league, game = %q, %q; want %q, %q", cfg.LeagueID, cfg.GameType, tt.wantLeague, tt.wantGame)
			}
		})
	}
}

func TestResolveErrors(t *testing.T) {
	tests := []struct {
		name string
		args []string
		env  map[string]string
		want []string
	}{
		{"bad duration in env", nil, map[string]string{"LEAGUETUI_MOVE_TIMEOUT": "soon"},
			[]string{"LEAGUETUI_MOVE_TIMEOUT", `"soon"`}},
		{"bad integer in env", nil, map[string]string{"LEAGUETUI_ATTEMPTS": "three"},
			[]string{"LEAGUETUI_ATTEMPTS", `"three"`}},
		{"every bad variable at once", nil,
			map[string]string{"LEAGUETUI_RETRY_DELAY": "x", "LEAGUETUI_REPORT_TIMEOUT": "y"},
			[]string{"LEAGUETUI_RETRY_DELAY", "LEAGUETUI_REPORT_TIMEOUT"}},
		{"bad env is reported even when a flag overrides it", []string{"--join-timeout", "1s"},
			map[string]string{"LEAGUETUI_JOIN_TIMEOUT": "later"}, []string{"LEAGUETUI_JOIN_TIMEOUT"}},
		{"missing config folder", []string{"--config", "testdata/nope"}, nil, []string{"testdata/nope"}},
		{"invalid result", []string{"--move-timeout", "0s", "--attempts", "0"}, nil,
			[]string{"--move-timeout 0s: must be more than 0", "--attempts 0: must be at least 1"}},
		{"a negative delay names the flag", []string{"--retry-delay", "-1s"}, nil,
			[]string{"--retry-delay -1s: must not be negative"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := newFlags(t, tt.args...).ResolveWith(env(tt.env))
			if err == nil {
				t.Fatal("ResolveWith succeeded, want an error")
			}
			for _, want := range tt.want {
				if !strings.Contains(err.Error(), want) {
					t.Errorf("error %q does not contain %q", err, want)
				}
			}
		})
	}
}

func TestArgs(t *testing.T) {
	abs, err := filepath.Abs(filepath.Join("testdata", "full"))
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		args []string
		want []string
	}{
		{"nothing set", nil, nil},
		{
			"set flags in a fixed order, config made absolute",
			[]string{"--attempts", "5", "--move-timeout", "2s", "--config", "testdata/full"},
			[]string{"--config", abs, "--move-timeout", "2s", "--attempts", "5"},
		},
		{"flags set to zero values still count", []string{"--retry-delay", "0s"}, []string{"--retry-delay", "0s"}},
		{
			"TLS files made absolute, a boolean as --name=value, --advertise kept to this agent",
			[]string{"--require-tls", "--advertise", "https://203.0.113.7:8101/mcp", "--tls-cert", "testdata/c.pem",
				"--tls-key", "testdata/k.pem", "--tls-ca", "/etc/ca.pem"},
			[]string{"--tls-cert", filepath.Join(filepath.Dir(abs), "c.pem"), "--tls-key", filepath.Join(filepath.Dir(abs), "k.pem"),
				"--tls-ca", "/etc/ca.pem", "--require-tls=true"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := newFlags(t, tt.args...).Args(); !slices.Equal(got, tt.want) {
				t.Errorf("Args() = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestNetworkFlags(t *testing.T) {
	cfg, err := newFlags(t, "--host", "[::1]", "--advertise", "https://[2001:db8::7]:8101/mcp", "--tls-cert", "/c.pem",
		"--tls-key", "/k.pem", "--tls-ca", "/ca.pem", "--require-tls").ResolveWith(env(nil))
	if err != nil {
		t.Fatal(err)
	}
	want := cfg.Network
	want.Host, want.Advertise, want.TLSCert, want.TLSKey, want.TLSCA, want.RequireTLS =
		"::1", "https://[2001:db8::7]:8101/mcp", "/c.pem", "/k.pem", "/ca.pem", true
	if cfg.Network != want {
		t.Errorf("network = %+v, want %+v", cfg.Network, want)
	}
	for _, bad := range [][]string{{"--tls-cert", "/c.pem"}, {"--advertise", "8101"}, {"--advertise", "ftp://h/mcp"}} {
		if _, err := newFlags(t, bad...).ResolveWith(env(nil)); err == nil {
			t.Errorf("%q: no error", bad)
		}
	}
}

func TestArgsRoundTrip(t *testing.T) {
	parent := newFlags(t,
		"--config", filepath.Join("testdata", "full"), "--league-id", "league_2026_other",
		"--host", "localhost", "--join-timeout", "1.5s", "--move-timeout", "2s",
		"--generic-timeout", "3s", "--report-timeout", "4s", "--retry-delay", "250ms", "--attempts", "7",
		"--suspend-after", "2", "--ratings-exclude-technical",
	)
	want, err := parent.ResolveWith(env(nil))
	if err != nil {
		t.Fatal(err)
	}
	child := newFlags(t, parent.Args()...)
	got, err := child.ResolveWith(env(nil))
	if err != nil {
		t.Fatal(err)
	}
	if got != want {
		t.Errorf("child config =\n%+v\nparent config\n%+v", got, want)
	}
	if !slices.Equal(child.Args(), parent.Args()) {
		t.Errorf("child Args() = %q, parent Args() = %q", child.Args(), parent.Args())
	}
}

func TestUsageNamesDefaults(t *testing.T) {
	fs := flag.NewFlagSet("test", flag.ContinueOnError)
	AddFlags(fs)
	tests := []struct{ flag, want string }{
		{"config", "default none"},
		{"league-id", "league_2025_even_odd"},
		{"host", "default 127.0.0.1"},
		{"join-timeout", "default 5s"},
		{"move-timeout", "default 30s"},
		{"generic-timeout", "default 10s"},
		{"report-timeout", "default 10s"},
		{"retry-delay", "default 2s"},
		{"attempts", "default 3"},
		{"suspend-after", "default 3"},
		{"suspend-referee-after", "default 2"},
	}
	for _, tt := range tests {
		f := fs.Lookup(tt.flag)
		if f == nil {
			t.Errorf("flag --%s not registered", tt.flag)
			continue
		}
		if !strings.Contains(f.Usage, tt.want) || !strings.Contains(f.Usage, "LEAGUETUI_") {
			t.Errorf("--%s usage %q does not name its default %q and its variable", tt.flag, f.Usage, tt.want)
		}
	}
}

func TestResolveWithoutParse(t *testing.T) {
	f := AddFlags(flag.NewFlagSet("test", flag.ContinueOnError))
	cfg, err := f.ResolveWith(env(nil))
	if err != nil || cfg != Default() {
		t.Errorf("ResolveWith on an unparsed FlagSet = %+v, %v; want the defaults", cfg, err)
	}
}

func TestDurationFlagSaysHowToWriteIt(t *testing.T) {
	for raw, want := range map[string]string{"5": "a duration needs a unit: write 5s", "soon": "not a duration: write e.g. 5s"} {
		fs := flag.NewFlagSet("test", flag.ContinueOnError)
		fs.SetOutput(io.Discard)
		AddFlags(fs)
		err := fs.Parse([]string{"--move-timeout", raw})
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("--move-timeout %s: error %v, want it to say %q", raw, err, want)
		}
	}
}

// The caps on what comes from outside: sizes in bytes or with a unit,
// each from its flag or its variable, and a size too small refused.
func TestLimitFlags(t *testing.T) {
	cfg, err := newFlags(t, "--message-bytes", "64KiB", "--page-reply-bytes", "2MiB", "--llm-reply-bytes", "300kB", "--page-links", "50",
		"--page-cache-bytes", "1048576", "--race-draw-loads", "30",
	).ResolveWith(env(map[string]string{"LEAGUETUI_PAGE_LINKS": "70"}))
	if err != nil {
		t.Fatal(err)
	}
	want := Default()
	want.Pages.ReplyBytes, want.Pages.MaxLinks, want.Pages.CacheBytes = 2<<20, 50, 1<<20
	want.Pages.DrawLoads = 30
	want.Player.LLM.ReplyBytes = 300_000
	want.Network.MessageBytes = 64 << 10
	if cfg != want {
		t.Errorf("ResolveWith =\n%+v\nwant\n%+v", cfg, want)
	}
	for _, bad := range [][]string{{"--page-reply-bytes", "12"}, {"--llm-reply-bytes", "lots"}, {"--page-links", "0"}} {
		if _, err := newFlags(t, bad...).ResolveWith(env(nil)); err == nil || !strings.Contains(err.Error(), bad[0]) {
			t.Errorf("%v: %v, want an error naming the flag", bad, err)
		}
	}
}

// TestFlagGroupsHoldEveryFlagOnce: each shared flag is in one group, so
// that a command takes it by naming the group, and no group names a flag
// there is none of.
func TestFlagGroupsHoldEveryFlagOnce(t *testing.T) {
	groupOf := map[string]FlagGroup{}
	for g, names := range flagGroups {
		for _, name := range names {
			if other, twice := groupOf[name]; twice {
				t.Errorf("--%s is in the groups %s and %s", name, other, g)
			}
			if !SharedFlag(name) {
				t.Errorf("group %s names --%s, which is no shared flag", g, name)
			}
			groupOf[name] = g
		}
	}
	for _, o := range overrides {
		if _, ok := groupOf[o.flag]; !ok {
			t.Errorf("--%s is in no group: no command but the league would take it", o.flag)
		}
	}
	for command, groups := range CommandFlags {
		for _, g := range groups {
			if _, ok := flagGroups[g]; !ok {
				t.Errorf("command %q takes the group %q, which is none", command, g)
			}
		}
	}
}

// TestArgsForKeepsTheCommandsFlags: a child started as a command gets the
// parent's config flags that command takes, values and booleans with
// them, and its own flags (--name) as they are.
func TestArgsForKeepsTheCommandsFlags(t *testing.T) {
	args := []string{"--config", "/abs/cfg", "--move-timeout", "2s", "--require-tls=true", "--tls-ca", "/abs/ca.pem",
		"--format", "swiss", "--llm-model", "m", "--name", "P01"}
	for command, want := range map[string][]string{
		"web":     {"--config", "/abs/cfg", "--tls-ca", "/abs/ca.pem", "--name", "P01"},
		"referee": {"--config", "/abs/cfg", "--move-timeout", "2s", "--tls-ca", "/abs/ca.pem", "--name", "P01"},
		"manager": {"--config", "/abs/cfg", "--move-timeout", "2s", "--require-tls=true", "--tls-ca", "/abs/ca.pem", "--format", "swiss", "--name", "P01"},
		"player":  {"--config", "/abs/cfg", "--tls-ca", "/abs/ca.pem", "--llm-model", "m", "--name", "P01"},
	} {
		if got := ArgsFor(command, args); !slices.Equal(got, want) {
			t.Errorf("ArgsFor(%q) = %q, want %q", command, got, want)
		}
	}
}
