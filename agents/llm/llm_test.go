package llm_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/leaguetui/leaguetui/agents/llm"
	"github.com/leaguetui/leaguetui/config"
	"github.com/leaguetui/leaguetui/engine"
	"github.com/leaguetui/leaguetui/internal/leaguetest/fakellm"
)

const testKey = "sk-test-secret-0123456789"

// modelFor builds a model of provider that asks fake, its key in a
// variable of the test's own.
func modelFor(t *testing.T, provider string, fake *fakellm.Server) *llm.Model {
	t.Helper()
	t.Setenv("LLM_TEST_KEY", testKey)
	base := fake.URL
	if provider == "openai" {
		base = fake.OpenAIURL()
	}
	m, err := llm.New(config.LLM{Provider: provider, Model: "fake", BaseURL: base, APIKeyEnv: "LLM_TEST_KEY"}, llm.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func raceTurn(deadline time.Duration) llm.Turn {
	return llm.TurnFor(engine.MoveContext{Self: "P01", OpponentID: "P02", MatchID: "R1M1", GameType: engine.LinkRaceType,
		Turn: 2, MoveType: engine.NavigateMove, State: map[string]any{"current_page": "Paris", "target_page": "Rome",
			"links": []any{"France", "Seine"}, "steps_left": 6, "path": []any{"Lyon", "Paris"}}}, nil, time.Now().Add(deadline))
}

func parityTurn(deadline time.Duration) llm.Turn {
	return llm.TurnFor(engine.MoveContext{Self: "P01", OpponentID: "P02", MatchID: "R1M1", GameType: "even_odd", Turn: 1,
		MoveType: "choose_parity", Options: []string{"even", "odd"}},
		[]llm.PastMatch{{MyMove: "odd", OpponentMove: "even", Result: "LOSS", Details: map[string]any{"drawn_number": 4}}},
		time.Now().Add(deadline))
}

// Every answer of the fake ends in its taxonomy name and status, with the
// seed's metadata, from both providers' APIs.
func TestTaxonomy(t *testing.T) {
	cases := []struct {
		answer          fakellm.Answer
		errorType       string
		toolCall        bool
		choice, comment string
	}{
		{fakellm.Good, "", true, "France", "the first link not yet visited"},
		{fakellm.NoToolCall, engine.ErrorNoToolCall, false, "", ""},
		{fakellm.UnknownTool, engine.ErrorInvalidTool, true, "", ""},
		{fakellm.EmptyArguments, engine.ErrorInvalidTool, true, "", ""},
		{fakellm.IllegalLink, engine.ErrorInvalidLink, true, "", ""},
		{fakellm.RateLimited, engine.ErrorRateLimit, false, "", ""},
		{fakellm.Hang, engine.ErrorProviderTimeout, false, "", ""},
		{fakellm.ServerError, engine.ErrorProviderAPI, false, "", ""},
		{fakellm.MalformedJSON, engine.ErrorGeneration, false, "", ""},
	}
	for _, provider := range llm.APIs {
		for _, c := range cases {
			t.Run(provider+"/"+string(c.answer), func(t *testing.T) {
				fake := fakellm.Start(c.answer)
				defer fake.Close()
				fake.RetryAfter = 5 // longer than the move's deadline: no retry
				start := time.Now()
				move := modelFor(t, provider, fake).Ask(context.Background(), raceTurn(1500*time.Millisecond))
				if elapsed := time.Since(start); elapsed > 1500*time.Millisecond {
					t.Errorf("the move took %v, past its deadline", elapsed)
				}
				r := move.Report
				if move.Choice != c.choice || r.ErrorType != c.errorType {
					t.Fatalf("choice %q, error %q; want %q, %q (metadata %v)", move.Choice, r.ErrorType, c.choice, c.errorType, r.Metadata)
				}
				if r.Provider != provider || r.Model != "fake" {
					t.Errorf("report names %s/%s", r.Provider, r.Model)
				}
				reqs := fake.Requests()
				if len(reqs) == 0 || reqs[0].Key != testKey || reqs[0].API != provider || reqs[0].Tool != "navigate" {
					t.Fatalf("the fake got %+v", reqs)
				}
				if c.errorType == "" {
					if r.Status != "" || r.Metadata != nil || r.InputTokens != fakellm.InputTokens || r.OutputTokens != fakellm.OutputTokens {
						t.Errorf("a good move reports %+v", r)
					}
					return
				}
				wantStatus, _ := engine.ModelErrorStatus(c.errorType)
				meta := r.Metadata
				if r.Status != wantStatus || meta["provider"] != provider || meta["step"] != 2 ||
					meta["current_page"] != "Paris" || meta["has_tool_call_request"] != c.toolCall {
					t.Errorf("status %q, metadata %v", r.Status, meta)
				}
				if wantStatus == engine.RaceError && meta["exception_type"] == nil {
					t.Errorf("a provider failure without exception_type: %v", meta)
				}
				if c.errorType == engine.ErrorInvalidLink && (meta["requested_page"] != fakellm.IllegalPage ||
					meta["available_links_count"] != 2 || meta["is_target_page"] != false) {
					t.Errorf("invalid link metadata %v", meta)
				}
				raw, _ := json.Marshal(r)
				if strings.Contains(string(raw), testKey) {
					t.Errorf("the report holds the key: %s", raw)
				}
			})
		}
	}
}

// A 429 is retried after its Retry-After when the deadline allows.
func TestRetryAfterHonoured(t *testing.T) {
	fake := fakellm.Start(fakellm.RateLimited, fakellm.Good)
	defer fake.Close()
	move := modelFor(t, "openai", fake).Ask(context.Background(), parityTurn(5*time.Second))
	reqs := fake.Requests()
	if move.Choice != "even" || move.Report.ErrorType != "" || len(reqs) != 2 {
		t.Fatalf("move %+v after %d requests", move, len(reqs))
	}
	if gap := reqs[1].At.Sub(reqs[0].At); gap < time.Second {
		t.Errorf("retried after %v, before Retry-After's 1s", gap)
	}
}

// A provider that keeps failing opens its circuit: later moves fail at once
// without a request, and keep the failure's name.
func TestCircuitBreakerStopsHammering(t *testing.T) {
	fake := fakellm.Start(fakellm.RateLimited)
	defer fake.Close()
	fake.RetryAfter = 0
	m := modelFor(t, "anthropic", fake)
	var move llm.Move
	for range 3 {
		move = m.Ask(context.Background(), parityTurn(1200*time.Millisecond))
	}
	sent := len(fake.Requests())
	if sent < 5 || move.Report.ErrorType != engine.ErrorRateLimit {
		t.Fatalf("%d requests, last move %+v", sent, move.Report)
	}
	move = m.Ask(context.Background(), parityTurn(time.Second))
	if len(fake.Requests()) != sent || move.Report.ErrorType != engine.ErrorRateLimit ||
		move.Report.Metadata["exception_type"] != "CircuitOpen" {
		t.Errorf("with the circuit open: %d requests (had %d), move %+v", len(fake.Requests()), sent, move.Report)
	}
}

// The token cap stops a match's moves once spent, without a request.
func TestMaxTokensPerMatch(t *testing.T) {
	fake := fakellm.Start(fakellm.Good)
	defer fake.Close()
	t.Setenv("OPENAI_API_KEY", testKey)
	m, err := llm.New(config.LLM{Provider: "openai", Model: "fake", BaseURL: fake.OpenAIURL(), MaxTokensPerMatch: 100}, llm.Options{})
	if err != nil {
		t.Fatal(err)
	}
	first := m.Ask(context.Background(), raceTurn(2*time.Second))
	second := m.Ask(context.Background(), raceTurn(2*time.Second))
	if first.Choice == "" || second.Report.ErrorType != engine.ErrorGeneration ||
		second.Report.Metadata["exception_type"] != "TokenBudgetExceeded" || len(fake.Requests()) != 1 {
		t.Errorf("first %+v, second %+v, %d requests", first, second.Report, len(fake.Requests()))
	}
	m.Forget("R1M1")
	if third := m.Ask(context.Background(), raceTurn(2*time.Second)); third.Choice == "" {
		t.Errorf("a forgotten match is still capped: %+v", third.Report)
	}
}

func TestCheck(t *testing.T) {
	for _, bad := range []config.LLM{{Provider: "bard", Model: "x"}, {Provider: "openai"},
		{Provider: "openai", Model: "x", Fallback: "greedy"}, {Provider: "openai", Model: "x", MaxTokensPerMatch: -1}} {
		if llm.Check(bad) == nil {
			t.Errorf("%+v passed", bad)
		}
	}
	if err := llm.Check(config.LLM{Provider: "anthropic", Model: "x", Fallback: "random"}); err != nil {
		t.Error(err)
	}
}

// The even/odd prompt holds the opponent and the history against it; the
// tool offers the parities.
func TestParityTurn(t *testing.T) {
	turn := parityTurn(time.Second)
	if turn.Tool.Name != "choose_parity" || turn.Tool.Param != "parity" || len(turn.Tool.Options) != 2 ||
		!strings.Contains(turn.Prompt, "P02") || !strings.Contains(turn.Prompt, `you chose "odd", they chose "even", drawn 4: "LOSS"`) {
		t.Errorf("turn %+v", turn)
	}
}
