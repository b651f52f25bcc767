package lifecycle

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"time"

	"github.com/leaguetui/leaguetui/agents/protocol"
	"github.com/leaguetui/leaguetui/engine"
	"github.com/leaguetui/leaguetui/league/report"
	"github.com/leaguetui/leaguetui/league/season"
	"github.com/leaguetui/leaguetui/league/web"
)

// completedPoll is how often the console's league is asked whether it has
// completed, for its season.
const completedPoll = 500 * time.Millisecond

// Complete is what follows a completed league: its exports (Options.CSVDir)
// and its results added to its season (--season), once: the same league
// completed again adds nothing more. final is its final standings as the
// manager served them (nil: the data folder's standings.json).
func (l *League) Complete(final *protocol.StandingsFile) error {
	if err := writeExports(l.spec.DataDir, l.opts.CSVDir, l.spec.Config.LeagueID); err != nil {
		return err
	}
	var said strings.Builder
	err := season.AddLeague(l.spec.Config.Season, l.spec.DataDir, l.spec.Config.LeagueID, final,
		l.spec.Roster.NamesInSeason(), &said)
	if line := strings.TrimSpace(said.String()); line != "" {
		l.p.Say(slog.LevelInfo, strings.TrimPrefix(line, "leaguetui: "), nil)
	}
	return err
}

// completeWhenDone completes the console's league once it has: the
// console stays open on the final standings, and the season has the
// league from then on. A console quit before that adds nothing; the same
// command run again on the completed league adds it.
func (l *League) completeWhenDone(ctx context.Context) {
	tick := time.NewTicker(completedPoll)
	defer tick.Stop()
	for {
		if st, err := l.Control.Standings(ctx); err == nil && st.State == engine.LeagueCompleted {
			if err := l.Complete(&st); err != nil {
				l.p.Say(slog.LevelError, "the league could not be added to its season", err)
			}
			return
		}
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
	}
}

// FinishWeb ends the web view's streams (--web) on the league's final
// standings, once, so that an open page ends on that table and not on a
// manager that no longer answers. Call it once the league has ended and
// before its manager stops (Stop does, for a front end that has not). A
// view that cannot is told to the presenter, and the run goes on.
func (l *League) FinishWeb(ctx context.Context) {
	l.webOnce.Do(func() {
		if l.view == nil {
			return
		}
		ctx, cancel := context.WithTimeout(ctx, web.FinishTimeout)
		defer cancel()
		if err := l.view.Finish(ctx); err != nil && !errors.Is(err, web.ErrNotOver) {
			l.p.Say(slog.LevelWarn, "the web view's pages did not all get the final standings", err)
		}
	})
}

// writeExports writes the league's exports into csvDir, read from the
// data folder the league has just completed in.
func writeExports(dataDir, csvDir, leagueID string) error {
	if csvDir == "" {
		return nil
	}
	l, err := report.Load(dataDir, leagueID)
	if err == nil {
		err = l.WriteExports(csvDir)
	}
	if err != nil {
		return fmt.Errorf("--csv %s: %w", csvDir, err)
	}
	return nil
}
