package tui

import (
	"fmt"
	"math"
	"slices"
	"strings"

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
	cols := seasonColumns(p.season.rows, p.width)
	lines := []string{s.TableHead.Render(fit(" "+cols.line(nil), p.width))}
	from, to := p.list.window(len(p.season.rows))
	for i := range p.season.rows[from:to] {
		r := &p.season.rows[from+i]
		lines = append(lines, fit(" "+cols.line(r), p.width))
	}
	return lines
}

// seasonColumn is one column of the season's table: its heading, width,
// the space before it and its cell (rows nil: the heading).
type seasonColumn struct {
	head  string
	width int
	sep   string
	left  bool
	cell  func(r *engine.SeasonRow) string
	drop  int // the order it gives way on a narrow pane: 1 first; 0 never
}

type seasonTable []seasonColumn

// seasonColumns are the season's columns that fit width: the name column
// is as wide as the widest name (4 to 16 cells), then, while the table is
// still too wide, the least needed give way (the tie group, the rank
// interval, los, games, leagues, TL, played), so that the rating, the
// point of the table, stays on screen.
// The rating column is the league table's (ratingCell), so a season's
// figures read as the league's do.
func seasonColumns(rows []engine.SeasonRow, width int) seasonTable {
	name := 4
	for _, r := range rows {
		name = max(name, visibleWidth(r.Name))
	}
	num := func(f func(r *engine.SeasonRow) int) func(r *engine.SeasonRow) string {
		return func(r *engine.SeasonRow) string { return itoa(f(r)) }
	}
	all := seasonTable{
		{head: "rank", width: 4, cell: num(func(r *engine.SeasonRow) int { return r.Rank })},
		{head: "name", width: min(name, 16), sep: "  ", left: true, cell: func(r *engine.SeasonRow) string { return r.Name }},
		{head: "leagues", width: 7, sep: " ", drop: 5, cell: num(func(r *engine.SeasonRow) int { return r.Leagues })},
		{head: "played", width: 6, sep: " ", drop: 7, cell: num(func(r *engine.SeasonRow) int { return r.Played })},
		{head: "W", width: 4, sep: " ", cell: num(func(r *engine.SeasonRow) int { return r.Wins })},
		{head: "D", width: 4, sep: " ", cell: num(func(r *engine.SeasonRow) int { return r.Draws })},
		{head: "L", width: 4, sep: " ", cell: num(func(r *engine.SeasonRow) int { return r.Losses })},
		{head: "TL", width: 4, sep: " ", drop: 6, cell: num(func(r *engine.SeasonRow) int { return r.TechnicalLosses })},
		{head: "points", width: 7, sep: " ", cell: func(r *engine.SeasonRow) string { return points(r.Points) }},
		{head: ratingHead, width: visibleWidth(ratingHead), cell: func(r *engine.SeasonRow) string {
			return ratingCell(protocolRating(*r), true)
		}},
		{head: "games", width: 5, drop: 4, cell: num(func(r *engine.SeasonRow) int { return r.Rating.Games })},
		{head: "los", width: 5, sep: " ", drop: 3, cell: func(r *engine.SeasonRow) string {
			if r.LOSNext == nil {
				return ""
			}
			return fmt.Sprintf("%.0f%%", 100**r.LOSNext)
		}},
		{head: "ranks", width: 5, sep: " ", drop: 2, cell: func(r *engine.SeasonRow) string { ranks, _ := protocolRating(*r).RankCells(); return ranks }},
		{head: "tie", width: 3, sep: " ", drop: 1, cell: func(r *engine.SeasonRow) string { _, tie := protocolRating(*r).RankCells(); return tie }},
	}
	for order := 1; all.width()+1 > width && order <= 7; order++ {
		all = slices.DeleteFunc(all, func(c seasonColumn) bool { return c.drop == order })
	}
	return all
}

// protocolRating is a season row's rating as the league table's cells
// take it: its rating, its rank interval and tie group.
func protocolRating(r engine.SeasonRow) protocol.RatingRow {
	row := protocol.RatingRow{Elo: r.Rating.Elo, CI95: r.Rating.CI95, Rated: r.Rating.Rated}
	if r.Ranks.Best > 0 {
		row.RankInterval, row.TieGroup = &[2]int{r.Ranks.Best, r.Ranks.Worst}, r.Ranks.TieGroup
	}
	return row
}

// width is the cells a row of the table takes.
func (t seasonTable) width() int {
	w := 0
	for _, c := range t {
		w += len(c.sep) + c.width
	}
	return w
}

// line is a row of the table, or its heading for r nil.
func (t seasonTable) line(r *engine.SeasonRow) string {
	var b strings.Builder
	for _, c := range t {
		text := c.head
		if r != nil {
			text = truncate(c.cell(r), c.width)
		}
		b.WriteString(c.sep)
		if c.left {
			b.WriteString(padRight(text, c.width))
		} else {
			b.WriteString(padLeft(text, c.width))
		}
	}
	return b.String()
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
	if st.Rule == "until-decided" {
		return decidedLine(st)
	}
	line := fmt.Sprintf(" until-separated %d/%d", st.Played, st.Limit)
	if st.Known {
		line += fmt.Sprintf(" · %d of %d adjacent pairs unsure", st.Unsure, st.Pairs)
	} else {
		line += " · pairs counted after the schedule"
	}
	return line
}

// decidedLine is separationLine for --until-decided: the counts of each
// verdict, then every adjacent pair of the ranking by rating, best first,
// as "A>B" (separated), "A=B" (equivalent within the margin) or "A?B"
// (unsure), as many as the line has room for.
func decidedLine(st engine.SeparationStatus) string {
	line := fmt.Sprintf(" until-decided %d/%d", st.Played, st.Limit)
	if !st.Known {
		return line + " · pairs judged after the schedule"
	}
	line += fmt.Sprintf(" · %d separated, %d equivalent (±%g Elo), %d unsure ·", st.Separated, st.Equivalent, st.Margin, st.Unsure)
	mark := map[string]string{engine.VerdictSeparated: ">", engine.VerdictEquivalent: "=", engine.VerdictUnsure: "?"}
	for _, v := range st.Verdicts {
		line += " " + v.Above + mark[v.Verdict] + v.Below
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
