package llm_test

import (
	"testing"

	"github.com/leaguetui/leaguetui/internal/leaguetest/fakellm"
)

// A local OpenAI-compatible server (llama.cpp's, vLLM, Ollama): a base URL
// and a model, no key. One that takes tools plays by tool calls; one
// that refuses them plays by JSON in the text, found out on the first
// move (--llm-tool-calls auto, the default) or asked for from the start
// (off). Every model move is the server's.
func TestKeylessLocalServers(t *testing.T) {
	cases := []struct {
		name     string
		answer   fakellm.Answer
		setting  string
		textMove bool
	}{
		{"with tool calls", fakellm.Good, "", false},
		{"without tool calls, found out", fakellm.NoTools, "auto", true},
		{"without tool calls, said", fakellm.NoTools, "off", true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			fake := fakellm.Start(c.answer)
			defer fake.Close()
			t.Setenv("OPENAI_API_KEY", "")
			args := []string{"--players", "4", "--strategies", "llm,random", "--llm-provider", "openai",
				"--llm-base-url", fake.OpenAIURL(), "--suspend-after", "0"}
			if c.setting != "" {
				args = append(args, "--llm-tool-calls", c.setting)
			}
			matches, _ := runLeague(t, t.TempDir(), args...)
			moves := 0
			for _, m := range matches {
				for _, r := range modelReplies(t, m) {
					moves++
					if r.ErrorType != "" || m.Result.Choices[r.Player] != "even" {
						t.Errorf("%s: %s's move %q, model reply %+v", m.MatchID, r.Player, m.Result.Choices[r.Player], r)
					}
				}
				for _, e := range m.Transcript {
					if block, ok := e.Content["model"].(map[string]any); ok && (block["text_move"] == true) != c.textMove {
						t.Errorf("%s: text_move %v, want %v", m.MatchID, block["text_move"], c.textMove)
					}
				}
			}
			if moves != 6 {
				t.Errorf("%d model moves, want 6", moves)
			}
			for _, r := range fake.Requests() {
				if r.Key != "" {
					t.Errorf("a keyless player sent %q", r.Key)
				}
			}
		})
	}
}
