package launcher

import (
	"context"
	"fmt"
	"time"

	"github.com/leaguetui/leaguetui/agents/llm"
)

// budgetPoll is how often a league with a budget for its models reads
// their ledger.
const budgetPoll = 100 * time.Millisecond

// WatchLeagueBudget ends or pauses the league, as --league-budget-end
// says, once its model players have spent the league's budget: they ask
// their models nothing more by then (agents/llm), and this says why the
// league stops. It returns when ctx ends or it has acted.
func (l *League) WatchLeagueBudget(ctx context.Context, opts Spec) {
	settings := opts.Config.Player.LLM
	budget := llm.LeagueBudgetOf(settings)
	if budget == (llm.Budget{}) {
		return
	}
	tick := time.NewTicker(budgetPoll)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
		spent, usd, tokens, err := llm.LeagueSpent(opts.DataDir, opts.Config.LeagueID, budget)
		if err != nil || !spent {
			continue
		}
		what := fmt.Sprintf("the league's model budget is spent (%d tokens, ~$%.6f)", tokens, usd)
		if settings.LeagueBudgetEnd == "pause" {
			l.say(what + ": pausing the league, no new match starts")
			_ = l.Control.Pause(ctx)
		} else {
			l.say(what + ": stopping the league")
			_ = l.Control.Stop(ctx)
		}
		return
	}
}
