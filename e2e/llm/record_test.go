package llm_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/leaguetui/leaguetui/agents/llm"
	"github.com/leaguetui/leaguetui/engine"
	"github.com/leaguetui/leaguetui/internal/leaguetest/fakellm"
)

// recordArgs is the league recorded and replayed: four players, the model
// players P01 and P03, two games a pair so that the prompts carry the
// earlier games against the same opponent.
func recordArgs(base string) []string {
	return []string{"--players", "4", "--strategies", "llm,random", "--games-per-pair", "2", "--llm-provider", "openai",
		"--llm-base-url", base, "--suspend-after", "0"}
}

// A league recorded against the provider replays with the provider gone
// and no key: the same standings and the same match files, byte for byte
// but for the times; the record is one readable JSON file per request in a
// folder per player, with no key in it.
func TestRecordThenReplayWithTheProviderGone(t *testing.T) {
	fake := fakellm.Start(fakellm.Good)
	t.Setenv("OPENAI_API_KEY", testKey)
	record := t.TempDir()
	recorded := t.TempDir()
	runLeague(t, recorded, append(recordArgs(fake.OpenAIURL()), "--record-models", record)...)
	asked := len(fake.Requests())
	fake.Close()
	checkNoKey(t, record, "")
	checkRecord(t, record, asked)

	t.Setenv("OPENAI_API_KEY", "")
	replayed := t.TempDir()
	runLeague(t, replayed, append(recordArgs(fake.OpenAIURL()), "--replay-models", record)...)
	if got, want := timeless(t, filepath.Join(replayed, "leagues", leagueID, "standings.json")),
		timeless(t, filepath.Join(recorded, "leagues", leagueID, "standings.json")); got != want {
		t.Errorf("replayed standings:\n%s\nrecorded:\n%s", got, want)
	}
	files, _ := filepath.Glob(filepath.Join(recorded, "matches", leagueID, "*.json"))
	if len(files) != 12 {
		t.Fatalf("%d recorded match files, want 12", len(files))
	}
	for _, f := range files {
		again := filepath.Join(replayed, "matches", leagueID, filepath.Base(f))
		if got, want := timeless(t, again), timeless(t, f); got != want {
			t.Errorf("%s replayed differs from its record:\n%s", filepath.Base(f), lineDiff(got, want))
		}
	}
	for _, m := range readMatches(t, replayed) {
		for _, r := range modelReplies(t, m) {
			if r.ErrorType != "" || r.InputTokens != fakellm.InputTokens {
				t.Errorf("%s: replayed model reply %+v", m.MatchID, r)
			}
		}
	}
}

// A request the record lacks fails the move with its own name, not a
// fallback's move, even with --llm-fallback random.
func TestReplayOfARequestNotRecorded(t *testing.T) {
	empty := t.TempDir()
	dir := t.TempDir()
	matches, _ := runLeague(t, dir, "--players", "2", "--strategies", "llm,random", "--llm-provider", "openai",
		"--llm-base-url", "http://127.0.0.1:1/v1", "--replay-models", empty, "--llm-fallback", "random")
	replies := 0
	for _, m := range matches {
		for _, r := range modelReplies(t, m) {
			replies++
			if r.ErrorType != engine.ErrorGeneration || r.Metadata["exception_type"] != llm.RecordMissing || r.Fallback {
				t.Errorf("%s: the model's move without a record: %+v", m.MatchID, r)
			}
		}
	}
	if replies == 0 {
		t.Fatal("no model move in the match files")
	}
}

// checkRecord: a folder per model player, a JSON file per distinct
// request holding the prompt and the reply, as many replies as the
// provider answered.
func checkRecord(t *testing.T, record string, asked int) {
	t.Helper()
	players, err := os.ReadDir(record)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	replies := 0
	for _, p := range players {
		names = append(names, p.Name())
		files, _ := filepath.Glob(filepath.Join(record, p.Name(), "*.json"))
		for _, f := range files {
			var ex struct {
				Key     string `json:"key"`
				Request struct {
					Path string         `json:"path"`
					Body map[string]any `json:"body"`
				} `json:"request"`
				Replies []struct {
					Status int            `json:"status"`
					Body   map[string]any `json:"body"`
				} `json:"replies"`
			}
			raw, err := os.ReadFile(f)
			if err != nil || json.Unmarshal(raw, &ex) != nil {
				t.Fatalf("%s: %v", f, err)
			}
			if filepath.Base(f) != ex.Key+".json" || ex.Request.Path != "/v1/chat/completions" || ex.Request.Body["model"] != "fake" ||
				!strings.Contains(string(raw), "choose_parity") || !strings.Contains(string(raw), "\n  ") {
				t.Errorf("%s is not a readable record of a move request:\n%s", f, raw)
			}
			for _, r := range ex.Replies {
				if r.Status != 200 || r.Body["choices"] == nil {
					t.Errorf("%s: reply %+v", f, r)
				}
			}
			replies += len(ex.Replies)
		}
	}
	if !slices.Equal(names, []string{"P01", "P03"}) || replies != asked {
		t.Errorf("the record holds folders %v and %d replies; want P01 and P03 and the provider's %d", names, replies, asked)
	}
}

func readMatches(t *testing.T, dir string) []match {
	t.Helper()
	var out []match
	files, _ := filepath.Glob(filepath.Join(dir, "matches", leagueID, "*.json"))
	for _, f := range files {
		var m match
		raw, err := os.ReadFile(f)
		if err != nil || json.Unmarshal(raw, &m) != nil {
			t.Fatalf("%s: %v", f, err)
		}
		out = append(out, m)
	}
	return out
}

// timeless is a JSON file with every time in it blanked: timestamps,
// durations, latencies and deadlines, which no replay repeats, and the
// order in which the transcript took messages sent at once (a referee
// invites both players, and asks both for their moves, at the same time),
// which is timing too: its entries are compared in a sorted order.
func timeless(t *testing.T, path string) string {
	t.Helper()
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	v = blankTimes(v)
	if m, ok := v.(map[string]any); ok {
		if transcript, ok := m["transcript"].([]any); ok {
			m["transcript"] = sortedEntries(transcript)
		}
	}
	out, _ := json.MarshalIndent(v, "", " ")
	return string(out)
}

// sortedEntries is a transcript without its sequence numbers, in the
// order of the entries' JSON.
func sortedEntries(transcript []any) []any {
	texts := make([]string, len(transcript))
	for i, e := range transcript {
		if entry, ok := e.(map[string]any); ok {
			delete(entry, "seq")
		}
		raw, _ := json.Marshal(e)
		texts[i] = string(raw)
	}
	slices.Sort(texts)
	out := make([]any, len(texts))
	for i, text := range texts {
		out[i] = json.RawMessage(text)
	}
	return out
}

func blankTimes(v any) any {
	switch x := v.(type) {
	case map[string]any:
		for k, sub := range x {
			if isTime(k) {
				x[k] = "<time>"
				continue
			}
			x[k] = blankTimes(sub)
		}
	case []any:
		for i, sub := range x {
			x[i] = blankTimes(sub)
		}
	}
	return v
}

func isTime(key string) bool {
	for _, suffix := range []string{"_at", "timestamp", "_ms", "deadline", "_time", "last_updated"} {
		if strings.HasSuffix(key, suffix) {
			return true
		}
	}
	return false
}

// lineDiff is the lines of got and want that differ, for a failure.
func lineDiff(got, want string) string {
	g, w := strings.Split(got, "\n"), strings.Split(want, "\n")
	var out []string
	for i := range max(len(g), len(w)) {
		var a, b string
		if i < len(g) {
			a = g[i]
		}
		if i < len(w) {
			b = w[i]
		}
		if a != b {
			out = append(out, "replayed: "+a, "recorded: "+b)
		}
	}
	return strings.Join(out, "\n")
}
