package llm_test

import (
	"encoding/json"
	"html"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/leaguetui/leaguetui/internal/leaguetest"
	"github.com/leaguetui/leaguetui/internal/leaguetest/fakellm"
)

// echoedKey is a key made of what encodings change: markup, quotes, a
// backslash, a slash.
const echoedKey = `sk-e2e-echo<b>&"quoted"\back/5f3c9a17d2b84e60`

// A provider that echoes the model players' key in every spelling
// (fakellm.KeyEncodings) into its text and as the move leaves none of
// them in any file of the league's data folder (the match files that GET
// /matches/ID and the web view serve, the histories, the logs), in the
// record, in the report `leaguetui report` writes, nor in leaguetui's
// output; what the provider said is there, blanked.
func TestEchoedKeyInNoFileNorPage(t *testing.T) {
	fake := fakellm.Start(fakellm.EchoKey)
	t.Cleanup(fake.Close)
	t.Setenv("OPENAI_API_KEY", echoedKey)
	dir, record := t.TempDir(), t.TempDir()
	run := leaguetest.RunLeaguetui(t, dir, leagueTimeout, nil, "--no-ui", "--free-ports", "--data", dir, "--seed", "3",
		"--referees", "1", "--move-timeout", "3s", "--join-timeout", "5s", "--retry-delay", "50ms", "--players", "2",
		"--strategies", "llm,random", "--llm-provider", "openai", "--llm-base-url", fake.OpenAIURL(), "--llm-model", "fake",
		"--record-models", record, "--suspend-after", "0")
	if run.Err != nil {
		leaguetest.KillLeftovers(t, dir)
		t.Fatalf("leaguetui: %v\n%s", run.Err, run.Stderr)
	}
	reqs := fake.Requests()
	if len(reqs) == 0 || reqs[0].Key != echoedKey {
		t.Fatalf("the provider got %+v; want requests with the key", reqs)
	}
	out := filepath.Join(t.TempDir(), "report")
	report := leaguetest.RunLeaguetui(t, dir, time.Minute, nil, "report", dir, "--out", out)
	if report.Err != nil {
		t.Fatalf("leaguetui report: %v\n%s%s", report.Err, report.Stdout, report.Stderr)
	}
	forms := fakellm.KeyEncodings(echoedKey)
	for what, text := range map[string]string{"leaguetui's output": run.Stdout + run.Stderr, "the report's output": report.Stdout + report.Stderr} {
		if f := keyIn([]byte(text), forms); f != "" {
			t.Errorf("%s holds the key as %q", what, f)
		}
	}
	blanked := map[string]bool{}
	for _, folder := range []string{dir, record, out} {
		err := filepath.WalkDir(folder, func(path string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			raw, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			if f := keyIn(raw, forms); f != "" {
				t.Errorf("%s holds the key as %q", path, f)
			}
			if strings.Contains(string(raw), "Your key is [redacted]") {
				blanked[folder] = true
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	for _, folder := range []string{dir, record, out} {
		if !blanked[folder] {
			t.Errorf("no file of %s says what the provider said, blanked", folder)
		}
	}
}

// keyIn names the spelling of the key that raw holds, "" when none: in
// its bytes, HTML-unescaped, or in any string it holds as JSON (a JSON
// string in it decoded again, at any depth).
func keyIn(raw []byte, forms []string) string {
	for _, text := range []string{string(raw), html.UnescapeString(string(raw))} {
		for _, f := range forms {
			if strings.Contains(text, f) {
				return f
			}
		}
	}
	var v any
	if json.Unmarshal(raw, &v) == nil {
		return keyInValue(v, forms)
	}
	for _, line := range strings.Split(string(raw), "\n") { // a JSON-lines file: the log, the journal
		if json.Unmarshal([]byte(line), &v) == nil {
			if f := keyInValue(v, forms); f != "" {
				return f
			}
		}
	}
	return ""
}

func keyInValue(v any, forms []string) string {
	switch x := v.(type) {
	case string:
		return keyIn([]byte(x), forms)
	case map[string]any:
		for k, sub := range x {
			if f := keyIn([]byte(k), forms); f != "" {
				return f
			}
			if f := keyInValue(sub, forms); f != "" {
				return f
			}
		}
	case []any:
		for _, sub := range x {
			if f := keyInValue(sub, forms); f != "" {
				return f
			}
		}
	}
	return ""
}
