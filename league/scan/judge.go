package scan

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/leaguetui/leaguetui/agents/protocol"
	"github.com/leaguetui/leaguetui/engine"
)

// The exception types of a model player's budget stops (agents/llm's
// BudgetSpent and its per-match token cap); a test holds them to llm's.
const (
	budgetSpentException   = "BudgetSpent"
	tokenBudgetException   = "TokenBudgetExceeded"
	detailRunes            = 120 // a finding's detail quotes at most this of a player's words
	nearMissMaxDistance    = 2   // edits that still make a near miss of a title of 6 runes or more
	nearMissShortTitleRune = 6
)

// judge scans player's game: a finding per failed model move and per
// revisit, and the category of what ended the game.
func judge(f *protocol.MatchFile, player string, moves []move) Game {
	g := Game{LeagueID: f.LeagueID, MatchID: f.MatchID, Round: f.RoundID, Player: player,
		Provider: moves[0].Model.Provider, Model: moves[0].Model.Model, Harness: harnessOf(moves[0].Model),
		Findings: []Finding{}}
	g.Status = playerStatus(f.Result, player)
	var ending *Finding
	for _, m := range moves {
		g.Findings = append(g.Findings, rethoughtOf(m)...)
		if revisit, ok := revisitOf(m); ok {
			g.Findings = append(g.Findings, revisit)
		}
		if !m.Model.Failed() && m.Model.BudgetSpent == "" {
			continue
		}
		g.Findings = append(g.Findings, failureOf(m))
		if !m.Model.Fallback && ending == nil {
			ending = &g.Findings[len(g.Findings)-1] // the player had no move: the game ended here
		}
	}
	g.Category = g.cause(ending, f, moves)
	return g
}

// cause is the category of what ended the game: the model's own failure,
// else the steps running out (a loop when the path turned back on itself),
// else a technical loss's timeout, else whatever was found, else nothing
// of its own.
func (g *Game) cause(ending *Finding, f *protocol.MatchFile, moves []move) Category {
	if ending != nil {
		return ending.Category
	}
	if g.Status == engine.RaceLostMaxSteps {
		if slices.ContainsFunc(g.Findings, func(x Finding) bool { return x.Category == Loop && !x.Rethought }) {
			return Loop
		}
		last := moves[len(moves)-1]
		g.Findings = append(g.Findings, Finding{Category: StepLimit, Move: last.N, Seq: last.Seq,
			Detail: fmt.Sprintf("%d moves and no target: the race's steps ran out", len(moves))})
		return StepLimit
	}
	if g.Outcome == "technical_loss" || slices.Contains(f.Result.Offenders, g.Player) {
		if slices.Contains(gameErrorCodes(f, g.Player), protocol.CodeTimeout) {
			g.Findings = append(g.Findings, Finding{Category: Timeout,
				Detail: "the player did not answer the referee in time (GAME_ERROR " + protocol.CodeTimeout + ")"})
			return Timeout
		}
	}
	for _, f := range g.Findings {
		if !f.Rethought {
			return f.Category
		}
	}
	return Outplayed
}

// playerStatus is the game's own status for player (player_statuses), ""
// when the game gives none.
func playerStatus(r protocol.MatchResult, player string) string {
	statuses, _ := r.Details["player_statuses"].(map[string]any)
	status, _ := statuses[player].(string)
	return status
}

// revisitOf finds a move to a page already on the path. A failed move's
// answer is no move of the model's (the page it asked for, or the
// fallback's): its failure says what it was.
func revisitOf(m move) (Finding, bool) {
	if m.Model.Failed() || m.Chosen == "" || len(m.Path) == 0 || !slices.Contains(m.Path, m.Chosen) {
		return Finding{}, false
	}
	return Finding{Category: Loop, Move: m.N, Seq: m.Seq,
		Detail: fmt.Sprintf("went back to %s, already on its path at step %d", quote(m.Chosen), slices.Index(m.Path, m.Chosen)+1)}, true
}

// failureOf names a failed model move.
func failureOf(m move) Finding {
	c, detail := classify(m)
	if m.Model.Fallback {
		detail += " (the fallback strategy moved instead)"
	}
	return Finding{Category: c, Move: m.N, Seq: m.Seq, Detail: detail}
}

// classify is a failed move's category and what shows it.
func classify(m move) (Category, string) {
	mm := m.Model
	exception, _ := mm.Metadata["exception_type"].(string)
	switch {
	case mm.BudgetSpent != "" || exception == budgetSpentException:
		return BudgetStop, fmt.Sprintf("the %s budget was spent: the model was not asked", cmp.Or(mm.BudgetSpent, "player's"))
	case exception == tokenBudgetException:
		return BudgetStop, "the match's token cap was spent: the model was not asked"
	case mm.ErrorType == engine.ErrorProviderTimeout:
		return Timeout, "the provider did not answer in time (" + exception + ")"
	case mm.ErrorType == engine.ErrorRateLimit || mm.ErrorType == engine.ErrorProviderAPI || mm.ErrorType == engine.ErrorGeneration:
		return ProviderError, providerDetail(mm, exception)
	case mm.ErrorType == engine.ErrorNoToolCall:
		return noMove(mm)
	case mm.ErrorType == engine.ErrorInvalidTool:
		return toolMisuse(m)
	case mm.ErrorType == engine.ErrorInvalidLink:
		return badLink(m)
	}
	return Other, "error type " + quote(mm.ErrorType)
}

func providerDetail(mm protocol.ModelMove, exception string) string {
	detail := mm.ErrorType
	if exception != "" {
		detail += " " + exception
	}
	if status, ok := mm.Metadata["status_code"].(float64); ok {
		detail += fmt.Sprintf(" (HTTP %.0f)", status)
	}
	return detail
}

// refusalWords mark a reply that declines to play, matched in lower case.
var refusalWords = []string{"i can't", "i cannot", "i can not", "i won't", "i will not", "i'm sorry", "i am sorry",
	"i refuse", "i'm unable", "i am unable", "unable to help", "not able to help", "as an ai", "i must decline", "i decline"}

// noMove: no tool call and no move in the text; a refusal when the reply
// says it declines.
func noMove(mm protocol.ModelMove) (Category, string) {
	reply := ""
	if mm.Reasoning != nil {
		reply = mm.Reasoning.Reply
	}
	lower := strings.ToLower(strings.ReplaceAll(reply, "’", "'"))
	for _, w := range refusalWords {
		if strings.Contains(lower, w) {
			return Refusal, "no move; the reply declines: " + quote(reply)
		}
	}
	return Unparseable, "no tool call and no move in the reply: " + quote(reply)
}

// toolMisuse: a tool it was not given, or the tool without its move;
// arguments that are not JSON make the answer unparseable instead.
func toolMisuse(m move) (Category, string) {
	call, _ := m.Model.Metadata["tool_call"].(map[string]any)
	name, _ := call["name"].(string)
	if raw, ok := call["arguments"].(string); ok {
		return Unparseable, fmt.Sprintf("called %s with arguments that are no JSON object: %s", quote(name), quote(raw))
	}
	if m.MoveType != "" && name != m.MoveType {
		return ToolMisuse, fmt.Sprintf("called %s, not the game's tool %s", quote(name), quote(m.MoveType))
	}
	return ToolMisuse, fmt.Sprintf("called %s without a legal move in its arguments", quote(name))
}

// badLink: a link not on the page, nearly one of its links, a page the
// path already holds, or neither.
func badLink(m move) (Category, string) {
	asked, _ := m.Model.Metadata["requested_page"].(string)
	if near, ok := nearest(asked, m.Legal); ok {
		return NearMiss, fmt.Sprintf("asked for %s; the page links %s", quote(asked), quote(near))
	}
	if slices.Contains(m.Path, asked) {
		return Loop, fmt.Sprintf("asked to go back to %s, on its path but no link of %s", quote(asked), quote(m.Current))
	}
	return InvalidLink, fmt.Sprintf("asked for %s, no link of %s (%d links)", quote(asked), quote(m.Current), len(m.Legal))
}

// quote is a player's or a model's words for a detail: cut to detailRunes,
// in JSON quotes so that they never pass for the scan's own.
func quote(s string) string {
	if r := []rune(s); len(r) > detailRunes {
		s = string(r[:detailRunes]) + "…"
	}
	return protocol.Printable(fmt.Sprintf("%q", s))
}

// harnessOf is a move's harness in a line, "" for the built-in one.
func harnessOf(mm protocol.ModelMove) string {
	if mm.Harness == nil {
		return ""
	}
	if h := mm.Harness.String(); h != "built-in" {
		return h
	}
	return ""
}
