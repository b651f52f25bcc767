package protocol

import (
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"
)

// ModelMove is what a model player says of one move beside it, in the
// "model" field of its CHOOSE_PARITY_RESPONSE or GAME_MOVE_RESPONSE: which
// model chose it, what it cost, and, when the model or its provider
// failed, the seed's error type, the game status it ends with and the
// error's metadata. A Fallback move was chosen by the player's fallback
// strategy because the provider failed; the failure is still named. Other
// implementations may leave the field out.
type ModelMove struct {
	Provider     string `json:"provider"`
	Model        string `json:"model"`
	InputTokens  int64  `json:"input_tokens"`
	OutputTokens int64  `json:"output_tokens"`
	LatencyMS    int64  `json:"latency_ms"`
	// Price is the price the player's table gave its model, CostUSD the
	// move's tokens at that price: an estimate. Both are absent when the
	// model has no price.
	Price    *Price   `json:"price,omitempty"`
	CostUSD  *float64 `json:"cost_usd,omitempty"`
	Fallback bool     `json:"fallback,omitempty"`
	// TextMove: the model wrote its move as JSON in its answer's text
	// instead of calling the tool (a server without tool calls).
	TextMove bool `json:"text_move,omitempty"`
	// BudgetSpent names the budget ("player" or "league") that was spent,
	// so the model was not asked for this move.
	BudgetSpent string         `json:"budget_spent,omitempty"`
	ErrorType   string         `json:"error_type,omitempty"`
	Status      string         `json:"status,omitempty"`
	Metadata    map[string]any `json:"metadata,omitempty"`
	// Reasoning is what the model was asked and what it answered, each
	// cut to ReasoningBytes: why it chose the move.
	Reasoning *Reasoning `json:"reasoning,omitempty"`
	// Harness is how the player asks its model, absent for the built-in
	// harness.
	Harness *Harness `json:"harness,omitempty"`
	// Rethinks counts the asks after the first, when an answer was not a
	// legal move; Asks is then every ask, in order, the last the one the
	// move is. The move's tokens, cost and latency are the asks' sums.
	Rethinks int        `json:"rethinks,omitempty"`
	Asks     []ModelAsk `json:"asks,omitempty"`
}

// Harness is a model player's harness as its match files and the report
// keep it (config.Harness): the prompt files by name and the SHA-256 of
// their text, and each setting it gives. Unset settings are absent.
type Harness struct {
	SystemPrompt    string   `json:"system_prompt,omitempty"`   // "FILE sha256:HEX"
	PromptTemplate  string   `json:"prompt_template,omitempty"` // "FILE sha256:HEX"
	Temperature     *float64 `json:"temperature,omitempty"`
	TopP            *float64 `json:"top_p,omitempty"`
	Seed            *int64   `json:"seed,omitempty"`
	ReasoningEffort string   `json:"reasoning_effort,omitempty"`
	ThinkingBudget  int      `json:"thinking_budget,omitempty"`
	MaxOutputTokens int      `json:"max_output_tokens,omitempty"`
	Moves           string   `json:"moves,omitempty"`   // "hidden"; absent: listed
	History         string   `json:"history,omitempty"` // "none" or a count; absent: all
	Rethinks        int      `json:"rethinks,omitempty"`
}

// String is the harness in one line, its settings by name: what the
// report and the console show beside the player.
func (h *Harness) String() string {
	if h == nil {
		return "built-in"
	}
	var parts []string
	add := func(name string, v any, set bool) {
		if set {
			parts = append(parts, fmt.Sprintf("%s %v", name, v))
		}
	}
	add("system", h.SystemPrompt, h.SystemPrompt != "")
	add("template", h.PromptTemplate, h.PromptTemplate != "")
	add("temperature", deref(h.Temperature), h.Temperature != nil)
	add("top_p", deref(h.TopP), h.TopP != nil)
	add("seed", deref(h.Seed), h.Seed != nil)
	add("effort", h.ReasoningEffort, h.ReasoningEffort != "")
	add("thinking", h.ThinkingBudget, h.ThinkingBudget != 0)
	add("max_output", h.MaxOutputTokens, h.MaxOutputTokens != 0)
	add("moves", h.Moves, h.Moves != "")
	add("history", h.History, h.History != "")
	add("rethinks", h.Rethinks, h.Rethinks != 0)
	if len(parts) == 0 {
		return "built-in"
	}
	return strings.Join(parts, ", ")
}

// deref is *p, or nil for a nil p (the setting is then left out).
func deref[T any](p *T) any {
	if p == nil {
		return nil
	}
	return *p
}

// ModelAsk is one ask of a move that took more than one: its cost, and
// when its answer was no legal move, the error the game named and the
// message fed back to the model (Feedback), with the reply cut to
// AskReplyBytes.
type ModelAsk struct {
	InputTokens  int64    `json:"input_tokens"`
	OutputTokens int64    `json:"output_tokens"`
	CostUSD      *float64 `json:"cost_usd,omitempty"`
	LatencyMS    int64    `json:"latency_ms"`
	ErrorType    string   `json:"error_type,omitempty"`
	Feedback     string   `json:"feedback,omitempty"`
	Reply        string   `json:"reply,omitempty"`
}

// AskReplyBytes caps the reply each of a move's asks keeps.
const AskReplyBytes = 1024

// ReasoningBytes caps the prompt and the reply a move's reasoning keeps,
// each.
const ReasoningBytes = 4096

// Reasoning is a model move's prompt and reply as the player sent and got
// them (a reply that never came is ""), cut to ReasoningBytes each,
// Truncated saying so. They are a model's and other players' words: every
// view shows them escaped and fenced off, never as its own.
type Reasoning struct {
	Prompt    string `json:"prompt"`
	Reply     string `json:"reply"`
	Truncated bool   `json:"truncated,omitempty"`
}

// Failed reports whether the model made no valid move of its own.
func (m *ModelMove) Failed() bool { return m != nil && m.ErrorType != "" }

// ModelCost is what a model player's moves cost, in one match (a history
// entry's "model") or in all (the history's stats, the player's /health):
// tokens from the
// provider's usage fields, latency as the player measured it, and the
// failures of the seed's taxonomy.
type ModelCost struct {
	Provider     string `json:"provider"`
	Model        string `json:"model"`
	Moves        int    `json:"moves"`
	InputTokens  int64  `json:"input_tokens"`
	OutputTokens int64  `json:"output_tokens"`
	LatencyMS    int64  `json:"latency_ms"`
	Failures     int    `json:"failures"`
	Fallbacks    int    `json:"fallbacks"`
	// Price and CostUSD as in ModelMove: the tokens above at the price.
	Price   *Price   `json:"price,omitempty"`
	CostUSD *float64 `json:"cost_usd,omitempty"`
	// BudgetSpent names a budget ("player" or "league") that stopped the
	// model's moves.
	BudgetSpent string       `json:"budget_spent,omitempty"`
	Errors      []ModelError `json:"errors,omitempty"` // per match only
	// Rethinks counts the asks beyond one per move (ModelMove.Rethinks),
	// apart from Moves; Harness is the player's, absent for the built-in.
	Rethinks int      `json:"rethinks,omitempty"`
	Harness  *Harness `json:"harness,omitempty"`
}

// ModelError is one failed model move, with the seed's metadata.
type ModelError struct {
	Step      int            `json:"step"`
	ErrorType string         `json:"error_type"`
	Status    string         `json:"status"`
	Fallback  bool           `json:"fallback,omitempty"` // the fallback strategy answered instead
	Metadata  map[string]any `json:"metadata,omitempty"`
}

// Add counts one move's report and keeps its failure.
func (c *ModelCost) Add(r ModelMove, step int) {
	one := ModelCost{Provider: r.Provider, Model: r.Model, Moves: 1, InputTokens: r.InputTokens,
		OutputTokens: r.OutputTokens, LatencyMS: r.LatencyMS, Price: r.Price, BudgetSpent: r.BudgetSpent,
		Rethinks: r.Rethinks, Harness: r.Harness}
	if r.Fallback {
		one.Fallbacks = 1
	}
	if r.Failed() {
		one.Failures = 1
		c.Errors = append(c.Errors, ModelError{Step: step, ErrorType: r.ErrorType, Status: r.Status,
			Fallback: r.Fallback, Metadata: r.Metadata})
	}
	c.Merge(one)
}

// Merge adds o's counts (not its errors) to c. The cost is c's tokens at
// the price, not a sum of rounded parts, so it is exactly tokens × price.
func (c *ModelCost) Merge(o ModelCost) {
	c.Provider, c.Model = o.Provider, o.Model
	if o.Price != nil {
		c.Price = o.Price
	}
	if o.BudgetSpent != "" {
		c.BudgetSpent = o.BudgetSpent
	}
	if o.Harness != nil {
		c.Harness = o.Harness
	}
	c.Rethinks = int(AddCount(int64(c.Rethinks), int64(o.Rethinks)))
	defer func() { c.CostUSD = costOf(c.Price, c.InputTokens, c.OutputTokens) }()
	c.Moves = int(AddCount(int64(c.Moves), int64(o.Moves)))
	c.InputTokens = AddCount(c.InputTokens, o.InputTokens)
	c.OutputTokens = AddCount(c.OutputTokens, o.OutputTokens)
	c.LatencyMS = AddCount(c.LatencyMS, o.LatencyMS)
	c.Failures = int(AddCount(int64(c.Failures), int64(o.Failures)))
	c.Fallbacks = int(AddCount(int64(c.Fallbacks), int64(o.Fallbacks)))
}

// AddCount is a+b for counts (tokens, moves, milliseconds), saturating at
// the largest int64: a sum that wrapped round to a negative count would
// never reach a budget again. A negative b, which no count from outside
// may be, adds nothing. Model costs are summed with it wherever they
// come from: a provider's reply, a player's report.
func AddCount(a, b int64) int64 {
	switch {
	case b <= 0:
		return a
	case a > math.MaxInt64-b:
		return math.MaxInt64
	}
	return a + b
}

// ModelSpend is what model players spent, estimated: the sum of the priced
// ones' money (nil when none has a price) and how many have none. The
// costs are added in the players' order, so the sum is the same to the
// last bit every time.
func ModelSpend(costs map[string]*ModelCost) (total *float64, unpriced int) {
	for _, id := range slices.Sorted(maps.Keys(costs)) {
		c := costs[id]
		if c.CostUSD == nil {
			unpriced++
			continue
		}
		if total == nil {
			total = new(float64)
		}
		*total += *c.CostUSD
	}
	return total, unpriced
}
