package llm

import (
	"context"
	"fmt"
	"time"

	"github.com/leaguetui/leaguetui/agents/protocol"
	"github.com/leaguetui/leaguetui/engine"
)

// Rethinks: a model whose answer is not a legal move (no tool call, an
// unknown tool or empty arguments, a link not on the page, a parity that
// is neither) is asked again, up to the harness's rethinks, while the
// move's deadline leaves room for one more ask, each time with what the
// game said of the answers before (RethinkLabel) added to the prompt. The
// move is lost only when the last answer is no legal move either. Every
// ask is charged as it comes; the move's report sums them and, when there
// was more than one, lists them (ModelMove.Asks).

// RethinkLabel starts a prompt line that says, as a JSON string, why an
// earlier answer to this move was not a legal move.
const RethinkLabel = "Your earlier answer was not a legal move (JSON): "

// ask asks the model for turn's move, once and then as the harness's
// rethinks allow.
func (m *Model) ask(ctx context.Context, turn Turn) Move {
	if move, stopped := m.budgetStopped(turn); stopped {
		return move
	}
	turn, err := m.harness.shape(turn)
	if err != nil {
		move := Move{Report: m.report()}
		m.fail(&move, turn, engine.ErrorGeneration, map[string]any{"exception_type": PromptTemplateFailed,
			"has_tool_call_request": false, "error": clip(err.Error())})
		return move
	}
	ctx, cancel := context.WithDeadline(withHarness(ctx, m.harness.report), turn.Deadline.Add(-replyMargin))
	defer cancel()
	start := time.Now()
	var total usage
	var asks []protocol.ModelAsk
	var move Move
	for {
		began := time.Now()
		res, err := m.askWithRetries(ctx, turn)
		res = m.blank.blankAnswer(res) // before any of it is cut to a cap or reported
		total = total.add(res.usage)
		m.charge(turn.MatchID, m.priced(res.usage))
		answered := m.judge(turn, res, err)
		asks = append(asks, m.askOf(res, answered, time.Since(began)))
		if len(asks) > 1 && err != nil {
			break // the provider failed a rethink: the move stays the answer before
		}
		move = answered
		feedback := rethinkFeedback(turn, answered.Report)
		if feedback == "" || !m.mayRethink(ctx, turn.MatchID, len(asks), time.Since(began)) {
			break
		}
		asks[len(asks)-1].Feedback = feedback
		turn.Prompt += "\n" + RethinkLabel + Quote(feedback)
	}
	m.cost(&move.Report, total)
	move.Report.LatencyMS = time.Since(start).Milliseconds()
	if len(asks) > 1 {
		move.Report.Asks, move.Report.Rethinks = asks, len(asks)-1
	}
	return move
}

// budgetStopped is the failed move of a turn that a spent budget keeps
// from the model.
func (m *Model) budgetStopped(turn Turn) (Move, bool) {
	move := Move{Report: m.report()}
	if which, spent := m.BudgetSpent(); which != "" {
		move.Report.BudgetSpent = which
		m.fail(&move, turn, engine.ErrorGeneration, map[string]any{"exception_type": BudgetSpent,
			"has_tool_call_request": false, "budget": which, "spent_usd": spent.usd, "spent_tokens": spent.tokens})
		return move, true
	}
	if spent, over := m.overBudget(turn.MatchID); over {
		m.fail(&move, turn, engine.ErrorGeneration, map[string]any{"exception_type": "TokenBudgetExceeded",
			"has_tool_call_request": false, "tokens_spent": spent, "max_tokens_per_match": m.settings.MaxTokensPerMatch})
		return move, true
	}
	return move, false
}

// judge is the move one ask's answer makes: its choice, or its failure
// named, with what was asked and said.
func (m *Model) judge(turn Turn, res answer, err error) Move {
	move := Move{Report: m.report()}
	move.Report.Reasoning = reasoningOf(res)
	if err != nil {
		pe := asProviderError(err, m.circuit)
		meta := map[string]any{"exception_type": pe.exceptionType, "has_tool_call_request": false}
		if pe.statusCode != 0 {
			meta["status_code"] = pe.statusCode
		}
		m.fail(&move, turn, pe.errorType, meta)
		return move
	}
	move.Report.TextMove = res.call != nil && res.call.FromText
	choice, errorType, meta := decide(res.call, turn)
	if errorType != "" {
		m.fail(&move, turn, errorType, meta)
		return move
	}
	move.Choice = choice
	return move
}

// priced is a report of u's tokens and their money, for charge.
func (m *Model) priced(u usage) protocol.ModelMove {
	var r protocol.ModelMove
	m.cost(&r, u)
	return r
}

// askOf is one ask as the move's report lists it.
func (m *Model) askOf(res answer, move Move, took time.Duration) protocol.ModelAsk {
	r := m.priced(res.usage)
	reply, _ := capText(res.said, protocol.AskReplyBytes)
	return protocol.ModelAsk{InputTokens: r.InputTokens, OutputTokens: r.OutputTokens, CostUSD: r.CostUSD,
		LatencyMS: took.Milliseconds(), ErrorType: move.Report.ErrorType, Reply: reply}
}

// mayRethink: the harness has a rethink left after asked asks, no budget
// is spent, and the deadline leaves room for another ask as long as the
// last one took.
func (m *Model) mayRethink(ctx context.Context, matchID string, asked int, last time.Duration) bool {
	if asked > m.harness.settings.Rethinks {
		return false
	}
	if which, _ := m.BudgetSpent(); which != "" {
		return false
	}
	if _, over := m.overBudget(matchID); over {
		return false
	}
	deadline, ok := ctx.Deadline()
	return ctx.Err() == nil && (!ok || time.Until(deadline) > last)
}

// rethinkFeedback is what the game says of an answer that is no legal
// move, for the model to read before it answers again; "" for an answer
// that is a move, or a failure no rethink mends (the provider's).
func rethinkFeedback(turn Turn, r protocol.ModelMove) string {
	tool := turn.Tool.Name
	switch r.ErrorType {
	case engine.ErrorNoToolCall:
		return fmt.Sprintf("%s: your answer called no tool; call the tool %s once, with your move", r.ErrorType, tool)
	case engine.ErrorInvalidTool:
		return fmt.Sprintf("%s: your answer did not call the tool %s with a %s the game takes", r.ErrorType, tool, turn.Tool.Param)
	case engine.ErrorInvalidLink:
		return fmt.Sprintf("%s: %q is not a link on the page %q; choose the exact title of one of its links", r.ErrorType,
			r.Metadata["requested_page"], turn.CurrentPage)
	}
	return ""
}
