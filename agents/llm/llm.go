// Package llm asks a language model for a player's move. The move is a tool
// call (choose_parity(parity), navigate(page)); every way the model or its
// provider fails is named with the seed's error taxonomy, so the player can
// answer the referee with the move or with the failure and its metadata.
// The engine never sees any of this: it gets only the resulting move.
package llm

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"slices"
	"strings"
	"time"

	"github.com/leaguetui/leaguetui/agents/protocol"
	"github.com/leaguetui/leaguetui/agents/rpc"
	"github.com/leaguetui/leaguetui/config"
	"github.com/leaguetui/leaguetui/engine"
)

// StrategyName is the player strategy whose moves a model chooses, in
// every game.
const StrategyName = "llm"

// APIs lists the wire APIs the strategy speaks: Chat Completions (openai,
// or any OpenAI-compatible server) and Anthropic's Messages.
var APIs = []string{"openai", "anthropic"}

// Providers lists what --llm-provider takes: an API, or a preset for an
// OpenAI-compatible service (config.Presets) that fills in its base URL
// and its key's variable.
var Providers = slices.Concat(APIs, config.PresetNames())

// Tool is the game's move offered to the model: one function with one
// string argument.
type Tool struct {
	Name        string // e.g. "choose_parity"
	Description string
	Param       string   // e.g. "parity"
	Options     []string // the legal values
	// LinkMove: a value outside Options is MODEL_INVALID_LINK (the link
	// race) and Options is not sent as an enum; otherwise such a value is
	// MODEL_INVALID_TOOL.
	LinkMove bool
	// HideOptions: the harness shows no legal moves, so Options judge the
	// answer but are not sent.
	HideOptions bool
}

// Turn is one move asked of the model.
type Turn struct {
	MatchID        string
	System, Prompt string
	Tool           Tool
	Step           int
	CurrentPage    string // link race: where the player stands
	TargetPage     string // link race: where it goes
	Deadline       time.Time

	// What TurnFor built the turn of, for the harness to build it again
	// (fromGame false: a turn made by hand, asked as it is); ownSystem:
	// System is the harness's, kept when the move is asked as text.
	mc        engine.MoveContext
	past      []PastMatch
	fromGame  bool
	ownSystem bool
}

// Move is what the model decided: Choice, or a failure named in Report.
type Move struct {
	Choice string
	Report protocol.ModelMove
}

// toolCall is the first tool call of a model's answer, or the move it
// wrote as JSON in its text (FromText).
type toolCall struct {
	Name      string
	Arguments string
	FromText  bool
}

// usage is what one request cost in tokens.
type usage struct{ in, out int64 }

// add sums two usages, saturating at the largest int64 instead of
// wrapping round to a negative count.
func (u usage) add(o usage) usage {
	return usage{protocol.AddCount(u.in, o.in), protocol.AddCount(u.out, o.out)}
}

// MaxUsageTokens bounds each count of a reply's usage (its input tokens,
// its output tokens): ten times the longest context any model has (10
// million tokens). A reply that says it cost more, or a negative count,
// is impossible: it is refused as an answer that cannot be read
// (MODEL_GENERATION_ERROR, ImpossibleUsage) and counts nothing against
// any budget.
const MaxUsageTokens = 100_000_000

// ImpossibleUsage is the exception type of a reply whose usage is
// negative or over MaxUsageTokens.
const ImpossibleUsage = "ImpossibleUsage"

// checkUsage refuses a reply's usage that no model could have spent.
func checkUsage(u usage) error {
	if u.in < 0 || u.out < 0 || u.in > MaxUsageTokens || u.out > MaxUsageTokens {
		return &providerError{errorType: engine.ErrorGeneration, exceptionType: ImpossibleUsage,
			err: fmt.Errorf("the reply's usage (%d input, %d output tokens) is outside 0 to %d", u.in, u.out, MaxUsageTokens)}
	}
	return nil
}

// backend is one provider's API: one non-streaming request.
type backend interface {
	complete(ctx context.Context, turn Turn) (answer, error)
}

// providerError is a failed request, classified.
type providerError struct {
	errorType     string
	exceptionType string
	statusCode    int           // the HTTP status; 0 if none came back
	retryAfter    time.Duration // from Retry-After; 0 if none
	body          string        // the error reply's JSON, which says why; "" if none
	err           error
}

func (e *providerError) Error() string { return e.errorType + ": " + e.err.Error() }
func (e *providerError) Unwrap() error { return e.err }

// RecordMissing is the exception type of a move whose request a replay
// (--replay-models) has no reply for: a MODEL_GENERATION_ERROR that no
// fallback answers, so a record that no longer fits the league shows.
const RecordMissing = "RecordMissing"

// MovePanicked is the exception type of a move whose path panicked: the
// player fails that move alone (MODEL_GENERATION_ERROR) and goes on.
const MovePanicked = "MovePanicked"

// retryable: rate limits, timeouts and the provider's own failures may
// pass; a request the provider refused or an answer we cannot read will
// not.
func (e *providerError) retryable() bool { return e.errorType != engine.ErrorGeneration }

// maxReported bounds the model's text kept in an error's metadata.
const maxReported = 200

func clip(s string) string {
	if len(s) <= maxReported {
		return s
	}
	return s[:maxReported]
}

// decide turns a tool call (or its absence) into a move or a failure with
// the seed's metadata.
func decide(call *toolCall, turn Turn) (choice, errorType string, meta map[string]any) {
	meta = map[string]any{"has_tool_call_request": call != nil}
	if call == nil {
		return "", engine.ErrorNoToolCall, meta
	}
	var args map[string]any
	parsed := json.Unmarshal([]byte(call.Arguments), &args) == nil
	reported := map[string]any{"name": clip(call.Name), "arguments": clip(call.Arguments)}
	if parsed && len(call.Arguments) <= 4*maxReported {
		reported["arguments"] = args
	}
	meta["tool_call"] = reported
	if call.Name != turn.Tool.Name {
		return "", engine.ErrorInvalidTool, meta
	}
	value, _ := args[turn.Tool.Param].(string)
	value = strings.TrimSpace(value)
	if value == "" {
		return "", engine.ErrorInvalidTool, meta
	}
	if turn.Tool.LinkMove {
		if !slices.Contains(turn.Tool.Options, value) {
			meta["requested_page"], meta["is_target_page"] = clip(value), value == turn.TargetPage
			meta["available_links_count"] = len(turn.Tool.Options)
			return "", engine.ErrorInvalidLink, meta
		}
		return value, "", meta
	}
	for _, option := range turn.Tool.Options {
		if strings.EqualFold(option, value) {
			return option, "", meta
		}
	}
	if len(turn.Tool.Options) == 0 {
		return value, "", meta
	}
	return "", engine.ErrorInvalidTool, meta
}

// classify names a failed request; status is the HTTP status (0 if none
// came back).
func classify(err error, status int, retryAfter time.Duration) *providerError {
	pe := &providerError{err: err, statusCode: status, retryAfter: retryAfter}
	var netErr net.Error
	var opErr *net.OpError
	var missing *RecordMissingError
	switch {
	case errors.As(err, &missing):
		pe.errorType, pe.exceptionType = engine.ErrorGeneration, RecordMissing
	case errors.Is(err, context.Canceled):
		pe.errorType, pe.exceptionType = engine.ErrorGeneration, "Cancelled" // the player is stopping: no retry
	case rpc.IsReplyTooLarge(err):
		pe.errorType, pe.exceptionType = engine.ErrorGeneration, "ReplyTooLarge"
	case status == 429:
		pe.errorType, pe.exceptionType = engine.ErrorRateLimit, "RateLimitError"
	case status == 408 || errors.Is(err, context.DeadlineExceeded) || (errors.As(err, &netErr) && netErr.Timeout()):
		pe.errorType, pe.exceptionType = engine.ErrorProviderTimeout, "APITimeoutError"
	case status >= 500:
		pe.errorType, pe.exceptionType = engine.ErrorProviderAPI, "InternalServerError"
	case status > 0:
		pe.errorType, pe.exceptionType = engine.ErrorGeneration, "APIStatusError"
	case errors.As(err, &opErr):
		pe.errorType, pe.exceptionType = engine.ErrorProviderAPI, "APIConnectionError"
	default:
		pe.errorType, pe.exceptionType = engine.ErrorGeneration, "ResponseError"
	}
	return pe
}
