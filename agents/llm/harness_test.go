package llm_test

import (
	"context"
	"encoding/json"
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

// harnessModel is a model of provider asking fake with harness h,
// recording every request in record ("" for none).
func harnessModel(t *testing.T, provider string, fake *fakellm.Server, h config.Harness, record string) *llm.Model {
	t.Helper()
	t.Setenv("LLM_TEST_KEY", testKey)
	base := fake.URL
	if provider == "openai" {
		base = fake.OpenAIURL()
	}
	m, err := llm.New(config.LLM{Provider: provider, Model: "fake", BaseURL: base, APIKeyEnv: "LLM_TEST_KEY", RecordDir: record,
		Harness: h}, llm.Options{Player: "P01"})
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// recordedBodies are the request bodies and harnesses a record folder
// holds for P01, by file.
func recordedBodies(t *testing.T, record string) map[string]map[string]any {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(record, "P01", "*.json"))
	out := map[string]map[string]any{}
	for _, f := range files {
		var ex map[string]any
		raw, err := os.ReadFile(f)
		if err != nil || json.Unmarshal(raw, &ex) != nil {
			t.Fatalf("%s: %v", f, err)
		}
		out[filepath.Base(f)] = ex
	}
	return out
}

// The sampling settings reach the provider as its API names them, and the
// record keeps the harness beside the request, in its key: the same
// request of the built-in harness is another file.
func TestHarnessSamplingReachesTheProvider(t *testing.T) {
	fake := fakellm.Start(fakellm.Good)
	defer fake.Close()
	h := config.Harness{Temperature: config.Number{Set: true, Value: 0.2}, TopP: config.Number{Set: true, Value: 0.9},
		Seed: config.Number{Set: true, Value: 7}, ReasoningEffort: "low", MaxOutputTokens: 99}
	record := t.TempDir()
	move := harnessModel(t, "openai", fake, h, record).Ask(context.Background(), parityTurn(5*time.Second))
	if move.Choice != "even" || move.Report.Harness == nil || *move.Report.Harness.Temperature != 0.2 || *move.Report.Harness.Seed != 7 {
		t.Fatalf("move %+v, harness %s", move, move.Report.Harness)
	}
	if got, want := move.Report.Harness.String(), "temperature 0.2, top_p 0.9, seed 7, effort low, max_output 99"; got != want {
		t.Errorf("the harness in a line: %q, want %q", got, want)
	}
	harnessModel(t, "openai", fake, config.Harness{}, record).Ask(context.Background(), parityTurn(5*time.Second))
	bodies := recordedBodies(t, record)
	if len(bodies) != 2 {
		t.Fatalf("%d record files, want one per harness", len(bodies))
	}
	var withHarness map[string]any
	for _, ex := range bodies {
		if ex["harness"] != nil {
			withHarness = ex["request"].(map[string]any)["body"].(map[string]any)
		}
	}
	want := map[string]any{"temperature": 0.2, "top_p": 0.9, "seed": 7.0, "reasoning_effort": "low", "max_completion_tokens": 99.0}
	for k, v := range want {
		if withHarness[k] != v {
			t.Errorf("request %s = %v, want %v (body %v)", k, withHarness[k], v, withHarness)
		}
	}
	for _, ex := range bodies {
		body := ex["request"].(map[string]any)["body"].(map[string]any)
		if ex["harness"] == nil && (body["temperature"] != nil || body["max_completion_tokens"] != 256.0) {
			t.Errorf("the built-in harness's request: %v", body)
		}
	}
}

// Anthropic's thinking budget is sent as its thinking block, with the
// output cap above it.
func TestThinkingBudgetReachesAnthropic(t *testing.T) {
	fake := fakellm.Start(fakellm.Good)
	defer fake.Close()
	record := t.TempDir()
	harnessModel(t, "anthropic", fake, config.Harness{ThinkingBudget: 2048, TopP: config.Number{Set: true, Value: 0.95}}, record).
		Ask(context.Background(), parityTurn(5*time.Second))
	for _, ex := range recordedBodies(t, record) {
		body := ex["request"].(map[string]any)["body"].(map[string]any)
		thinking, _ := body["thinking"].(map[string]any)
		if thinking["type"] != "enabled" || thinking["budget_tokens"] != 2048.0 || body["max_tokens"] != 2048.0+256 || body["top_p"] != 0.95 {
			t.Errorf("request %v", body)
		}
	}
}

// What a provider's API does not take, or values out of range, are
// refused before any move, each with its reason.
func TestHarnessChecked(t *testing.T) {
	dir := t.TempDir()
	empty := filepath.Join(dir, "empty.txt")
	badTemplate := filepath.Join(dir, "bad.tmpl")
	os.WriteFile(empty, []byte(" \n"), 0o644)
	os.WriteFile(badTemplate, []byte("{{.Nope}}"), 0o644)
	cases := []struct {
		provider string
		h        config.Harness
		want     string
	}{
		{"anthropic", config.Harness{Seed: config.Number{Set: true, Value: 1}}, "takes no seed"},
		{"anthropic", config.Harness{ReasoningEffort: "low"}, "thinking budget instead"},
		{"openai", config.Harness{ThinkingBudget: 2048}, "only Anthropic"},
		{"anthropic", config.Harness{ThinkingBudget: 2048, Temperature: config.Number{Set: true, Value: 1}}, "no temperature with thinking"},
		{"anthropic", config.Harness{ThinkingBudget: 2048, MaxOutputTokens: 1000}, "must be more than --llm-thinking-budget"},
		{"openai", config.Harness{SystemPromptFile: filepath.Join(dir, "missing.txt")}, "--llm-system-prompt-file"},
		{"openai", config.Harness{SystemPromptFile: empty}, "the file is empty"},
		{"openai", config.Harness{PromptTemplateFile: badTemplate}, "Nope"},
	}
	for _, c := range cases {
		err := llm.Check(config.LLM{Provider: c.provider, Model: "m", Harness: c.h})
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s %+v: %v, want %q", c.provider, c.h, err, c.want)
		}
	}
}

// A harness's own system prompt and template shape what is asked, and
// history and moves what the prompt shows.
func TestHarnessShapesThePrompt(t *testing.T) {
	dir := t.TempDir()
	system, tmpl := filepath.Join(dir, "system.txt"), filepath.Join(dir, "prompt.tmpl")
	os.WriteFile(system, []byte("You are a careful racer."), 0o644)
	os.WriteFile(tmpl, []byte("Game {{.Game}} turn {{.Turn}} against {{.Opponent}}.\nPath: {{.History}}\n{{.Prompt}}"), 0o644)
	fake := fakellm.Start(fakellm.Good)
	defer fake.Close()
	h := config.Harness{SystemPromptFile: system, PromptTemplateFile: tmpl, History: "1", Moves: config.MovesHidden}
	move := harnessModel(t, "openai", fake, h, "").Ask(context.Background(), raceTurn(5*time.Second))
	prompt := fake.Requests()[0].Prompt
	for _, want := range []string{"You are a careful racer.", `Game link_race turn 2 against "P02".`, `Path: ["Paris"]`, llm.PathLabel + `["Paris"]`} {
		if !strings.Contains(prompt, want) {
			t.Errorf("the prompt lacks %q:\n%s", want, prompt)
		}
	}
	if strings.Contains(prompt, llm.LinksLabel) || strings.Contains(prompt, "Lyon") {
		t.Errorf("the prompt shows the links or the path's start:\n%s", prompt)
	}
	if move.Report.Harness == nil || !strings.HasPrefix(move.Report.Harness.SystemPrompt, "system.txt sha256:") ||
		!strings.HasPrefix(move.Report.Harness.PromptTemplate, "prompt.tmpl sha256:") {
		t.Errorf("the move's harness %+v", move.Report.Harness)
	}
}

// history none leaves even/odd's earlier matches out; the built-in
// harness keeps them.
func TestHistoryNone(t *testing.T) {
	fake := fakellm.Start(fakellm.Good)
	defer fake.Close()
	harnessModel(t, "openai", fake, config.Harness{History: config.HistoryNone}, "").Ask(context.Background(), parityTurn(5*time.Second))
	harnessModel(t, "openai", fake, config.Harness{}, "").Ask(context.Background(), parityTurn(5*time.Second))
	reqs := fake.Requests()
	if strings.Contains(reqs[0].Prompt, "earlier matches") || !strings.Contains(reqs[1].Prompt, "earlier matches") {
		t.Errorf("history none:\n%s\nbuilt-in:\n%s", reqs[0].Prompt, reqs[1].Prompt)
	}
}

// A link not on the page then a legal one: with rethinks the move is the
// legal one, both asks in its report and its cost, the second asked with
// the game's error; without, the move is lost as it always was.
func TestRethinkAfterAnIllegalLink(t *testing.T) {
	fake := fakellm.Start(fakellm.IllegalLink, fakellm.Good)
	defer fake.Close()
	move := harnessModel(t, "openai", fake, config.Harness{Rethinks: 2}, "").Ask(context.Background(), raceTurn(5*time.Second))
	r := move.Report
	if move.Choice != "France" || r.ErrorType != "" || r.Rethinks != 1 || len(r.Asks) != 2 {
		t.Fatalf("move %q, report %+v", move.Choice, r)
	}
	if r.Asks[0].ErrorType != engine.ErrorInvalidLink || !strings.Contains(r.Asks[0].Feedback, fakellm.IllegalPage) || r.Asks[1].ErrorType != "" {
		t.Errorf("asks %+v", r.Asks)
	}
	if r.InputTokens != 2*fakellm.InputTokens || r.OutputTokens != 2*fakellm.OutputTokens {
		t.Errorf("the move's tokens %d/%d, want both asks'", r.InputTokens, r.OutputTokens)
	}
	second := fake.Requests()[1].Prompt
	if !strings.Contains(second, llm.RethinkLabel) || !strings.Contains(second, engine.ErrorInvalidLink) {
		t.Errorf("the rethink's prompt lacks the game's error:\n%s", second)
	}

	again := fakellm.Start(fakellm.IllegalLink, fakellm.Good)
	defer again.Close()
	lost := harnessModel(t, "openai", again, config.Harness{}, "").Ask(context.Background(), raceTurn(5*time.Second))
	if lost.Report.ErrorType != engine.ErrorInvalidLink || lost.Report.Rethinks != 0 || lost.Report.Asks != nil || len(again.Requests()) != 1 {
		t.Errorf("without rethinks: %+v after %d requests", lost.Report, len(again.Requests()))
	}
}

// A model that never answers with a move is asked once and its rethinks,
// and the move is lost with the last answer's error.
func TestRethinksRunOut(t *testing.T) {
	fake := fakellm.Start(fakellm.NoToolCall)
	defer fake.Close()
	move := harnessModel(t, "anthropic", fake, config.Harness{Rethinks: 2}, "").Ask(context.Background(), parityTurn(5*time.Second))
	r := move.Report
	if r.ErrorType != engine.ErrorNoToolCall || r.Rethinks != 2 || len(r.Asks) != 3 || len(fake.Requests()) != 3 {
		t.Fatalf("report %+v after %d requests", r, len(fake.Requests()))
	}
	if r.Asks[2].Feedback != "" || r.Asks[1].Feedback == "" {
		t.Errorf("asks %+v: the last is given no feedback, the others are", r.Asks)
	}
}

// A provider's failure is not rethought: its retries are its own.
func TestProviderFailureIsNoRethink(t *testing.T) {
	fake := fakellm.Start(fakellm.ServerError)
	defer fake.Close()
	move := harnessModel(t, "openai", fake, config.Harness{Rethinks: 3}, "").Ask(context.Background(), parityTurn(time.Second))
	if move.Report.ErrorType != engine.ErrorProviderAPI || move.Report.Rethinks != 0 {
		t.Errorf("report %+v", move.Report)
	}
}
