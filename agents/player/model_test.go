package player_test

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"testing"
	"time"

	"github.com/leaguetui/leaguetui/agents/llm"
	"github.com/leaguetui/leaguetui/agents/player"
	"github.com/leaguetui/leaguetui/config"
	"github.com/leaguetui/leaguetui/internal/leaguetest/fakellm"
)

// TestShutdownCancelsTheModelCall asks a model player for a move while its
// provider holds the request (fakellm.Hang), under a move timeout of five
// minutes, and shuts the player down meanwhile. The shutdown cancels the
// model call: the provider's request is given up at once, and the move
// call is answered (the model's failure) before the player stops serving,
// instead of the call being cut off while the model call goes on.
func TestShutdownCancelsTheModelCall(t *testing.T) {
	fake := fakellm.Start(fakellm.Hang)
	t.Cleanup(fake.Close)
	t.Setenv("LEAGUETUI_SHUTDOWN_TEST_KEY", "sk-test-0123456789")
	cfg := config.Default()
	cfg.Timeouts.Move = 5 * time.Minute
	cfg.Player.LLM = config.LLM{Provider: "openai", Model: "fake", BaseURL: fake.OpenAIURL(), APIKeyEnv: "LEAGUETUI_SHUTDOWN_TEST_KEY"}
	p := runPlayer(t, player.Options{Config: cfg, DataDir: t.TempDir(), Name: "model", Strategy: llm.StrategyName, Seed: 1}, nil)

	call := gameMessage("CHOOSE_PARITY_CALL", "R1M1", map[string]any{"player_id": playerID,
		"context": map[string]any{"opponent_id": "P08", "round_id": 1}})
	answered := make(chan moveReply, 1)
	go func() { answered <- post(p.Endpoint(), "choose_parity", call) }()
	waitFor(t, "the provider to hold the model call", func() bool { return fake.Holding() == 1 })

	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	began := time.Now()
	if err := p.Shutdown(ctx); err != nil {
		t.Fatalf("shutdown during a model call: %v", err)
	}
	waitFor(t, "the player to give up the model call", func() bool { return fake.Holding() == 0 })
	t.Logf("model call given up %v after the shutdown began", time.Since(began).Round(time.Millisecond))
	reply := <-answered // the player no longer serves: the call has ended, one way or the other
	if reply.err != nil || reply.Result.MessageType != "CHOOSE_PARITY_RESPONSE" || reply.Result.Model == nil ||
		reply.Result.Model.Status == "" {
		t.Errorf("the move call ended with %+v (%v); want a CHOOSE_PARITY_RESPONSE saying the model failed", reply.Result, reply.err)
	}
}

// moveReply is a move call's reply, as far as the test reads it.
type moveReply struct {
	Result struct {
		MessageType string `json:"message_type"`
		Model       *struct {
			Status    string `json:"status"`
			ErrorType string `json:"error_type"`
		} `json:"model"`
	} `json:"result"`
	err error
}

// post sends a move call and reads its reply.
func post(url, method string, params any) (reply moveReply) {
	body, err := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 1, "method": method, "params": params})
	if err != nil {
		return moveReply{err: err}
	}
	resp, err := http.Post(url, "application/json", bytes.NewReader(body))
	if err != nil {
		return moveReply{err: err}
	}
	defer resp.Body.Close()
	reply.err = json.NewDecoder(resp.Body).Decode(&reply)
	return reply
}

// waitFor polls cond until it holds, for at most 20 s.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for end := time.Now().Add(20 * time.Second); !cond(); time.Sleep(10 * time.Millisecond) {
		if time.Now().After(end) {
			t.Fatalf("timed out waiting for %s", what)
		}
	}
}
