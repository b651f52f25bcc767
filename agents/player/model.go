package player

import (
	"context"
	"slices"
	"time"

	"github.com/leaguetui/leaguetui/agents/llm"
	"github.com/leaguetui/leaguetui/agents/protocol"
	"github.com/leaguetui/leaguetui/engine"
)

// ModelCost is what a model player's moves cost, in one match (a history
// entry's "model") or in all (the history's stats): tokens from the
// provider's usage fields, latency as the player measured it, and the
// failures of the seed's taxonomy.
type ModelCost struct {
	Provider     string       `json:"provider"`
	Model        string       `json:"model"`
	Moves        int          `json:"moves"`
	InputTokens  int64        `json:"input_tokens"`
	OutputTokens int64        `json:"output_tokens"`
	LatencyMS    int64        `json:"latency_ms"`
	Failures     int          `json:"failures"`
	Fallbacks    int          `json:"fallbacks"`
	Errors       []ModelError `json:"errors,omitempty"` // per match only
}

// ModelError is one failed model move, with the seed's metadata.
type ModelError struct {
	Step      int            `json:"step"`
	ErrorType string         `json:"error_type"`
	Status    string         `json:"status"`
	Fallback  bool           `json:"fallback,omitempty"` // the fallback strategy answered instead
	Metadata  map[string]any `json:"metadata,omitempty"`
}

// add counts one move's report and keeps its failure.
func (c *ModelCost) add(r protocol.ModelMove, step int) {
	one := ModelCost{Provider: r.Provider, Model: r.Model, Moves: 1, InputTokens: r.InputTokens,
		OutputTokens: r.OutputTokens, LatencyMS: r.LatencyMS}
	if r.Fallback {
		one.Fallbacks = 1
	}
	if r.Failed() {
		one.Failures = 1
		c.Errors = append(c.Errors, ModelError{Step: step, ErrorType: r.ErrorType, Status: r.Status,
			Fallback: r.Fallback, Metadata: r.Metadata})
	}
	c.merge(one)
}

// merge adds o's counts (not its errors) to c.
func (c *ModelCost) merge(o ModelCost) {
	c.Provider, c.Model = o.Provider, o.Model
	c.Moves += o.Moves
	c.InputTokens += o.InputTokens
	c.OutputTokens += o.OutputTokens
	c.LatencyMS += o.LatencyMS
	c.Failures += o.Failures
	c.Fallbacks += o.Fallbacks
}

// modelPlayer is the llm strategy's state in a player; its maps are
// guarded by the player's mu.
type modelPlayer struct {
	model   *llm.Model
	reports map[string]*protocol.ModelMove // moveKey -> the report of the move given
	cost    map[string]*ModelCost          // match id -> the match's cost so far
}

func newModelPlayer(opts Options) (*modelPlayer, error) {
	model, err := llm.New(opts.Config.Player.LLM)
	if err != nil {
		return nil, err
	}
	return &modelPlayer{model: model, reports: map[string]*protocol.ModelMove{}, cost: map[string]*ModelCost{}}, nil
}

// askModel asks the model for mc's move; it is called without p.mu, so a
// slow model holds up none of the player's other matches. callDeadline is
// the move call's deadline as the referee wrote it ("" if none).
func (p *Player) askModel(mc engine.MoveContext, callDeadline string) llm.Move {
	deadline := time.Now().Add(p.Cfg.Timeouts.Move)
	if at, _, err := protocol.ParseTime(callDeadline); err == nil && at.Add(time.Second).Before(deadline) {
		deadline = at.Add(time.Second) // the wire's deadline is in whole seconds
	}
	p.mu.Lock()
	past := p.pastAgainst(mc.OpponentID)
	p.mu.Unlock()
	return p.llm.model.Ask(context.Background(), llm.TurnFor(mc, past, deadline))
}

// pastAgainst is this league's matches against opponent, for the prompt.
// Call with p.mu held.
func (p *Player) pastAgainst(opponent string) []llm.PastMatch {
	var past []llm.PastMatch
	for _, e := range p.history.Matches {
		if e.LeagueID == p.Cfg.LeagueID && e.OpponentID == opponent {
			past = append(past, llm.PastMatch{MyMove: e.MyChoice, OpponentMove: e.OpponentChoice, Result: e.Result, Details: e.Details})
		}
	}
	return past
}

// settleModelMove keeps the model's move of key, or the one a concurrent
// ask of the same turn kept first, and counts its cost. A provider failure
// is answered by the fallback strategy when there is one, marked as such.
// Call with p.mu held.
func (p *Player) settleModelMove(key string, mc engine.MoveContext, asked llm.Move) (string, *protocol.ModelMove) {
	if move, again := p.moves[key]; again {
		return move, p.llm.reports[key]
	}
	report := asked.Report
	move := asked.Choice
	if report.Status == engine.RaceError && p.llm.model.Settings().Fallback != "" {
		if fallback := p.fallbackFor(mc.GameType); fallback != nil {
			move, report.Fallback = fallback.Choose(mc), true
		}
	} else if report.ErrorType == engine.ErrorInvalidLink {
		move, _ = report.Metadata["requested_page"].(string) // the game judges the link itself too
	}
	p.moves[key], p.llm.reports[key] = move, &report
	cost := p.llm.cost[mc.MatchID]
	if cost == nil {
		cost = &ModelCost{}
		p.llm.cost[mc.MatchID] = cost
	}
	cost.add(report, mc.Turn)
	return move, &report
}

// fallbackFor is the random strategy of gameType (or the game's first),
// which answers for a failed provider under --llm-fallback random. Call
// with p.mu held.
func (p *Player) fallbackFor(gameType string) engine.Strategy {
	names := engine.StrategyNamesFor(gameType)
	name := "random"
	if !slices.Contains(names, name) && len(names) > 0 {
		name = names[0]
	}
	s, err := engine.NewStrategyFor(gameType, name, p.opts.Seed)
	if err != nil {
		return nil
	}
	return s
}

// matchCost hands over a finished match's model cost for its history
// entry and forgets the match. Call with p.mu held.
func (p *Player) matchCost(matchID string) *ModelCost {
	if p.llm == nil {
		return nil
	}
	cost := p.llm.cost[matchID]
	delete(p.llm.cost, matchID)
	p.llm.model.Forget(matchID)
	return cost
}
