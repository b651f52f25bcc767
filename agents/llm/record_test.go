package llm_test

import (
	"encoding/json"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/leaguetui/leaguetui/agents/llm"
	"github.com/leaguetui/leaguetui/config"
	"github.com/leaguetui/leaguetui/engine"
	"github.com/leaguetui/leaguetui/internal/leaguetest/fakellm"
)

// recordedModel is a model of provider asking base, recording to or
// replaying from dir.
func recordedModel(t *testing.T, provider, base, dir string, replay bool) *llm.Model {
	t.Helper()
	t.Setenv("LLM_TEST_KEY", testKey)
	s := config.LLM{Provider: provider, Model: "fake", BaseURL: base, APIKeyEnv: "LLM_TEST_KEY", RecordDir: dir}
	if replay {
		s.RecordDir, s.ReplayDir = "", dir
	}
	m, err := llm.New(s, llm.Options{Player: "P01"})
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// A provider's rate limit and then its move, recorded, replay in the same
// order with the provider gone, from both APIs.
func TestRecordedRepliesReplayInOrder(t *testing.T) {
	for _, provider := range []string{"openai", "anthropic"} {
		t.Run(provider, func(t *testing.T) {
			fake := fakellm.Start(fakellm.RateLimited, fakellm.Good)
			fake.RetryAfter = 0
			base := fake.URL
			if provider == "openai" {
				base = fake.OpenAIURL()
			}
			dir := t.TempDir()
			first := recordedModel(t, provider, base, dir, false).Ask(t.Context(), raceTurn(10*time.Second))
			fake.Close()
			if first.Choice != "France" || len(fake.Requests()) != 2 {
				t.Fatalf("recorded move %+v after %d requests", first, len(fake.Requests()))
			}
			files, _ := filepath.Glob(filepath.Join(dir, "P01", "*.json"))
			if len(files) != 1 {
				t.Fatalf("%d record files for one request asked twice", len(files))
			}
			again := recordedModel(t, provider, base, dir, true).Ask(t.Context(), raceTurn(10*time.Second))
			if again.Choice != first.Choice || again.Report.ErrorType != "" || again.Report.InputTokens != first.Report.InputTokens {
				t.Errorf("replayed move %+v, recorded %+v", again, first)
			}
			other := recordedModel(t, provider, base, dir, true).Ask(t.Context(), parityTurn(10*time.Second))
			if other.Report.ErrorType != engine.ErrorGeneration || other.Report.Metadata["exception_type"] != llm.RecordMissing {
				t.Errorf("a request not in the record: %+v", other.Report)
			}
		})
	}
}

// A server that echoes the key into its reply leaves no key in the
// record: headers are never written, and the key's text is blanked.
func TestRecordHoldsNoKey(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("X-Echo", r.Header.Get("Authorization"))
		_ = json.NewEncoder(w).Encode(map[string]any{"id": "x", "object": "chat.completion", "model": "fake",
			"choices": []any{map[string]any{"index": 0, "finish_reason": "stop",
				"message": map[string]any{"role": "assistant", "content": "your key is " + r.Header.Get("Authorization")}}},
			"usage": map[string]any{"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2}})
	}))
	defer srv.Close()
	dir := t.TempDir()
	move := recordedModel(t, "openai", srv.URL+"/v1", dir, false).Ask(t.Context(), parityTurn(5*time.Second))
	if move.Report.ErrorType != engine.ErrorNoToolCall {
		t.Fatalf("the echoing server's move: %+v", move.Report)
	}
	files := 0
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		files++
		raw, err := os.ReadFile(path)
		if strings.Contains(string(raw), testKey) || strings.Contains(string(raw), "X-Echo") {
			t.Errorf("%s holds the key or a header:\n%s", path, raw)
		}
		return err
	})
	if err != nil || files != 1 {
		t.Fatalf("%d record files, %v", files, err)
	}
}

// --record-models and --replay-models do not go together, and a replay
// needs its folder.
func TestRecordSettingsChecked(t *testing.T) {
	dir := t.TempDir()
	for _, s := range []config.LLM{
		{Model: "m", RecordDir: dir, ReplayDir: dir},
		{Model: "m", ReplayDir: filepath.Join(dir, "none")},
	} {
		if err := llm.Check(s); err == nil {
			t.Errorf("Check(%+v) took it", s)
		}
	}
	if err := llm.Check(config.LLM{Model: "m", ReplayDir: dir}); err != nil {
		t.Errorf("a replay of an existing folder: %v", err)
	}
}
