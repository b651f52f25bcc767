package tui

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/leaguetui/leaguetui/league/control"
)

// A game program's drawing of what a move call's seat sees shows in the
// transcript view under the call, a line of the game's a line behind a
// bar, with what a terminal would obey escaped: the game is a participant.
func TestTranscriptShowsTheGamesDrawing(t *testing.T) {
	fake := newFakeManager(t)
	m := newTestModel(t, control.New(fake.srv.URL, ""), t0)
	l := completedLeague(t)
	feed(m, l)
	id := l.rounds[0].Matches[0].MatchID
	call := map[string]any{"message_type": "GAME_MOVE_CALL", "move_request": map[string]any{"move_type": "place",
		"valid_options": []string{"1", "2"}, "turn": 3,
		"context": map[string]any{"board": "XO.......", "text": "X O .\n. \x1b[2J. .\n. . ."}}}
	file := map[string]any{"match_id": id, "game_type": "tic_tac_toe",
		"lifecycle": map[string]any{"started_at": "2025-03-14T15:09:27Z", "finished_at": "2025-03-14T15:09:28Z"},
		"transcript": []any{map[string]any{"seq": 1, "timestamp": "2025-03-14T15:09:27.100Z",
			"message_type": "GAME_MOVE_CALL", "from": "REF01", "to": "P01", "content": call}},
		"result": map[string]any{"status": "WIN", "winner": "P01"}}
	raw, _ := json.Marshal(file)
	fake.matchFiles[id] = string(raw)
	msg := loadTranscript(t.Context(), m.opts.Control, id)().(transcriptMsg)
	if msg.Err != nil {
		t.Fatal(msg.Err)
	}
	m.Update(openMatchMsg{MatchID: id})
	m.Update(msg)
	screen := m.screen()
	for _, want := range []string{"▏ X O .", `▏ . \x1b[2J. .`, "▏ . . ."} {
		if !strings.Contains(screen, want) {
			t.Errorf("transcript lacks %q:\n%s", want, screen)
		}
	}
	if strings.Contains(screen, "\x1b[2J") {
		t.Errorf("the game's drawing reached the terminal raw:\n%s", screen)
	}
}
