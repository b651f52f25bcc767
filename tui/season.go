package tui

import (
	"fmt"
	"math"

	"github.com/leaguetui/leaguetui/agents/protocol"
	"github.com/leaguetui/leaguetui/engine"
)

// seasonView is the standings pane's view of the league's season
// (--season): the season's table as the season folder held it when the
// view was opened (e reads it again).
type seasonView struct {
	rows []engine.SeasonRow
	err  error
}

// toggleSeason opens the season's table, or closes it; a console without
// a season has none to open.
func (p *standingsPane) toggleSeason() {
	if p.season != nil || p.ctx.Season == nil {
		p.season = nil
		return
	}
	rows, err := p.ctx.Season()
	p.season = &seasonView{rows: rows, err: err}
}

// seasonLines draws the season's table: each player's leagues, games and
// points over the season, and its rating fitted over every game of it.
func (p *standingsPane) seasonLines() []string {
	s := p.ctx.Styles
	if p.season.err != nil {
		return []string{s.Dim.Render(" the season could not be read: " + p.season.err.Error())}
	}
	if len(p.season.rows) == 0 {
		return []string{s.Dim.Render(" the season holds no league yet: this one joins it when it completes")}
	}
	// The rating column is the league table's (ratingCell), so a season's
	// figures read as the league's do.
	head := fmt.Sprintf(" %4s  %-16s %7s %6s %4s %4s %4s %4s %7s%s%5s %5s", "rank", "name", "leagues", "played", "W", "D", "L", "TL",
		"points", ratingHead, "games", "los")
	lines := []string{s.TableHead.Render(fit(head, p.width))}
	from, to := p.list.window(len(p.season.rows))
	for _, r := range p.season.rows[from:to] {
		los := ""
		if r.LOSNext != nil {
			los = fmt.Sprintf("%.0f%%", 100**r.LOSNext)
		}
		rating := protocol.RatingRow{Elo: r.Rating.Elo, CI95: r.Rating.CI95, Rated: r.Rating.Rated}
		lines = append(lines, fit(fmt.Sprintf(" %4d  %-16s %7d %6d %4d %4d %4d %4d %7s%s%5d %5s", r.Rank, truncate(r.Name, 16),
			r.Leagues, r.Played, r.Wins, r.Draws, r.Losses, r.TechnicalLosses, points(r.Points), ratingCell(rating, true),
			r.Rating.Games, los), p.width))
	}
	return lines
}

// Separation is the manager's latest --until-separated status, nil
// without one.
func (s *leagueState) Separation() *engine.SeparationStatus {
	if s.official == nil {
		return nil
	}
	return s.official.Separation
}

// separationLine says how far --until-separated has gone and how many
// adjacent pairs are still unsure.
func separationLine(st engine.SeparationStatus) string {
	line := fmt.Sprintf(" until-separated %d/%d", st.Played, st.Limit)
	if st.Known {
		line += fmt.Sprintf(" · %d of %d adjacent pairs unsure", st.Unsure, st.Pairs)
	} else {
		line += " · pairs counted after the schedule"
	}
	return line
}

// points prints a season's points as the league's table does, a whole
// number, with one decimal only when a scoring's halves make one.
func points(p float64) string {
	if p == math.Trunc(p) {
		return fmt.Sprintf("%.0f", p)
	}
	return fmt.Sprintf("%.1f", p)
}
