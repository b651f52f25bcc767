package headless

import (
	"fmt"
	"slices"
	"strings"

	"github.com/leaguetui/leaguetui/agents/llm"
	"github.com/leaguetui/leaguetui/config"
	"github.com/leaguetui/leaguetui/engine"
)

// playerStrategies is what the players a league starts play, cycled over
// them: --strategies when given (the llm strategy among them if its
// settings hold), otherwise the game's own strategies.
func playerStrategies(cfg config.Config) ([]string, error) {
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
			if err := llm.Check(cfg.Player.LLM); err != nil {
				return nil, err
			}
		case !slices.Contains(own, name):
			return nil, fmt.Errorf("--strategies: %q is not a strategy of %s (want %s or one of %v)", name, cfg.GameType, llm.StrategyName, own)
		}
		list = append(list, name)
	}
	return list, nil
}
