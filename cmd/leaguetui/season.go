package main

import (
	"context"
	"fmt"
	"io"

	"github.com/leaguetui/leaguetui/engine"
	"github.com/leaguetui/leaguetui/league/season"
)

const seasonHelp = `leaguetui season: the table of a season folder.

Usage:
  leaguetui season DIR [--json] [--csv OUT]

DIR is a season folder that leagues were added to with --season DIR. The
table gives each player's leagues, games, wins, draws, losses, technical
losses and points over the season, and a rating with its 95% interval
fitted over every game of the season (one Bradley-Terry fit), the games it
rests on and the likelihood of superiority over the next (docs/seasons.md).

Flags:
`

func runSeason(_ context.Context, args []string, stdout io.Writer) error {
	fs := newCommandFlagSet("leaguetui season", seasonHelp, stdout)
	asJSON := fs.Bool("json", false, "print the season as one JSON document")
	csvDir := fs.String("csv", "", "also write season_standings.csv and rating_history.csv into this `folder`")
	dir, err := parseWithFolder(fs, args)
	if err != nil {
		return err
	}
	s, err := season.Read(dir)
	if err != nil {
		return err
	}
	if len(s.Leagues) == 0 {
		return fmt.Errorf("season %s holds no league: add one with --season %s", dir, dir)
	}
	if *csvDir != "" {
		if err := s.WriteExports(*csvDir); err != nil {
			return fmt.Errorf("--csv %s: %w", *csvDir, err)
		}
	}
	if *asJSON {
		return s.WriteJSON(stdout)
	}
	return s.WriteText(stdout)
}

// seasonPrior is the manager's season, for a --place league: the season's
// games between the league's players (league id -> display name).
func seasonPrior(dir string, players map[string]string) ([]engine.PriorGames, error) {
	return season.Prior(dir, players, nil)
}
