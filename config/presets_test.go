package config

import (
	"os"
	"strings"
	"testing"
)

// Each preset resolves to its API, base URL and key variable; an explicit
// base URL or key variable wins over the preset's.
func TestPresetsResolve(t *testing.T) {
	want := map[string][2]string{
		"gemini":     {"https://generativelanguage.googleapis.com/v1beta/openai/", "GEMINI_API_KEY"},
		"openrouter": {"https://openrouter.ai/api/v1", "OPENROUTER_API_KEY"},
		"ollama":     {"http://localhost:11434/v1", ""},
		"vllm":       {"http://localhost:8000/v1", ""},
	}
	for name, w := range want {
		l := LLM{Provider: name, Model: "m"}
		if l.API() != "openai" || l.ServerURL() != w[0] || l.KeyEnv() != w[1] {
			t.Errorf("%s: API %q, URL %q, key variable %q; want openai, %q, %q", name, l.API(), l.ServerURL(), l.KeyEnv(), w[0], w[1])
		}
		l.BaseURL, l.APIKeyEnv = "http://127.0.0.1:9/v1", "MY_KEY"
		if l.ServerURL() != "http://127.0.0.1:9/v1" || l.KeyEnv() != "MY_KEY" || l.API() != "openai" {
			t.Errorf("%s with an explicit URL and key variable: %q, %q", name, l.ServerURL(), l.KeyEnv())
		}
	}
	if len(Presets) != len(want) {
		t.Errorf("%d presets; the test knows %d", len(Presets), len(want))
	}
	for _, c := range []struct{ provider, api, url, key string }{
		{"", "openai", "", "OPENAI_API_KEY"},
		{"openai", "openai", "", "OPENAI_API_KEY"},
		{"anthropic", "anthropic", "", "ANTHROPIC_API_KEY"},
	} {
		l := LLM{Provider: c.provider}
		if l.API() != c.api || l.ServerURL() != c.url || l.KeyEnv() != c.key {
			t.Errorf("provider %q: %q, %q, %q; want %q, %q, %q", c.provider, l.API(), l.ServerURL(), l.KeyEnv(), c.api, c.url, c.key)
		}
	}
}

// A preset flag, variable or file value is the provider as any other.
func TestPresetFromFlag(t *testing.T) {
	cfg, err := newFlags(t, "--llm-provider", "openrouter", "--llm-model", "m").ResolveWith(env(nil))
	if err != nil {
		t.Fatal(err)
	}
	if l := cfg.Player.LLM; l.ServerURL() != "https://openrouter.ai/api/v1" || l.KeyEnv() != "OPENROUTER_API_KEY" {
		t.Errorf("--llm-provider openrouter: %q, %q", l.ServerURL(), l.KeyEnv())
	}
}

// TestPresetTableIsCurrent: docs/games.md's preset table is the one
// PresetTable writes from Presets, and docs/configuration.md and the
// flag's help name every preset.
func TestPresetTableIsCurrent(t *testing.T) {
	raw, err := os.ReadFile("../docs/games.md")
	if err != nil {
		t.Fatal(err)
	}
	const begin, end = "<!-- presets: generated from config.Presets; TestPresetTableIsCurrent -->\n", "<!-- /presets -->"
	doc := string(raw)
	i, j := strings.Index(doc, begin), strings.Index(doc, end)
	if i < 0 || j < i {
		t.Fatalf("docs/games.md has no %q ... %q", strings.TrimSpace(begin), end)
	}
	if got := doc[i+len(begin) : j]; got != PresetTable() {
		t.Errorf("docs/games.md's preset table is not config.Presets'; put this between the markers:\n%s", PresetTable())
	}
	conf, err := os.ReadFile("../docs/configuration.md")
	if err != nil {
		t.Fatal(err)
	}
	var help string
	for _, o := range overrides {
		if o.flag == "llm-provider" {
			help = o.usage
		}
	}
	for _, name := range PresetNames() {
		if !strings.Contains(string(conf), "`"+name+"`") {
			t.Errorf("docs/configuration.md's settings.llm.provider does not name the preset %s", name)
		}
		if !strings.Contains(help, name) {
			t.Errorf("--llm-provider's help %q does not name the preset %s", help, name)
		}
	}
}
