package config

import "strings"

// Preset is a name for a common OpenAI-compatible service: --llm-provider
// NAME (a roster entry's or defaults/player.json's "provider") fills in
// the base URL and the key's variable, and speaks API. An explicit
// --llm-base-url or --llm-api-key-env (or key file) wins over them.
type Preset struct {
	Name    string // what --llm-provider takes, e.g. "openrouter"
	API     string // the wire API it speaks: "openai" (Chat Completions)
	BaseURL string
	KeyEnv  string // the variable holding its key; "" for a keyless server, sent no key
	Service string // what it is, for the docs' table
}

// Presets is the one table of presets: the flag's help, the llm
// strategy and docs/games.md's table (held to it by a test) read it.
var Presets = []Preset{
	{"gemini", "openai", "https://generativelanguage.googleapis.com/v1beta/openai/", "GEMINI_API_KEY",
		"Google Gemini's OpenAI-compatible endpoint"},
	{"openrouter", "openai", "https://openrouter.ai/api/v1", "OPENROUTER_API_KEY", "OpenRouter"},
	{"ollama", "openai", "http://localhost:11434/v1", "", "a local Ollama"},
	{"vllm", "openai", "http://localhost:8000/v1", "", "a local vLLM server (vllm serve)"},
}

// PresetNamed is the preset of that name, if there is one.
func PresetNamed(name string) (Preset, bool) {
	for _, p := range Presets {
		if p.Name == name {
			return p, true
		}
	}
	return Preset{}, false
}

// PresetNames are the presets' names, in the table's order.
func PresetNames() []string {
	names := make([]string, len(Presets))
	for i, p := range Presets {
		names[i] = p.Name
	}
	return names
}

// PresetTable is the presets as docs/games.md's table writes them, one
// line each.
func PresetTable() string {
	var b strings.Builder
	b.WriteString("| `--llm-provider` | service | API | base URL | key variable |\n|---|---|---|---|---|\n")
	for _, p := range Presets {
		key := "none (keyless)"
		if p.KeyEnv != "" {
			key = "`" + p.KeyEnv + "`"
		}
		b.WriteString("| `" + p.Name + "` | " + p.Service + " | " + p.API + " (Chat Completions) | `" + p.BaseURL + "` | " + key + " |\n")
	}
	return b.String()
}

// API is the wire API the settings speak: the provider's own ("openai",
// "anthropic", "" for openai) or its preset's.
func (l LLM) API() string {
	if p, ok := PresetNamed(l.Provider); ok {
		return p.API
	}
	if l.Provider == "" {
		return "openai"
	}
	return l.Provider
}

// ServerURL is the base URL the settings' requests go to: --llm-base-url,
// else the preset's, else "" (the provider's own).
func (l LLM) ServerURL() string {
	if l.BaseURL != "" {
		return l.BaseURL
	}
	p, _ := PresetNamed(l.Provider)
	return p.BaseURL
}

// KeyEnv is the environment variable holding the key: --llm-api-key-env,
// else the preset's, else OPENAI_API_KEY or ANTHROPIC_API_KEY; "" for a
// keyless preset, which reads no variable and sends no key.
func (l LLM) KeyEnv() string {
	if l.APIKeyEnv != "" {
		return l.APIKeyEnv
	}
	if p, ok := PresetNamed(l.Provider); ok {
		return p.KeyEnv
	}
	if l.API() == "anthropic" {
		return "ANTHROPIC_API_KEY"
	}
	return "OPENAI_API_KEY"
}
