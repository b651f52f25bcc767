package main_test

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/leaguetui/leaguetui/internal/leaguetest"
)

// TestBadValuesRefusedBeforeAnythingStarts: a value that only a started
// league, a listening server or a written export would find wrong is
// refused at once, exit status 2, in one line naming the flag, or the
// file and key as written there, and nothing has started: the data
// folder the command was given holds nothing.
func TestBadValuesRefusedBeforeAnythingStarts(t *testing.T) {
	base := t.TempDir()
	aFile := filepath.Join(base, "a-file")
	writeFile(t, aFile, "not a folder")
	outOfRange := configFolder(t, map[string]string{"system.json": `{"timeouts": {"move_timeout_sec": 0}}`})
	badPoints := configFolder(t, map[string]string{"leagues/league_2025_even_odd.json": `{"scoring": {"win_points": -3}}`})
	badHost := configFolder(t, map[string]string{"system.json": `{"network": {"base_host": "300.1.1.1"}}`})
	noKey := []string{"OPENAI_API_KEY=", "ANTHROPIC_API_KEY="}
	badGame := filepath.Join(base, "bad-game.json")
	writeFile(t, badGame, `{"name": "g", "command": ["python3", "g.py"], "rules": "r", "seats": 3, "colour": "red"}`)
	tests := []struct {
		name string
		args []string // after them, --data DIR for the commands that take one
		env  []string
		want []string // in the one line on stderr
	}{
		{"swiss rounds its players cannot play", []string{"--no-ui", "--players", "4", "--format", "swiss", "--rounds", "99"}, nil,
			[]string{"--rounds", "4 players needs 1 to 3 rounds", "got 99"}},
		{"csv into a folder that cannot be made", []string{"--no-ui", "--csv", filepath.Join(aFile, "csv")}, nil,
			[]string{"--csv " + filepath.Join(aFile, "csv"), "not writable"}},
		{"web view on no address", []string{"--no-ui", "--web", "notanaddr"}, nil, []string{"--web notanaddr", "HOST:PORT"}},
		{"web view on no port", []string{"--no-ui", "--web", "127.0.0.1:99999"}, nil, []string{"--web 127.0.0.1:99999", "0 (a free port) to 65535"}},
		{"host that is no address", []string{"--no-ui", "--host", "999.1.1.1"}, nil, []string{"--host 999.1.1.1", "not an IP address"}},
		{"host that is no address, for an agent", []string{"manager", "--host", "999.1.1.1"}, nil, []string{"--host 999.1.1.1"}},
		{"page server that is no URL", []string{"referee", "--pages-url", "pages:8300"}, nil, []string{"--pages-url pages:8300", "not a URL"}},
		{"model server that is no URL", []string{"player", "--strategy", "llm", "--llm-model", "m", "--llm-base-url", "localhost/v1"}, nil,
			[]string{"--llm-base-url localhost/v1", "not a URL"}},
		{"console attached to no URL", []string{"--attach", "notaurl"}, nil, []string{`--attach "notaurl"`, "manager's URL"}},
		{"model player without its key", []string{"--no-ui", "--strategies", "llm,random", "--llm-model", "m"}, noKey,
			[]string{"OPENAI_API_KEY is not set", "--llm-api-key-env", "--llm-api-key-file"}},
		{"model player whose key variable is unset", []string{"player", "--strategy", "llm", "--llm-model", "m", "--llm-api-key-env", "LEAGUETUI_NO_SUCH_KEY"}, noKey,
			[]string{"LEAGUETUI_NO_SUCH_KEY is not set"}},
		{"model player of an unknown preset", []string{"player", "--strategy", "llm", "--llm-model", "m", "--llm-provider", "openroute"}, noKey,
			[]string{`--llm-provider "openroute"`, "openrouter", "gemini", "ollama", "vllm"}},
		{"model player of a preset whose key variable is unset", []string{"--no-ui", "--strategies", "llm,random", "--llm-model", "m", "--llm-provider", "openrouter"},
			append(noKey, "OPENROUTER_API_KEY="), []string{"OPENROUTER_API_KEY is not set"}},
		{"model player whose key file is missing", []string{"--no-ui", "--strategies", "llm", "--llm-model", "m", "--llm-api-key-file", filepath.Join(base, "no-key")}, noKey,
			[]string{"--llm-api-key-file", "no-key", "no such file"}},
		{"config value out of range", []string{"--no-ui", "--config", outOfRange}, nil,
			[]string{filepath.Join(outOfRange, "system.json") + ": timeouts.move_timeout_sec", "> 0"}},
		{"league file value out of range", []string{"manager", "--config", badPoints}, nil,
			[]string{filepath.Join(badPoints, "leagues", "league_2025_even_odd.json") + ": scoring.win_points", ">= 0 (got -3)"}},
		{"config host that is no address", []string{"referee", "--config", badHost}, nil,
			[]string{filepath.Join(badHost, "system.json") + ": network.base_host", `"300.1.1.1"`}},
		{"page graph that is not there", []string{"--no-ui", "--game", "link_race", "--pages", filepath.Join(base, "no-pages.jsonl")}, nil,
			[]string{"--pages " + filepath.Join(base, "no-pages.jsonl"), "no such file"}},
		{"game manifest that is not there", []string{"--no-ui", "--game", filepath.Join(base, "no-game.json")}, nil,
			[]string{"--game " + filepath.Join(base, "no-game.json"), "no such file"}},
		{"game manifest with a key it has not", []string{"referee", "--game", badGame}, nil,
			[]string{"--game " + badGame, `unknown field "colour"`}},
		{"cpu profiles into a folder that cannot be made", []string{"bench", "--cpu-profile", filepath.Join(aFile, "profiles")}, nil,
			[]string{"--cpu-profile", "not writable"}},
		{"seats bench profiled", []string{"bench", "--seats", "--cpu-profile", filepath.Join(base, "profiles")}, nil,
			[]string{"--seats measures three leagues; --cpu-profile profiles one"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			data := filepath.Join(t.TempDir(), "data")
			stdout, stderr, status := runWithEnv(t, tt.env, append(tt.args, "--data", data)...)
			assertRefusedInOneLine(t, stdout, stderr, status, tt.want)
			assertNothingStarted(t, data)
		})
	}
	// Commands that take no data folder: nothing listens, since they exit.
	for _, tt := range []struct {
		args []string
		want []string
	}{
		{[]string{"web", "--attach", "notaurl"}, []string{`--attach "notaurl"`, "manager's URL"}},
		{[]string{"web", "--attach", "http://127.0.0.1:1", "--addr", ":x"}, []string{"--addr :x", `port "x"`}},
		{[]string{"check", "--junit", filepath.Join(aFile, "junit.xml"), "--", "true"}, []string{"--junit", "not writable"}},
		{[]string{"check", "--junit", base, "--", "true"}, []string{"--junit " + base, "is a folder"}},
		{[]string{"pages", "--pages", base}, []string{"--pages " + base, "is a folder"}},
	} {
		stdout, stderr, status := runWithEnv(t, nil, tt.args...)
		assertRefusedInOneLine(t, stdout, stderr, status, tt.want)
	}
}

// TestWeakSecretsAreWarned: an admin token or referee key anyone could
// guess is warned about in one line naming where it came from (never the
// secret), and used all the same; the command then fails on --players (or
// --port), which shows the warning comes before anything starts.
func TestWeakSecretsAreWarned(t *testing.T) {
	dir := t.TempDir()
	shortFile := filepath.Join(dir, "admin.token")
	writeFile(t, shortFile, "x\n")
	for _, tt := range []struct {
		env  []string
		args []string
		warn []string // in the warning line; none: no warning
	}{
		{[]string{"LEAGUETUI_ADMIN_TOKEN=x"}, []string{"--no-ui", "--players", "1"}, []string{"LEAGUETUI_ADMIN_TOKEN", "only 1 of the 16 characters"}},
		{nil, []string{"--no-ui", "--players", "1", "--admin-token-file", shortFile}, []string{"--admin-token-file " + shortFile, "only 1"}},
		{[]string{"LEAGUETUI_REFEREE_KEY=change-me-referee-key"}, []string{"manager", "--port", "99999"},
			[]string{"LEAGUETUI_REFEREE_KEY", "placeholder", "openssl rand"}},
		{[]string{"LEAGUETUI_ADMIN_TOKEN=adm-0123456789abcdef0123", "LEAGUETUI_REFEREE_KEY=ref-0123456789abcdef0123"},
			[]string{"manager", "--port", "99999"}, nil},
	} {
		stdout, stderr, status := runWithEnv(t, tt.env, tt.args...)
		lines := strings.Split(strings.TrimSpace(stderr), "\n")
		wantLines := 1
		if tt.warn != nil {
			wantLines = 2
		}
		if status != 2 || stdout != "" || len(lines) != wantLines {
			t.Errorf("%v %v: status %d, stderr %q; want %d lines and status 2", tt.env, tt.args, status, stderr, wantLines)
			continue
		}
		for _, want := range tt.warn {
			if !strings.Contains(lines[0], want) {
				t.Errorf("%v: the warning %q does not say %q", tt.env, lines[0], want)
			}
		}
		if strings.Contains(lines[0], "=x") || strings.Contains(stderr, "0123456789abcdef") {
			t.Errorf("%v: the warning shows the secret: %q", tt.env, stderr)
		}
	}
}

// runWithEnv runs the leaguetui binary with env added to the test's
// environment, and returns what it printed and its exit status.
func runWithEnv(t *testing.T, env []string, args ...string) (stdout, stderr string, status int) {
	t.Helper()
	cmd := exec.Command(leaguetest.Binary(t), args...)
	cmd.Env = append(append(os.Environ(), leaguetest.ChildEnv()...), env...)
	var out, errOut strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &errOut
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	var err error
	select {
	case err = <-done:
	case <-time.After(time.Minute):
		_ = cmd.Process.Kill()
		<-done
		t.Fatalf("leaguetui %v did not exit within a minute: it was not refused\n%s", args, errOut.String())
	}
	var exit *exec.ExitError
	if err != nil && !errors.As(err, &exit) {
		t.Fatal(err)
	}
	if exit != nil {
		status = exit.ExitCode()
	}
	return out.String(), errOut.String(), status
}

func assertRefusedInOneLine(t *testing.T, stdout, stderr string, status int, want []string) {
	t.Helper()
	lines := strings.Split(strings.TrimSpace(stderr), "\n")
	if status != 2 || stdout != "" || len(lines) != 1 {
		t.Errorf("status %d, stdout %q, stderr %q; want status 2 and one line on stderr", status, stdout, stderr)
		return
	}
	for _, w := range want {
		if !strings.Contains(lines[0], w) {
			t.Errorf("%q does not say %q", lines[0], w)
		}
	}
}

// assertNothingStarted fails when the data folder holds anything: an
// agent, or the league leaguetui starts, writes its lock, logs and
// journal there first.
func assertNothingStarted(t *testing.T, data string) {
	t.Helper()
	entries, err := os.ReadDir(data)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		t.Fatal(err)
	}
	if len(entries) > 0 {
		t.Errorf("the data folder holds %d entries (the first %s): something started", len(entries), entries[0].Name())
	}
}

// configFolder makes a config folder of the files given, by name.
func configFolder(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, content := range files {
		path := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		writeFile(t, path, content)
	}
	return dir
}

func writeFile(t *testing.T, path, content string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
}
