package tui

import (
	"fmt"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/leaguetui/leaguetui/internal/leaguetest"
	"github.com/leaguetui/leaguetui/internal/leaguetest/fakellm"
)

// TestModelMoneyInTmux: in a real terminal, a league of two priced model
// players (--llm-price 3,15 against the fake provider) shows each one's
// money, its tokens at the price, in the standings and the Agents pane.
func TestModelMoneyInTmux(t *testing.T) {
	bin := leaguetuiBinary(t)
	if _, err := exec.LookPath("tmux"); err != nil {
		leaguetest.SkipWithout(t, "tmux is not installed: the console's real-terminal test needs it")
	}
	fake := fakellm.Start(fakellm.Good)
	defer fake.Close()
	data := t.TempDir()
	x := leaguetest.NewTmux(t, 240, 40, fmt.Sprintf("exec env OPENAI_API_KEY=sk-tmux-test %s --free-ports --data %s --players 3 --referees 1 --seed 3 "+
		"--strategies llm,llm,random --llm-provider openai --llm-base-url %s --llm-model fake --llm-price 3,15", bin, data, fake.OpenAIURL()))
	x.WaitScreen(90*time.Second, "press s to start")
	x.Keys("s")
	// Each model player plays two matches, a move each: 240 tokens in and
	// 24 out, at 3 and 15 USD per million.
	money := fmt.Sprintf("~$%.6f", (2*fakellm.InputTokens*3.0+2*fakellm.OutputTokens*15.0)/1e6)
	x.Keys("3")
	screen := x.WaitScreenFor(90*time.Second, "both model players' money in the standings", func(s string) bool {
		return strings.Count(s, money) == 2 && strings.Contains(s, "est. cost")
	})
	if !strings.Contains(screen, "240/24") {
		t.Errorf("the standings lack the tokens beside the money:\n%s", screen)
	}
	x.Keys("4")
	x.WaitScreenFor(30*time.Second, "both model players' money in the Agents pane", func(s string) bool {
		return strings.Count(s, "240 in 24 out · "+money) == 2
	})
	x.Keys("q")
}

// TestReplayShowsModelReasoningInTmux: `leaguetui replay` of a model
// league shows, under each model move of the transcript, its prompt and
// the model's reply fenced behind a bar, and the move's money beside the
// player.
func TestReplayShowsModelReasoningInTmux(t *testing.T) {
	bin := leaguetuiBinary(t)
	if _, err := exec.LookPath("tmux"); err != nil {
		leaguetest.SkipWithout(t, "tmux is not installed: the replay's real-terminal test needs it")
	}
	fake := fakellm.Start(fakellm.Good)
	defer fake.Close()
	data := t.TempDir()
	cmd := exec.Command(bin, "--no-ui", "--quiet", "--free-ports", "--data", data, "--players", "2", "--referees", "1", "--seed", "5",
		"--strategies", "llm,random", "--llm-provider", "openai", "--llm-base-url", fake.OpenAIURL(), "--llm-model", "fake", "--llm-price", "3,15")
	cmd.Env = append(leaguetest.ChildEnv(), "OPENAI_API_KEY=sk-replay-test")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("leaguetui --no-ui: %v\n%s", err, out)
	}
	money := fmt.Sprintf("~$%.6f", (fakellm.InputTokens*3.0+fakellm.OutputTokens*15.0)/1e6)
	x := leaguetest.NewTmux(t, 160, 60, fmt.Sprintf("exec %s replay %s", bin, data))
	x.WaitScreen(20*time.Second, "match 1 of 1", "openai/fake 120/12 tok "+money, "┌ the model's reasoning", "├ prompt",
		"│ system: You are a player in a league", `│ You play even/odd against the player "P02"`, "├ reply",
		`│ tool call: choose_parity {"parity":"even"}`, "└")
	x.Keys("q")
}
