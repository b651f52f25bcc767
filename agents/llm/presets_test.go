package llm_test

import (
	"strings"
	"testing"
	"time"

	"github.com/leaguetui/leaguetui/agents/llm"
	"github.com/leaguetui/leaguetui/config"
	"github.com/leaguetui/leaguetui/internal/leaguetest/fakellm"
)

// --llm-provider takes every API and every preset; an unknown name is
// refused naming all of them.
func TestUnknownPresetNamesTheKnown(t *testing.T) {
	for _, name := range llm.Providers {
		if err := llm.Check(config.LLM{Provider: name, Model: "m"}); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
	err := llm.Check(config.LLM{Provider: "openroute", Model: "m"})
	if err == nil || !strings.Contains(err.Error(), `--llm-provider "openroute"`) {
		t.Fatalf("an unknown preset: %v", err)
	}
	for _, name := range llm.Providers {
		if !strings.Contains(err.Error(), name) {
			t.Errorf("%q does not name %s", err, name)
		}
	}
}

// A keyless preset needs no key, even with no OPENAI_API_KEY; a preset
// with a key variable needs that one set, even with OPENAI_API_KEY set,
// unless a key variable or file of one's own is given.
func TestPresetKeys(t *testing.T) {
	t.Setenv("OPENAI_API_KEY", "")
	t.Setenv("GEMINI_API_KEY", "")
	t.Setenv("OPENROUTER_API_KEY", "")
	for _, p := range config.Presets {
		err := llm.CheckIn(config.Default(), config.LLM{Provider: p.Name, Model: "m"})
		switch {
		case p.KeyEnv == "" && err != nil:
			t.Errorf("keyless %s: %v", p.Name, err)
		case p.KeyEnv != "" && (err == nil || !strings.Contains(err.Error(), p.KeyEnv+" is not set")):
			t.Errorf("%s without %s: %v", p.Name, p.KeyEnv, err)
		}
	}
	t.Setenv("OPENAI_API_KEY", "sk-openai")
	if err := llm.CheckIn(config.Default(), config.LLM{Provider: "openrouter", Model: "m", BaseURL: "http://127.0.0.1:9/v1"}); err == nil ||
		!strings.Contains(err.Error(), "OPENROUTER_API_KEY") {
		t.Errorf("openrouter at another URL without its key: %v", err)
	}
	t.Setenv("MY_ROUTER_KEY", "sk-mine")
	if err := llm.CheckIn(config.Default(), config.LLM{Provider: "openrouter", Model: "m", APIKeyEnv: "MY_ROUTER_KEY"}); err != nil {
		t.Errorf("openrouter with a key variable of its own: %v", err)
	}
	t.Setenv("OPENROUTER_API_KEY", "sk-router")
	if err := llm.CheckIn(config.Default(), config.LLM{Provider: "openrouter", Model: "m"}); err != nil {
		t.Errorf("openrouter with its key: %v", err)
	}
}

// A preset whose base URL is overridden to the fake's asks it over HTTP
// in its API's shape (Chat Completions), with the key from the preset's
// variable, and the report names the preset; a keyless preset sends no
// key, not even OPENAI_API_KEY's.
func TestPresetAsksOverHTTP(t *testing.T) {
	fake := fakellm.Start(fakellm.Good)
	defer fake.Close()
	t.Setenv("OPENAI_API_KEY", "sk-not-this-one")
	t.Setenv("OPENROUTER_API_KEY", testKey)
	m, err := llm.New(config.LLM{Provider: "openrouter", Model: "fake", BaseURL: fake.OpenAIURL()}, llm.Options{})
	if err != nil {
		t.Fatal(err)
	}
	move := m.Ask(t.Context(), parityTurn(5*time.Second))
	if move.Report.ErrorType != "" || move.Choice == "" || move.Report.Provider != "openrouter" {
		t.Fatalf("move %q, report %+v", move.Choice, move.Report)
	}
	reqs := fake.Requests()
	if len(reqs) != 1 || reqs[0].API != "openai" || reqs[0].Key != testKey || reqs[0].Model != "fake" {
		t.Fatalf("the fake got %+v; want one chat-completions request with OPENROUTER_API_KEY's key", reqs)
	}

	m, err = llm.New(config.LLM{Provider: "ollama", Model: "fake", BaseURL: fake.OpenAIURL()}, llm.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if move := m.Ask(t.Context(), parityTurn(5*time.Second)); move.Report.ErrorType != "" {
		t.Fatalf("ollama: report %+v", move.Report)
	}
	if reqs := fake.Requests(); len(reqs) != 2 || reqs[1].API != "openai" || reqs[1].Key != "" {
		t.Fatalf("the fake got %+v; want a second chat-completions request with no key", reqs)
	}
}
