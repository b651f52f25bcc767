package player

import (
	"slices"
	"time"

	"github.com/leaguetui/leaguetui/agents/llm"
	"github.com/leaguetui/leaguetui/agents/protocol"
	"github.com/leaguetui/leaguetui/config"
	"github.com/leaguetui/leaguetui/engine"
)

// ModelCost is a model player's cost, in one match or in all.
type ModelCost = protocol.ModelCost

// modelPlayer is the llm strategy's state in a player; its maps are
// guarded by the player's mu.
type modelPlayer struct {
	model   *llm.Model
	reports map[string]*protocol.ModelMove // moveKey -> the report of the move given
	cost    map[string]*ModelCost          // match id -> the match's cost so far
}

func newModelPlayer(opts Options) (*modelPlayer, error) {
	price, err := config.ModelPrice(opts.Config.Dir, opts.Config.Player.LLM)
	if err != nil {
		return nil, err
	}
	l := opts.Config.Player.LLM
	model, err := llm.New(l, llm.Options{Price: price, Player: opts.Name,
		Budget:       llm.Budget{USD: l.BudgetUSD, Tokens: l.BudgetTokens},
		LeagueBudget: llm.Budget{USD: l.LeagueBudgetUSD, Tokens: l.LeagueBudgetTokens},
		DataDir:      opts.DataDir, LeagueID: opts.Config.LeagueID})
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
	past := func() []llm.PastMatch {
		p.mu.Lock()
		defer p.mu.Unlock()
		return p.pastAgainst(mc.OpponentID)
	}()
	// The player's lifetime, not the call's: a referee that gives up on a
	// call asks again for the same move, which the model may still give;
	// a player that shuts down stops waiting for its provider.
	return p.llm.model.Ask(p.Lifetime(), llm.TurnFor(mc, past, deadline))
}

// pastAgainst is this league's matches against opponent, for the prompt.
// Call with p.mu held.
func (p *Player) pastAgainst(opponent string) []llm.PastMatch {
	var past []llm.PastMatch
	for _, e := range p.history.Matches {
		if e.LeagueID == p.LeagueID() && e.OpponentID == opponent {
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
	missing := report.Metadata["exception_type"] == llm.RecordMissing // a replay's gap is shown, never covered
	if report.Status == engine.RaceError && p.llm.model.Settings().Fallback != "" && !missing {
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
	cost.Add(report, mc.Turn)
	p.countModelMove(report)
	return move, &report
}

// panicked is the report of a model move whose path panicked (see
// chooseMove): a MODEL_GENERATION_ERROR of this move only, ERROR as a
// provider's failure is.
func (mp *modelPlayer) panicked(mc engine.MoveContext) *protocol.ModelMove {
	s := mp.model.Settings()
	status, _ := engine.ModelErrorStatus(engine.ErrorGeneration)
	return &protocol.ModelMove{Provider: s.Provider, Model: s.Model, ErrorType: engine.ErrorGeneration, Status: status,
		Metadata: map[string]any{"exception_type": llm.MovePanicked, "has_tool_call_request": false, "provider": s.Provider,
			"step": mc.Turn}}
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

// modelCost is the model's cost in this league so far, for /health: the
// matches recorded and those still being played.
func (p *Player) modelCost() *protocol.ModelCost {
	p.mu.Lock()
	defer p.mu.Unlock()
	total := ModelCost{Provider: p.llm.model.Settings().Provider, Model: p.llm.model.Settings().Model}
	for _, e := range p.history.Matches {
		if e.LeagueID == p.LeagueID() && e.Model != nil {
			total.Merge(*e.Model)
		}
	}
	for _, live := range p.llm.cost {
		total.Merge(*live)
	}
	total.Errors = nil
	total.BudgetSpent, _ = p.llm.model.BudgetSpent()
	return &total
}

// countModelMove adds a model move's cost to GET /metrics. Call with p.mu
// held, once per move asked (not for a repeated call).
func (p *Player) countModelMove(report protocol.ModelMove) {
	p.metrics.ModelTokens.WithLabelValues("input").Add(float64(report.InputTokens))
	p.metrics.ModelTokens.WithLabelValues("output").Add(float64(report.OutputTokens))
	if report.CostUSD != nil {
		p.metrics.ModelCost.Add(*report.CostUSD)
	}
	if report.BudgetSpent != "" {
		p.metrics.BudgetRefusals.WithLabelValues(report.BudgetSpent).Inc()
	}
	p.metrics.ModelLatency.Observe(float64(report.LatencyMS) / 1000)
	if report.ErrorType != "" {
		p.metrics.ProviderErrors.WithLabelValues(report.ErrorType).Inc()
	}
}
