package config

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
)

// Harness is how a model player asks its model: what it is told, how it
// samples, what it is shown and how many second chances it has. Its zero
// value is leaguetui's built-in harness, so two players of one model with
// different harnesses are two players of one league. Every field is
// comparable, so Config stays comparable.
type Harness struct {
	// SystemPromptFile is a file whose text replaces the built-in system
	// prompt; PromptTemplateFile a Go text/template of the turn's prompt
	// (agents/llm.PromptData). "" for the built-in ones.
	SystemPromptFile   string
	PromptTemplateFile string
	// Temperature, TopP and Seed are sent only when set; Seed is whole.
	Temperature, TopP, Seed Number
	// ReasoningEffort is the Chat Completions reasoning_effort ("" the
	// model's own); ThinkingBudget Anthropic's extended thinking in
	// tokens (0 off).
	ReasoningEffort string
	ThinkingBudget  int
	// MaxOutputTokens caps one answer (0: DefaultMaxOutputTokens).
	MaxOutputTokens int
	// Moves is MovesListed ("" too) or MovesHidden; History is "" (all
	// the earlier turns), HistoryNone or a count of the last turns.
	Moves, History string
	// Rethinks is how many more times a move is asked, within its
	// deadline, when the answer is not a legal move.
	Rethinks int
}

// Number is an optional number: Set false leaves it to the provider.
type Number struct {
	Set   bool
	Value float64
}

func (n Number) String() string {
	if !n.Set {
		return ""
	}
	return strconv.FormatFloat(n.Value, 'f', -1, 64)
}

// The values of Harness.Moves and Harness.History, and the bounds of the
// numbers a harness takes.
const (
	MovesListed            = "listed"
	MovesHidden            = "hidden"
	HistoryAll             = "all"
	HistoryNone            = "none"
	DefaultMaxOutputTokens = 256
	MaxRethinks            = 10
	MinThinkingBudget      = 1024 // Anthropic's own least budget
	MaxHarnessTokens       = 1_000_000
)

// ReasoningEfforts are the values of reasoning_effort that Chat
// Completions takes.
var ReasoningEfforts = []string{"none", "minimal", "low", "medium", "high", "xhigh"}

// HistoryTurns is how many earlier turns the prompt shows: -1 for all.
func (h Harness) HistoryTurns() int {
	switch h.History {
	case "", HistoryAll:
		return -1
	case HistoryNone:
		return 0
	}
	n, _ := strconv.Atoi(h.History)
	return n
}

// MovesShown says whether the prompt lists the legal moves.
func (h Harness) MovesShown() bool { return h.Moves != MovesHidden }

// OutputCap is the most tokens one answer may hold: MaxOutputTokens, or
// the default (above the thinking budget, which Anthropic counts in it).
func (h Harness) OutputCap() int {
	switch {
	case h.MaxOutputTokens > 0:
		return h.MaxOutputTokens
	case h.ThinkingBudget > 0:
		return h.ThinkingBudget + DefaultMaxOutputTokens
	}
	return DefaultMaxOutputTokens
}

// CheckFor reports the settings api ("openai" or "anthropic") does not
// take, or that do not go together.
func (h Harness) CheckFor(api string) error {
	anthropic := api == "anthropic"
	switch {
	case anthropic && h.Seed.Set:
		return errors.New("--llm-seed: Anthropic's API takes no seed")
	case anthropic && h.ReasoningEffort != "":
		return errors.New("--llm-reasoning-effort: Anthropic's API takes a thinking budget instead (--llm-thinking-budget)")
	case !anthropic && h.ThinkingBudget > 0:
		return errors.New("--llm-thinking-budget: only Anthropic's API takes one; Chat Completions takes --llm-reasoning-effort")
	case h.ThinkingBudget > 0 && h.Temperature.Set:
		return errors.New("--llm-temperature with --llm-thinking-budget: Anthropic takes no temperature with thinking")
	case h.ThinkingBudget > 0 && h.MaxOutputTokens > 0 && h.MaxOutputTokens <= h.ThinkingBudget:
		return fmt.Errorf("--llm-max-output-tokens %d: must be more than --llm-thinking-budget %d, which it includes", h.MaxOutputTokens, h.ThinkingBudget)
	}
	return nil
}

// harnessSetting is one harness setting: its key in a roster entry's llm
// and defaults/player.json's settings.llm, its flag, and how its text
// (a flag's, or the JSON value's) is read and written.
type harnessSetting struct {
	key, flag, what, def string
	parse                func(h *Harness, raw string) error
	text                 func(h Harness) string
}

// harnessSettings lists every harness setting, in the order of the docs'
// table (HarnessTable) and of the flags.
var harnessSettings = []harnessSetting{
	{"system_prompt_file", "llm-system-prompt-file", "a `file` whose text is the system prompt", "the built-in one",
		func(h *Harness, raw string) error { h.SystemPromptFile = absPath(raw); return nil },
		func(h Harness) string { return h.SystemPromptFile }},
	{"prompt_template_file", "llm-prompt-template-file", "a `file`: a Go text/template of each turn's prompt, given .Prompt (the built-in prompt), .Game, .Opponent, .Turn, .State, .Moves and .History (docs/games.md)", "the built-in prompt",
		func(h *Harness, raw string) error { h.PromptTemplateFile = absPath(raw); return nil },
		func(h Harness) string { return h.PromptTemplateFile }},
	{"temperature", "llm-temperature", "the sampling temperature, 0 to 2", "the provider's",
		numberIn(func(h *Harness) *Number { return &h.Temperature }, 0, 2, false),
		func(h Harness) string { return h.Temperature.String() }},
	{"top_p", "llm-top-p", "nucleus sampling's top_p, more than 0 and at most 1", "the provider's",
		numberIn(func(h *Harness) *Number { return &h.TopP }, 0, 1, true),
		func(h Harness) string { return h.TopP.String() }},
	{"seed", "llm-seed", "the sampling seed, a whole number (Chat Completions only)", "none",
		parseSeed, func(h Harness) string { return h.Seed.String() }},
	{"reasoning_effort", "llm-reasoning-effort", "the reasoning effort: " + strings.Join(ReasoningEfforts, ", ") + " (Chat Completions only)", "the model's",
		parseEffort, func(h Harness) string { return h.ReasoningEffort }},
	{"thinking_budget", "llm-thinking-budget", fmt.Sprintf("tokens of extended thinking, at least %d (Anthropic only; 0 off)", MinThinkingBudget), "0",
		parseThinking, func(h Harness) string { return countText(h.ThinkingBudget) }},
	{"max_output_tokens", "llm-max-output-tokens", "the most tokens one answer may hold (0: the default)", strconv.Itoa(DefaultMaxOutputTokens),
		countIn(func(h *Harness) *int { return &h.MaxOutputTokens }, MaxHarnessTokens),
		func(h Harness) string { return countText(h.MaxOutputTokens) }},
	{"moves", "llm-moves", "listed or hidden: whether the prompt lists the legal moves (the link race's links, a game's options)", MovesListed,
		parseMoves, func(h Harness) string { return h.Moves }},
	{"history", "llm-history", "which earlier turns the prompt shows: all, none, or a count K of the last ones", HistoryAll,
		parseHistory, func(h Harness) string { return h.History }},
	{"rethinks", "llm-rethinks", fmt.Sprintf("how many more times a move is asked, within its deadline and with the game's error fed back, when the answer is not a legal move, 0 to %d", MaxRethinks), "0",
		countIn(func(h *Harness) *int { return &h.Rethinks }, MaxRethinks),
		func(h Harness) string { return countText(h.Rethinks) }},
}

func countText(n int) string {
	if n == 0 {
		return ""
	}
	return strconv.Itoa(n)
}

func numberIn(field func(*Harness) *Number, least, most float64, aboveLeast bool) func(*Harness, string) error {
	return func(h *Harness, raw string) error {
		if raw == "" {
			*field(h) = Number{}
			return nil
		}
		v, err := strconv.ParseFloat(raw, 64)
		if err != nil || math.IsNaN(v) || v < least || v > most || (aboveLeast && v == least) {
			low := "from"
			if aboveLeast {
				low = "more than"
			}
			return fmt.Errorf("want a number %s %g to %g (got %q)", low, least, most, raw)
		}
		*field(h) = Number{Set: true, Value: v}
		return nil
	}
}

func parseSeed(h *Harness, raw string) error {
	if raw == "" {
		h.Seed = Number{}
		return nil
	}
	n, err := strconv.ParseInt(raw, 10, 53) // exact as a JSON number
	if err != nil {
		return fmt.Errorf("want a whole number of at most 15 digits (got %q)", raw)
	}
	h.Seed = Number{Set: true, Value: float64(n)}
	return nil
}

func parseEffort(h *Harness, raw string) error {
	if raw != "" && !slices.Contains(ReasoningEfforts, raw) {
		return fmt.Errorf("want one of %s (got %q)", strings.Join(ReasoningEfforts, ", "), raw)
	}
	h.ReasoningEffort = raw
	return nil
}

func parseThinking(h *Harness, raw string) error {
	if err := countIn(func(h *Harness) *int { return &h.ThinkingBudget }, MaxHarnessTokens)(h, raw); err != nil {
		return err
	}
	if h.ThinkingBudget > 0 && h.ThinkingBudget < MinThinkingBudget {
		return fmt.Errorf("want 0 (off) or at least %d tokens, Anthropic's least (got %d)", MinThinkingBudget, h.ThinkingBudget)
	}
	return nil
}

// countIn reads a whole number from 0 to most; "" is 0.
func countIn(field func(*Harness) *int, most int) func(*Harness, string) error {
	return func(h *Harness, raw string) error {
		if raw == "" {
			*field(h) = 0
			return nil
		}
		n, err := strconv.Atoi(raw)
		if err != nil || n < 0 || n > most {
			return fmt.Errorf("want a whole number from 0 to %d (got %q)", most, raw)
		}
		*field(h) = n
		return nil
	}
}

func parseMoves(h *Harness, raw string) error {
	if raw != "" && raw != MovesListed && raw != MovesHidden {
		return fmt.Errorf("want %s or %s (got %q)", MovesListed, MovesHidden, raw)
	}
	h.Moves = raw
	if raw == MovesListed {
		h.Moves = "" // the default, spelt one way so that equal harnesses compare equal
	}
	return nil
}

func parseHistory(h *Harness, raw string) error {
	switch raw {
	case "", HistoryAll:
		h.History = ""
		return nil
	case HistoryNone:
		h.History = raw
		return nil
	}
	n, err := strconv.Atoi(raw)
	if err != nil || n < 0 || n > 1_000_000 {
		return fmt.Errorf("want all, none or a count of turns (got %q)", raw)
	}
	h.History = strconv.Itoa(n)
	if n == 0 {
		h.History = HistoryNone
	}
	return nil
}

// harnessOverrides are the harness settings as flags of the models group.
func harnessOverrides() []override {
	out := make([]override, len(harnessSettings))
	for i, s := range harnessSettings {
		env := "LEAGUETUI_" + strings.ToUpper(strings.ReplaceAll(s.flag, "-", "_"))
		out[i] = stringOverride(s.flag, env, s.what+" (default "+s.def+")", func(c *Config, raw string) error {
			return s.parse(&c.Player.LLM.Harness, strings.TrimSpace(raw))
		})
	}
	return out
}

// The harness flags join the shared ones, in the models group, after the
// rest of the llm settings.
func init() {
	overrides = append(overrides, harnessOverrides()...)
	for _, s := range harnessSettings {
		flagGroups[ModelFlags] = append(flagGroups[ModelFlags], s.flag)
	}
}

// Args are the flags that give a player h, every setting written (an
// unset one as ""), so that a roster entry's harness replaces the
// league's as a whole.
func (h Harness) Args() []string {
	var args []string
	for _, s := range harnessSettings {
		args = append(args, "--"+s.flag, s.text(h))
	}
	return args
}

// harnessJSON is the harness in a roster entry's llm and in
// defaults/player.json's settings.llm: each value a JSON number or
// string, read as its flag's text.
type harnessJSON struct {
	SystemPromptFile   json.RawMessage `json:"system_prompt_file,omitempty"`
	PromptTemplateFile json.RawMessage `json:"prompt_template_file,omitempty"`
	Temperature        json.RawMessage `json:"temperature,omitempty"`
	TopP               json.RawMessage `json:"top_p,omitempty"`
	Seed               json.RawMessage `json:"seed,omitempty"`
	ReasoningEffort    json.RawMessage `json:"reasoning_effort,omitempty"`
	ThinkingBudget     json.RawMessage `json:"thinking_budget,omitempty"`
	MaxOutputTokens    json.RawMessage `json:"max_output_tokens,omitempty"`
	Moves              json.RawMessage `json:"moves,omitempty"`
	History            json.RawMessage `json:"history,omitempty"`
	Rethinks           json.RawMessage `json:"rethinks,omitempty"`
}

// applyTo reads the settings the JSON gives into h, naming the first bad
// one by its key (prefix "llm." or "settings.llm.").
func (j harnessJSON) applyTo(h *Harness, prefix string) error {
	raw, _ := json.Marshal(j)
	var given map[string]json.RawMessage
	_ = json.Unmarshal(raw, &given)
	for _, s := range harnessSettings {
		value, ok := given[s.key]
		if !ok || string(value) == "null" {
			continue
		}
		text := string(value)
		if strings.HasPrefix(text, `"`) {
			if err := json.Unmarshal(value, &text); err != nil {
				return fmt.Errorf("%s%s: %w", prefix, s.key, err)
			}
		}
		if err := s.parse(h, strings.TrimSpace(text)); err != nil {
			return fmt.Errorf("%s%s: %w", prefix, s.key, err)
		}
	}
	return nil
}

// HarnessTable is docs/games.md's table of the harness settings, written
// from harnessSettings.
func HarnessTable() string {
	var b strings.Builder
	b.WriteString("| roster `llm` / `settings.llm` key | flag | what it sets | default |\n|---|---|---|---|\n")
	for _, s := range harnessSettings {
		what := strings.ReplaceAll(s.what, "`", "")
		fmt.Fprintf(&b, "| `%s` | `--%s` | %s | %s |\n", s.key, s.flag, what, s.def)
	}
	return b.String()
}
