package player_test

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/leaguetui/leaguetui/agents/llm"
	"github.com/leaguetui/leaguetui/agents/player"
	"github.com/leaguetui/leaguetui/config"
	"github.com/leaguetui/leaguetui/engine"
	"github.com/leaguetui/leaguetui/internal/leaguetest/fakellm"
)

// A provider that says a move cost math.MaxInt64 tokens, and then a
// negative count (which the player's token counters panicked on, with
// its lock held), fails those two moves as MODEL_GENERATION_ERROR; the
// player asks its provider for the next move and plays it, and /health
// answers all along.
func TestImpossibleUsageLeavesThePlayerPlaying(t *testing.T) {
	fake := fakellm.Start(fakellm.HugeUsage, fakellm.NegativeUsage, fakellm.Good)
	t.Cleanup(fake.Close)
	t.Setenv("LEAGUETUI_USAGE_TEST_KEY", "sk-test-0123456789")
	cfg := config.Default()
	cfg.Player.LLM = config.LLM{Provider: "openai", Model: "fake", BaseURL: fake.OpenAIURL(), APIKeyEnv: "LEAGUETUI_USAGE_TEST_KEY",
		Price: config.Price{InputPerMillion: 1, OutputPerMillion: 2, Set: true}}
	p := runPlayer(t, player.Options{Config: cfg, DataDir: t.TempDir(), Name: "model", Strategy: llm.StrategyName, Seed: 1}, nil)
	for i, want := range []string{engine.ErrorGeneration, engine.ErrorGeneration, ""} {
		match := []string{"R1M1", "R1M2", "R1M3"}[i]
		reply := postWithin(t, p.Endpoint(), "choose_parity", gameMessage("CHOOSE_PARITY_CALL", match, map[string]any{
			"player_id": playerID, "context": map[string]any{"opponent_id": "P08", "round_id": 1}}))
		if reply.err != nil || reply.Result.MessageType != "CHOOSE_PARITY_RESPONSE" || reply.Result.Model == nil ||
			reply.Result.Model.ErrorType != want {
			t.Fatalf("move %d: %+v (%v); want a CHOOSE_PARITY_RESPONSE with error %q", i+1, reply.Result, reply.err, want)
		}
		if got := len(fake.Requests()); got != i+1 {
			t.Fatalf("after move %d the provider had %d requests", i+1, got)
		}
		checkHealth(t, p.Endpoint())
	}
}

// postWithin is post, failing the test if the reply takes past 30 s (a
// player whose lock is held never answers).
func postWithin(t *testing.T, url, method string, params any) moveReply {
	t.Helper()
	done := make(chan moveReply, 1)
	go func() { done <- post(url, method, params) }()
	select {
	case reply := <-done:
		return reply
	case <-time.After(30 * time.Second):
		t.Fatalf("%s: no reply within 30 s", method)
		return moveReply{}
	}
}

// checkHealth requires GET /health of the player at endpoint to answer
// 200 within 10 s.
func checkHealth(t *testing.T, endpoint string) {
	t.Helper()
	client := http.Client{Timeout: 10 * time.Second}
	resp, err := client.Get(strings.TrimSuffix(endpoint, "/mcp") + "/health")
	if err != nil {
		t.Fatalf("GET /health: %v", err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("GET /health: %s", resp.Status)
	}
}
