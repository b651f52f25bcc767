package headless

import (
	"context"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/leaguetui/leaguetui/agents/control"
	"github.com/leaguetui/leaguetui/agents/llm"
	"github.com/leaguetui/leaguetui/agents/protocol"
	"github.com/leaguetui/leaguetui/config"
	"github.com/leaguetui/leaguetui/engine"
)

// PlayerStrategies is what the players a league starts play, cycled over
// them: --strategies when given (the llm strategy among them if its
// settings hold), otherwise the game's own strategies. Its error names the
// flag, so the command line can refuse a bad list before anything starts.
func PlayerStrategies(cfg config.Config) ([]string, error) {
	own := engine.StrategyNamesFor(cfg.GameType)
	if len(own) == 0 {
		return nil, fmt.Errorf("no built-in player plays %q (games with players: %v)", cfg.GameType, engine.PlayableGames())
	}
	if strings.TrimSpace(cfg.Player.Strategies) == "" {
		return own, nil
	}
	var list []string
	for _, name := range strings.Split(cfg.Player.Strategies, ",") {
		name = strings.TrimSpace(name)
		switch {
		case name == llm.StrategyName:
			if err := llm.CheckIn(cfg, cfg.Player.LLM); err != nil {
				return nil, err
			}
		case !slices.Contains(own, name):
			return nil, fmt.Errorf("--strategies: %q is not a strategy of %s (want %s or one of %v)", name, cfg.GameType, llm.StrategyName, own)
		}
		list = append(list, name)
	}
	return list, nil
}

// modelCosts asks the players' /health for their model's cost, by player
// id; nil when no player is a model player.
func (l *League) modelCosts(ctx context.Context) map[string]*protocol.ModelCost {
	endpoints := make([]string, len(l.Players))
	for i, p := range l.Players {
		endpoints[i] = p.Endpoint
	}
	var costs map[string]*protocol.ModelCost
	for _, probe := range control.ProbeAgents(ctx, endpoints, 8, 2*time.Second) {
		if probe.Err != nil || probe.Health.Model == nil {
			continue
		}
		if costs == nil {
			costs = map[string]*protocol.ModelCost{}
		}
		costs[probe.Health.ID] = probe.Health.Model
	}
	return costs
}

// budgetNote marks a model player whose budget stopped its moves.
func budgetNote(c *protocol.ModelCost) string {
	if c.BudgetSpent == "" {
		return ""
	}
	return " (" + c.BudgetSpent + " budget spent)"
}

// PrintModelCosts writes, under the standings, what each model player's
// moves cost, in the standings' order, and the league's estimated spend;
// nothing without model players. The provider and model come from a
// player's /health, so they are escaped.
func PrintModelCosts(w io.Writer, s protocol.StandingsFile, costs map[string]*protocol.ModelCost) {
	if len(costs) == 0 {
		return
	}
	fmt.Fprintf(w, "\n%-8s %-24s %6s %10s %10s %8s %6s %9s %s\n", "model", "provider/model", "moves", "tokens in", "tokens out", "ms/move", "failed", "fallbacks", "est. cost")
	for _, r := range s.Standings {
		c := costs[r.PlayerID]
		if c == nil {
			continue
		}
		perMove := int64(0)
		if c.Moves > 0 {
			perMove = c.LatencyMS / int64(c.Moves)
		}
		fmt.Fprintf(w, "%-8s %-24s %6d %10d %10d %8d %6d %9d %s\n", r.PlayerID, protocol.Printable(c.Provider+"/"+c.Model), c.Moves,
			c.InputTokens, c.OutputTokens, perMove, c.Failures, c.Fallbacks, protocol.Money(c.CostUSD)+budgetNote(c))
	}
	total, unpriced := ModelSpend(costs)
	line := "league spend, estimated from the price table: " + protocol.Money(total)
	if total == nil {
		line = "league spend: " + protocol.NoPrice
	} else if unpriced > 0 {
		line += fmt.Sprintf(" (%d model players with no price, their tokens not counted)", unpriced)
	}
	fmt.Fprintln(w, line)
}

// ModelSpend is what the model players spent, estimated: the sum of the
// priced ones' money (nil when none has a price) and how many have none.
func ModelSpend(costs map[string]*protocol.ModelCost) (total *float64, unpriced int) {
	for _, c := range costs {
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
