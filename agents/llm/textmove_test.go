package llm_test

import (
	"testing"
	"time"

	"github.com/leaguetui/leaguetui/agents/llm"
	"github.com/leaguetui/leaguetui/config"
	"github.com/leaguetui/leaguetui/engine"
	"github.com/leaguetui/leaguetui/internal/leaguetest/fakellm"
)

// keylessModel is a model of a local server: a base URL, a model, no key.
func keylessModel(t *testing.T, provider string, fake *fakellm.Server, toolCalls string) *llm.Model {
	t.Helper()
	t.Setenv("OPENAI_API_KEY", "")
	t.Setenv("ANTHROPIC_API_KEY", "")
	base := fake.URL
	if provider == "openai" {
		base = fake.OpenAIURL()
	}
	m, err := llm.New(config.LLM{Provider: provider, Model: "local", BaseURL: base, ToolCalls: toolCalls}, llm.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// A server without tool calls, in auto mode: the first request, with
// tools, is refused; the move is asked again at once as text and every
// later move as text only, without a key.
func TestServerWithoutToolCallsPlaysThroughText(t *testing.T) {
	for _, provider := range []string{"openai", "anthropic"} {
		t.Run(provider, func(t *testing.T) {
			fake := fakellm.Start(fakellm.NoTools)
			defer fake.Close()
			m := keylessModel(t, provider, fake, llm.ToolCallsAuto)
			if provider == "anthropic" { // its SDK sends nothing without a key; local servers speak OpenAI's API
				t.Setenv("LLM_TEST_KEY", testKey)
				var err error
				if m, err = llm.New(config.LLM{Provider: provider, Model: "local", BaseURL: fake.URL, APIKeyEnv: "LLM_TEST_KEY"}, llm.Options{}); err != nil {
					t.Fatal(err)
				}
			}
			for i, turn := range []llm.Turn{parityTurn(5 * time.Second), raceTurn(5 * time.Second)} {
				move := m.Ask(t.Context(), turn)
				want := []string{"even", "France"}[i]
				if move.Choice != want || !move.Report.TextMove || move.Report.ErrorType != "" {
					t.Errorf("move %d: %+v, want %s from the text", i, move, want)
				}
			}
			var text []bool
			for _, r := range fake.Requests() {
				text = append(text, r.Text)
				if r.Key != "" && provider == "openai" {
					t.Errorf("a keyless model sent the key %q", r.Key)
				}
			}
			if len(text) != 3 || text[0] || !text[1] || !text[2] {
				t.Errorf("requests as text: %v, want tools once, then text twice", text)
			}
		})
	}
}

// --llm-tool-calls off asks as text from the first move; on never takes
// a move from the text; auto takes a text move from a server that got
// tools and did not call one.
func TestToolCallSettings(t *testing.T) {
	cases := []struct {
		answer    fakellm.Answer
		setting   string
		errorType string
		text      bool // the request offered no tool
	}{
		{fakellm.Good, llm.ToolCallsOff, "", true},
		{fakellm.TextMove, llm.ToolCallsAuto, "", false},
		{fakellm.TextMove, llm.ToolCallsOn, engine.ErrorNoToolCall, false},
		{fakellm.NoTools, llm.ToolCallsOn, engine.ErrorGeneration, false},
		{fakellm.NoToolCall, llm.ToolCallsAuto, engine.ErrorNoToolCall, false},
	}
	for _, c := range cases {
		t.Run(string(c.answer)+"/"+c.setting, func(t *testing.T) {
			fake := fakellm.Start(c.answer)
			defer fake.Close()
			move := keylessModel(t, "openai", fake, c.setting).Ask(t.Context(), parityTurn(5*time.Second))
			if move.Report.ErrorType != c.errorType || (c.errorType == "" && move.Choice != "even") {
				t.Errorf("move %+v, want error %q", move, c.errorType)
			}
			if r := fake.Requests(); len(r) != 1 || r[0].Text != c.text {
				t.Errorf("requests %+v, want one, as text: %v", r, c.text)
			}
		})
	}
	if err := llm.Check(config.LLM{Model: "m", ToolCalls: "sometimes"}); err == nil {
		t.Error("--llm-tool-calls sometimes was taken")
	}
}
