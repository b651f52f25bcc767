package metrics_test

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/leaguetui/leaguetui/internal/leaguetest"
	"github.com/leaguetui/leaguetui/internal/leaguetest/fakellm"
	"github.com/leaguetui/leaguetui/league/control"
)

// A model player with a budget of one token asks its model for its first
// move only; /metrics counts the moves its spent budget refused, as many
// as the match files mark budget_spent.
func TestBudgetRefusalsCounted(t *testing.T) {
	fake := fakellm.Start(fakellm.Good)
	defer fake.Close()
	t.Setenv("OPENAI_API_KEY", "sk-metrics-test-key")
	dir := t.TempDir()
	args := []string{"--move-timeout", "3s", "--retry-delay", "50ms", "--games-per-pair", "3", "--suspend-after", "0"}
	mgr := leaguetest.StartManager(t, dir, adminToken, append([]string{"--seed", "9"}, args...)...)
	leaguetest.StartReferee(t, dir, mgr.Endpoint, "REF01", args...)
	model := leaguetest.StartPlayer(t, dir, mgr.Endpoint, "model", append([]string{"--strategy", "llm", "--llm-provider", "openai",
		"--llm-base-url", fake.OpenAIURL(), "--llm-model", "fake", "--llm-budget-tokens", "1", "--llm-fallback", "random"}, args...)...)
	leaguetest.StartPlayer(t, dir, mgr.Endpoint, "random", append([]string{"--strategy", "random"}, args...)...)
	ctl := control.New(mgr.Endpoint, adminToken)
	if err := ctl.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	leaguetest.UntilCompleted(t, ctl, 0, 3*time.Minute)
	refused := 0
	for _, f := range leaguetest.ReadMatchFiles[leaguetest.MatchFile[json.RawMessage]](t, dir, leagueID) {
		for _, e := range f.Transcript {
			if block, ok := e.Content["model"].(map[string]any); ok && block["budget_spent"] == "player" {
				refused++
			}
		}
	}
	got := scrape(t, model.Endpoint).value("leaguetui_player_model_budget_refusals_total", "budget", "player")
	if refused != 2 || got != float64(refused) || len(fake.Requests()) != 1 {
		t.Errorf("model_budget_refusals_total{player} = %v; the match files mark %d moves, the provider got %d requests; want 2, 2, 1",
			got, refused, len(fake.Requests()))
	}
}
