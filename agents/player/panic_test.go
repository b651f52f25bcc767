package player

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"io/fs"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/leaguetui/leaguetui/agents/llm"
	"github.com/leaguetui/leaguetui/config"
	"github.com/leaguetui/leaguetui/engine"
	"github.com/leaguetui/leaguetui/internal/leaguetest"
	"github.com/leaguetui/leaguetui/internal/leaguetest/fakellm"
)

// panicOnce is a counter whose first Add panics, as a Prometheus counter
// does when it is given a negative value.
type panicOnce struct {
	prometheus.Counter
	armed atomic.Bool
}

func (c *panicOnce) Add(v float64) {
	if c.armed.CompareAndSwap(true, false) {
		panic("counter cannot decrease in value")
	}
	c.Counter.Add(v)
}

// A model move that panics once its provider has answered, inside the
// player's lock (its cost counted on /metrics), fails that move alone: the
// referee gets the move's answer, a MODEL_GENERATION_ERROR (MovePanicked);
// the log says MOVE_PANICKED; the next move asks the provider and plays,
// and /health answers.
func TestPanickedMoveFailsAloneAndHoldsNoLock(t *testing.T) {
	fake := fakellm.Start(fakellm.Good)
	t.Cleanup(fake.Close)
	t.Setenv("LEAGUETUI_PANIC_TEST_KEY", "sk-test-0123456789")
	cfg := config.Default()
	cfg.Player.LLM = config.LLM{Provider: "openai", Model: "fake", BaseURL: fake.OpenAIURL(), APIKeyEnv: "LEAGUETUI_PANIC_TEST_KEY",
		Price: config.Price{InputPerMillion: 1, OutputPerMillion: 2, Set: true}}
	manager := leaguetest.NewPeer(t, func(req leaguetest.PeerRequest) (int, []byte) {
		if req.Method == "register_player" {
			return http.StatusOK, leaguetest.ResultReply(req.ID, map[string]any{"protocol": "league.v2",
				"message_type": "LEAGUE_REGISTER_RESPONSE", "sender": "league_manager", "status": "ACCEPTED",
				"player_id": "P07", "auth_token": "tok-p07", "league_id": "league_test"})
		}
		return http.StatusOK, leaguetest.ResultReply(req.ID, map[string]any{"status": "ok"})
	})
	dataDir := t.TempDir()
	p, err := New(Options{Config: cfg, DataDir: dataDir, ManagerURL: manager.Endpoint, Name: "model", Strategy: llm.StrategyName, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	counter := &panicOnce{Counter: p.metrics.ModelCost}
	counter.armed.Store(true)
	p.metrics.ModelCost = counter
	p.Stdout = io.Discard
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := p.Start(ctx); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		if err := p.Shutdown(ctx); err != nil {
			t.Errorf("shutdown: %v", err)
		}
	})

	first := moveOf(t, p.Endpoint(), "R1M1")
	if first.ErrorType != engine.ErrorGeneration || first.Metadata["exception_type"] != llm.MovePanicked || len(fake.Requests()) != 1 {
		t.Fatalf("the move that panicked: %+v after %d requests; want MovePanicked after one", first, len(fake.Requests()))
	}
	second := moveOf(t, p.Endpoint(), "R1M2")
	if second.ErrorType != "" || len(fake.Requests()) != 2 {
		t.Fatalf("the move after it: %+v after %d requests; want the provider asked and the move played", second, len(fake.Requests()))
	}
	client := http.Client{Timeout: 10 * time.Second}
	resp, err := client.Get(strings.TrimSuffix(p.Endpoint(), "/mcp") + "/health")
	if err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("GET /health after the panic: %v %v", resp, err)
	}
	resp.Body.Close()
	if !logHolds(t, dataDir, `"MOVE_PANICKED"`) {
		t.Error("no MOVE_PANICKED line in the player's log")
	}
}

// modelReport is the model block of a move reply.
type modelReport struct {
	ErrorType string         `json:"error_type"`
	Metadata  map[string]any `json:"metadata"`
}

// moveOf posts match's move call to the player at url and returns the
// model block of its answer, failing past 30 s.
func moveOf(t *testing.T, url, match string) modelReport {
	t.Helper()
	call := map[string]any{"protocol": "league.v2", "message_type": "CHOOSE_PARITY_CALL", "sender": "referee:REF01",
		"timestamp": time.Now().UTC().Format("2006-01-02T15:04:05Z"), "conversation_id": "conv-" + match, "league_id": "league_test",
		"round_id": 1, "match_id": match, "game_type": "even_odd", "auth_token": "tok-ref01", "player_id": "P07",
		"context": map[string]any{"opponent_id": "P08", "round_id": 1}}
	body, err := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 1, "method": "choose_parity", "params": call})
	if err != nil {
		t.Fatal(err)
	}
	client := http.Client{Timeout: 30 * time.Second}
	resp, err := client.Post(url, "application/json", bytes.NewReader(body))
	if err != nil {
		t.Fatalf("%s: %v", match, err)
	}
	defer resp.Body.Close()
	var reply struct {
		Result struct {
			MessageType string       `json:"message_type"`
			Model       *modelReport `json:"model"`
		} `json:"result"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&reply); err != nil || reply.Result.MessageType != "CHOOSE_PARITY_RESPONSE" ||
		reply.Result.Model == nil {
		t.Fatalf("%s: reply %+v, %v; want a CHOOSE_PARITY_RESPONSE with a model block", match, reply, err)
	}
	return *reply.Result.Model
}

// logHolds reports whether a file of the data folder holds text.
func logHolds(t *testing.T, dataDir, text string) bool {
	t.Helper()
	found := false
	err := filepath.WalkDir(dataDir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		raw, err := os.ReadFile(path)
		found = found || bytes.Contains(raw, []byte(text))
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return found
}
