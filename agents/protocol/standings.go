package protocol

import (
	"fmt"
	"math"
	"strconv"

	"github.com/leaguetui/leaguetui/engine"
)

// StandingRows is the engine's table as the wire's rows: the one
// conversion, for the manager's messages and documents, the console's own
// table and the report's.
func StandingRows(rows []engine.Row) []StandingRow {
	out := make([]StandingRow, len(rows))
	for i, r := range rows {
		out[i] = StandingRow{Rank: r.Rank, PlayerID: r.PlayerID, DisplayName: r.DisplayName, Played: r.Played,
			Wins: r.Wins, Draws: r.Draws, Losses: r.Losses, TechnicalLosses: r.TechnicalLosses, Points: r.Points,
			Status: r.Status}
	}
	return out
}

// NewStandingsFile is the standings document of a league as its events
// left it (Version is its last event), for the manager to serve and write
// and for the report to read from a replay of the journal. It has no
// ratings (a fit takes a second at 1,000 players: the caller makes it
// outside whatever guards the league, NewRatingsDoc) nor time.
func NewStandingsFile(l *engine.League) StandingsFile {
	done, total := l.Progress()
	doc := StandingsFile{SchemaVersion: FileSchemaVersion, LeagueID: l.ID, Version: l.LastSeq(), State: l.State,
		GameType: l.GameType, Seed: l.Seed, RoundsCompleted: l.RoundsCompleted(), RoundsTotal: l.PlannedRounds(),
		MatchesDone: done, MatchesTotal: total, Standings: StandingRows(l.Table.Rows())}
	if st, ok := l.SPRT(); ok {
		doc.SPRT = &st
	}
	if st, ok := l.SeparationStatus(); ok {
		doc.Separation = &st
	}
	return doc
}

// The ratings section's names for how technical losses were counted.
const (
	TechnicalLossesCounted  = "loss"
	TechnicalLossesExcluded = "excluded"
)

// NewRatingsDoc is the standings document's ratings section of a fit of
// matchesFitted results, its players in the order of rows (the table's),
// each with its likelihood of superiority over the next; nil without a
// fit. Elo and its interval are rounded to hundredths, the likelihood to
// four decimals: the manager's document and the report's table are the
// same numbers, made here.
func NewRatingsDoc(fit *engine.Ratings, matchesFitted int, opts engine.RatingOptions, rows []StandingRow) *RatingsDoc {
	if fit == nil {
		return nil
	}
	doc := &RatingsDoc{Model: RatingsModel, Interval: RatingsInterval, TechnicalLosses: TechnicalLossesCounted,
		Games: fit.Games, MatchesFitted: matchesFitted, Prior: fit.Prior, Players: make([]RatingRow, 0, len(rows))}
	if opts.ExcludeTechnical {
		doc.TechnicalLosses = TechnicalLossesExcluded
	}
	if s := fit.Seat; s.Known {
		doc.SeatAdvantage = &SeatAdvantage{Elo: round2(s.Elo), CI95: round2(s.CI95), Games: s.Games}
	}
	ranks := make(map[string]engine.RankInterval, len(rows))
	for _, iv := range engine.RankIntervals(fit) {
		ranks[iv.PlayerID] = iv
	}
	for i, row := range rows {
		r, _ := fit.Rating(row.PlayerID)
		out := RatingRow{PlayerID: row.PlayerID, Games: r.Games, Rated: r.Rated, Elo: round2(r.Elo), CI95: round2(r.CI95)}
		if iv, ok := ranks[row.PlayerID]; ok {
			out.RankInterval, out.TieGroup = &[2]int{iv.Best, iv.Worst}, iv.TieGroup
		}
		if i+1 < len(rows) && r.Rated {
			if next, _ := fit.Rating(rows[i+1].PlayerID); next.Rated {
				los := round4(fit.LOS(row.PlayerID, next.PlayerID))
				out.LOSNext = &los
			}
		}
		doc.Players = append(doc.Players, out)
	}
	return doc
}

// RatingOptions are the fit's options the ratings section names.
func (d *RatingsDoc) RatingOptions() engine.RatingOptions {
	return engine.RatingOptions{ExcludeTechnical: d != nil && d.TechnicalLosses == TechnicalLossesExcluded}
}

func round2(x float64) float64 { return math.Round(x*100) / 100 }
func round4(x float64) float64 { return math.Round(x*1e4) / 1e4 }

// Ranks is the rank interval as the tables show it: "2-4", or one number
// when the fit allows the player one rank only; "" without an interval.
func (r RatingRow) Ranks() string {
	if r.RankInterval == nil {
		return ""
	}
	if r.RankInterval[0] == r.RankInterval[1] {
		return strconv.Itoa(r.RankInterval[0])
	}
	return strconv.Itoa(r.RankInterval[0]) + "-" + strconv.Itoa(r.RankInterval[1])
}

// RankCells are the rank interval and the tie group as a table's two
// cells, "-" each without an interval.
func (r RatingRow) RankCells() (ranks, tie string) {
	if r.RankInterval == nil {
		return "-", "-"
	}
	return r.Ranks(), strconv.Itoa(r.TieGroup)
}

// Described is the first seat's advantage in words, as every table says
// it: "the first seat +35 ± 60 Elo over 120 games".
func (s SeatAdvantage) Described() string {
	return fmt.Sprintf("the first seat %+.0f ± %.0f Elo over %d games", engine.ShownElo(s.Elo), s.CI95, s.Games)
}
