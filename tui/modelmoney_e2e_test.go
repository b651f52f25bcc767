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
