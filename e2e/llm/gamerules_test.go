package llm_test

import (
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/leaguetui/leaguetui/agents/llm"
	"github.com/leaguetui/leaguetui/config"
	"github.com/leaguetui/leaguetui/internal/leaguetest"
	"github.com/leaguetui/leaguetui/internal/leaguetest/fakellm"
)

// TestModelPlaysAGameProgramFromItsRules: model players (the fake
// provider) play tic-tac-toe, a game program leaguetui knows nothing of,
// from what the prompt gives them: the rules of the game's manifest, the
// board the game shows the seat and the legal squares, the move offered as
// the game's own tool with the legal squares as its only values. Every
// model move is legal (the fake plays the first value offered) and the
// league completes with no technical loss.
func TestModelPlaysAGameProgramFromItsRules(t *testing.T) {
	if _, err := exec.LookPath("python3"); err != nil {
		leaguetest.SkipWithout(t, "python3 is not installed: the example game programs are Python")
	}
	game, err := filepath.Abs(filepath.Join("..", "..", "examples", "games", "tic_tac_toe.json"))
	if err != nil {
		t.Fatal(err)
	}
	manifest, err := config.LoadGameManifest(game)
	if err != nil {
		t.Fatal(err)
	}
	fake := fakellm.Start(fakellm.Good)
	t.Cleanup(fake.Close)
	t.Setenv("OPENAI_API_KEY", testKey)
	matches, _ := runLeague(t, t.TempDir(), "--game", game, "--players", "4", "--strategies", "llm,random",
		"--llm-provider", "openai", "--llm-base-url", fake.OpenAIURL(), "--suspend-after", "0")
	if len(matches) != 6 {
		t.Fatalf("%d match files, want 6", len(matches))
	}
	moves := 0
	for _, m := range matches {
		if m.Result.Status == "TECHNICAL_LOSS" {
			t.Errorf("%s: a technical loss: %+v", m.MatchID, m.Result)
		}
		for _, r := range modelReplies(t, m) {
			moves++
			if r.ErrorType != "" || r.Fallback {
				t.Errorf("%s: %s's model move failed: %+v", m.MatchID, r.Player, r)
			}
		}
	}
	requests := fake.Requests()
	if moves == 0 || len(requests) != moves {
		t.Fatalf("%d model moves in the match files, %d requests to the provider", moves, len(requests))
	}
	for _, r := range requests {
		if r.Tool != "place" || !strings.Contains(r.Prompt, llm.RulesLabel+"\n"+manifest.Rules+"\n") ||
			!strings.Contains(r.Prompt, "Your legal moves (JSON): [") || !strings.Contains(r.Prompt, `"board"`) {
			t.Errorf("the provider was asked for %q with a prompt lacking the rules, the legal moves or the board:\n%s", r.Tool, r.Prompt)
		}
	}
}
