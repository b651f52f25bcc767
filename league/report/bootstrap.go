package report

import (
	"slices"

	"github.com/leaguetui/leaguetui/engine"
)

// The report gives each rating a bootstrap interval beside the analytic
// one: BootstrapResamples resamples of the league's games, drawn from the
// league's seed (engine.BootstrapRatings). A bootstrap is 0.6 s for a
// 100-player round robin (BenchmarkBootstrapRatings) and minutes at
// 1,000, so a league of more than BootstrapMaxPlayers players has none.
const (
	BootstrapResamples  = engine.DefaultBootstrapResamples
	BootstrapMaxPlayers = 100
)

// Bootstrap is every rated player's bootstrap interval, by player id: nil
// for a league of more than BootstrapMaxPlayers players or without a
// game. Made when first asked (the console's replay never asks), once.
func (l *League) Bootstrap() map[string]engine.BootstrapInterval {
	if l.bootstrap != nil {
		return *l.bootstrap
	}
	var out map[string]engine.BootstrapInterval
	if l.replayed != nil && len(l.replayed.PlayerIDs()) <= BootstrapMaxPlayers {
		results := slices.Collect(l.replayed.RecordedResults().All())
		if len(results) > 0 {
			out = map[string]engine.BootstrapInterval{}
			for _, iv := range engine.BootstrapRatings(l.replayed.PlayerIDs(), results, l.ratingOpts, BootstrapResamples, l.Seed) {
				if iv.Rated {
					out[iv.PlayerID] = iv
				}
			}
		}
	}
	l.bootstrap = &out
	return out
}

// JointFit is the first seat's advantage and Davidson's draw parameter
// fitted with the players' strengths over the league's games
// (engine.FitSeatAndDraws), as a season's table gives them; not Known for
// a league of more than BootstrapMaxPlayers players or without a game.
func (l *League) JointFit() engine.JointFit {
	if l.replayed == nil || len(l.replayed.PlayerIDs()) > BootstrapMaxPlayers {
		return engine.JointFit{}
	}
	results := slices.Collect(l.replayed.RecordedResults().All())
	return engine.FitSeatAndDraws(l.replayed.PlayerIDs(), results, l.ratingOpts)
}
