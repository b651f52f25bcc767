package manager

import (
	"cmp"

	"github.com/leaguetui/leaguetui/config"
	"github.com/leaguetui/leaguetui/engine"
)

// formatSpec is the league's format as the configuration gives it.
func formatSpec(f config.Format) (engine.FormatSpec, error) {
	spec := engine.FormatSpec{Format: engine.Format(cmp.Or(f.Name, string(engine.FormatRoundRobin))),
		Rounds: f.Rounds, GamesPerPair: f.GamesPerPair, MaxGames: f.MaxGames, Challengers: f.ChallengerIDs(),
		UntilSeparated: f.UntilSeparated, Place: f.Place}
	if f.UntilDecided > 0 { // the margin journaled as a number, so a later default cannot change a replay
		spec.UntilDecided, spec.EquivalenceMargin = f.UntilDecided, float64(cmp.Or(f.EquivalenceMargin, engine.DefaultEquivalenceMargin))
	}
	if f.SPRT != "" {
		test, err := engine.ParseSPRT(f.SPRT)
		if err != nil {
			return spec, err
		}
		spec.SPRT = &test
	}
	return spec, nil
}

// schedule is what league_started journals: the seed, the players in
// seeding order, the format and the points, from which every reader rebuilds the
// rounds known at the start (StartInfo.Schedule); the schedule itself is
// not journaled, half a million pairings at 1,000 players.
func (m *Manager) schedule(players []string, seed int64) (*engine.StartInfo, error) {
	spec, err := formatSpec(m.opts.Config.Format)
	if err != nil {
		return nil, err
	}
	if spec.Place != "" {
		if spec, err = m.placing(spec, players); err != nil {
			return nil, err
		}
	}
	start, err := engine.NewStartInfo(spec, m.game.Type(), players, seed)
	if err == nil {
		scoring := engine.Scoring(m.opts.Config.Scoring)
		start.Scoring = &scoring // a replay of the journal scores the table as this league does
	}
	return start, err
}

// scheduleNextRound pairs and journals the next round when one is due (a
// Swiss league between rounds), before it is announced. A manager killed
// after the last round's end and before this is journaled pairs the round
// again on restart, from the same seed and results: the same round.
func (m *Manager) scheduleNextRound() (bool, error) {
	var round engine.Round
	var why string
	var due bool
	err := m.journaled(func(b *batch) (err error) {
		round, why, due, err = m.league.NextRoundWhy()
		if err != nil || !due {
			return err
		}
		_, err = b.stage(engine.Event{Kind: engine.EventRoundScheduled, Round: round.Number, Schedule: &round, Detail: why})
		return err
	})
	if err != nil || !due {
		return false, err
	}
	m.Log.Info("round paired", "event_type", "ROUND_SCHEDULED", "round_id", round.Number, "matches", len(round.Matches), "why", why)
	m.writeRounds()
	return true, nil
}

// placing is a --place league's format: the player named by id or display
// name, and, with a season, the season's games between the league's
// players as the prior its separating matches are chosen by.
func (m *Manager) placing(spec engine.FormatSpec, players []string) (engine.FormatSpec, error) {
	names := make(map[string]string, len(players)) // id -> display name
	for _, id := range players {
		a, _ := m.league.Agent(id)
		names[id] = a.DisplayName
		if a.DisplayName == spec.Place {
			spec.Place = id
		}
	}
	if m.opts.SeasonPrior == nil || m.opts.Config.Season == "" {
		return spec, nil
	}
	prior, err := m.opts.SeasonPrior(m.opts.Config.Season, names)
	spec.Prior = prior
	return spec, err
}
