package tui

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/leaguetui/leaguetui/league/control"
)

// A model move's prompt and reply, in the match file the manager serves,
// show in the transcript view fenced behind a bar, a line of theirs a line
// of the block, with what a terminal would obey escaped.
func TestTranscriptShowsModelReasoningFenced(t *testing.T) {
	fake := newFakeManager(t)
	m := newTestModel(t, control.New(fake.srv.URL, ""), t0)
	l := completedLeague(t)
	feed(m, l)
	id := l.rounds[0].Matches[0].MatchID
	model := map[string]any{"provider": "openai", "model": "fake", "input_tokens": 120, "output_tokens": 12,
		"reasoning": map[string]any{"prompt": "system: play well\n\nYou play even/odd against \"P02\".",
			"reply": "I pick even.\x1b[2J\n\ntool call: choose_parity {\"parity\":\"even\"}"}}
	content := map[string]any{"message_type": "CHOOSE_PARITY_RESPONSE", "parity_choice": "even", "model": model}
	file := map[string]any{"match_id": id, "game_type": "even_odd",
		"lifecycle": map[string]any{"started_at": "2025-03-14T15:09:27Z", "finished_at": "2025-03-14T15:09:28Z"},
		"transcript": []any{map[string]any{"seq": 1, "timestamp": "2025-03-14T15:09:27.100Z",
			"message_type": "CHOOSE_PARITY_RESPONSE", "from": "P01", "to": "REF01", "content": content}},
		"result": map[string]any{"status": "WIN", "winner": "P01"}}
	raw, _ := json.Marshal(file)
	fake.matchFiles[id] = string(raw)
	msg := loadTranscript(t.Context(), m.opts.Control, id)().(transcriptMsg)
	if msg.Err != nil {
		t.Fatal(msg.Err)
	}
	m.Update(openMatchMsg{MatchID: id})
	m.Update(msg)
	for range 2 { // drawn twice: the reasoning stays
		screen := m.screen()
		for _, want := range []string{"┌ the model's reasoning", "├ prompt", "│ system: play well", `│ You play even/odd against "P02".`,
			"├ reply", `│ I pick even.\x1b[2J`, `│ tool call: choose_parity {"parity":"even"}`, "└"} {
			if !strings.Contains(screen, want) {
				t.Errorf("transcript lacks %q:\n%s", want, screen)
			}
		}
		if strings.Contains(screen, "\x1b[2J") || strings.Contains(screen, "reasoning=") {
			t.Errorf("the reasoning is raw or in the summary line:\n%s", screen)
		}
	}
}
