package launcher

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/leaguetui/leaguetui/agents/llm"
	"github.com/leaguetui/leaguetui/agents/protocol"
	"github.com/leaguetui/leaguetui/config"
	"github.com/leaguetui/leaguetui/engine"
	"github.com/leaguetui/leaguetui/league/control"
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

// ModelCosts asks the players' /health for their model's cost, by player
// id; nil when no player is a model player.
func (l *League) ModelCosts(ctx context.Context) map[string]*protocol.ModelCost {
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
