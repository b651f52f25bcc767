package tui

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/leaguetui/leaguetui/agents/protocol"
	"github.com/leaguetui/leaguetui/engine"
)

// standingsScreen is one of the standings pane's four screens: the table,
// the crosstable (c), one player's LOS (v) and the season's table (e).
// Each has its own title, keys, key handling and drawing; the pane hands
// every call to the screen it shows (standingsPane.screen).
type standingsScreen interface {
	title() string
	help() keyHelp
	// update handles a key the pane has not handled itself (e, which
	// every screen takes alike).
	update(msg tea.KeyMsg) (tea.Cmd, bool)
	view() string
}

// screen is the screen the pane shows: the season's table, over the screen
// it was opened from, when it is open; else the crosstable, the LOS view or
// the table. The pane's state says which: season, cross and los (each
// screen's own state beside it: the crosstable's column cursor, the LOS
// view's player, the season's rows).
func (p *standingsPane) screen() standingsScreen {
	if p.season != nil {
		return seasonScreen{p, p.base()}
	}
	return p.base()
}

// base is the screen under the season's table.
func (p *standingsPane) base() standingsScreen {
	switch {
	case p.cross:
		return crossScreen{p}
	case p.los != nil:
		return losScreen{p}
	}
	return tableScreen{p}
}

// tableScreen is the live table: rank, player, name and figures, sorted
// and filtered as asked, with the footer saying how.
type tableScreen struct{ p *standingsPane }

func (tableScreen) title() string { return "Standings" }

func (t tableScreen) help() keyHelp { return t.p.tableHelp() }

func (t tableScreen) update(msg tea.KeyMsg) (tea.Cmd, bool) {
	if cmd, ok := t.p.viewKeys(msg); ok {
		return cmd, true
	}
	_, ok := t.p.moveInTable(msg)
	return nil, ok
}

func (t tableScreen) view() string {
	p := t.p
	s := p.ctx.Styles
	rows := p.rows()
	p.follow(rows)
	cols := p.tableColumns(rows)
	lines := []string{s.TableHead.Render(fit(cols.head(p), p.width))}
	from, to := p.list.window(len(rows))
	for i := from; i < to; i++ {
		lines = append(lines, p.ctx.row(cols.row(rows[i]), i == p.list.cursor, p.width))
	}
	switch {
	case len(rows) == 0 && p.ctx.Filter != "":
		lines = append(lines, s.Dim.Render(" No player matches the filter."))
	case len(rows) == 0:
		lines = append(lines, s.Dim.Render(" No player yet."))
	}
	lines = padTo(lines, p.list.height+1)
	if st := p.ctx.State.SPRT(); st != nil {
		lines[len(lines)-1] = fit(sprtLine(*st, p.width), p.width) // the table's last line gives way to the test
	}
	if st := p.ctx.State.Separation(); st != nil {
		lines[len(lines)-1] = fit(separationLine(*st), p.width) // and to --until-separated's count
	}
	return block(append(lines, s.Dim.Render(p.tableFooter(len(rows)))), p.width, p.list.height+2)
}

// tableColumns are the table's columns as the pane and the rows size
// them: the player and name columns (nameColumns), and the ratings and
// model costs columns where the league has them.
type tableColumns struct {
	idW, nameW int
	ratings    map[string]protocol.RatingRow
	costs      map[string]*protocol.ModelCost
}

func (p *standingsPane) tableColumns(rows []protocol.StandingRow) tableColumns {
	c := tableColumns{ratings: p.ctx.State.Ratings(), costs: p.ctx.State.ModelCosts()}
	c.idW, c.nameW = p.nameColumns(rows, c.ratings != nil, c.costs != nil)
	return c
}

// head is the table's heading, the sorted column marked.
func (c tableColumns) head(p *standingsPane) string {
	head := " " + p.headCell(sortRank, 4, false) + " " + p.headCell(sortPlayer, c.idW, true)
	if c.nameW > 0 {
		head += " " + p.headCell(sortName, c.nameW, true)
	}
	for _, f := range []struct {
		col   sortColumn
		width int
	}{{sortPlayed, 6}, {sortWins, 4}, {sortDraws, 4}, {sortLosses, 4}, {sortTechnical, 4}, {sortPoints, 6}} {
		head += p.headCell(f.col, f.width, false)
	}
	if c.ratings != nil {
		head += ratingHead + rankHead
	}
	if c.costs != nil {
		head += fmt.Sprintf(" %10s %11s", "tok in/out", "est. cost")
	}
	return head
}

// row is one player's line of the table, before the cursor's mark.
func (c tableColumns) row(r protocol.StandingRow) string {
	player := truncate(r.PlayerID, c.idW)
	if c.nameW < 0 {
		player = idName(r.PlayerID, r.DisplayName, c.idW)
	}
	text := fmt.Sprintf("%4d  %s", r.Rank, padRight(player, c.idW))
	if c.nameW > 0 {
		text += " " + padRight(truncate(r.DisplayName, c.nameW), c.nameW)
	}
	text += fmt.Sprintf(" %6d %4d %4d %4d %4d %6d", r.Played, r.Wins, r.Draws, r.Losses, r.TechnicalLosses, r.Points)
	if c.ratings != nil {
		rating, ok := c.ratings[r.PlayerID]
		text += ratingCell(rating, ok) + rankCell(rating, ok)
	}
	cost := c.costs[r.PlayerID]
	if c.costs != nil {
		text += fmt.Sprintf(" %10s %11s", tokensText(cost), moneyText(cost))
	}
	if r.Status == engine.PlayerSuspended {
		text += " suspended"
	}
	if cost != nil && cost.BudgetSpent != "" {
		text += " " + cost.BudgetSpent + " budget spent"
	}
	return text
}

// tableFooter says how the table is sorted, how many players it shows,
// the filter and the league's tiebreakers when not the default.
func (p *standingsPane) tableFooter(players int) string {
	order := "high to low"
	if p.ascending() {
		order = "low to high"
	}
	footer := fmt.Sprintf(" sorted by %s %s %s · %s", p.sortBy, p.sortMark(), order, plural(players, "player"))
	if p.ctx.Filter != "" {
		footer += fmt.Sprintf(" · filter %q", p.ctx.Filter)
	}
	if tb := p.ctx.State.league.Table.Scoring().Tiebreakers; !tb.IsDefault() {
		footer += " · ranked by " + tb.Legend() // the league file's scoring.tiebreakers
	}
	return footer
}

// losScreen is one player's likelihood of superiority over each other
// player (losView, drawn by losLines).
type losScreen struct{ p *standingsPane }

func (losScreen) title() string { return "Likelihood of superiority" }

func (l losScreen) help() keyHelp { return l.p.tableHelp() }

func (l losScreen) update(msg tea.KeyMsg) (tea.Cmd, bool) {
	p := l.p
	if cmd, ok := p.viewKeys(msg); ok {
		return cmd, true
	}
	count := 0
	if p.los.msg != nil {
		count = len(p.los.msg.Doc.Versus)
	}
	return nil, p.list.move(msg, p.ctx.ListKeys, count)
}

func (l losScreen) view() string {
	p := l.p
	lines := padTo(p.losLines(), p.list.height+1)
	return block(append(lines, p.ctx.Styles.Dim.Render(" v back · LOS = Φ(Δ/se), the chance the player is the stronger")), p.width, p.list.height+2)
}

// seasonScreen is the season's table (seasonView, drawn by seasonLines),
// open over the screen under it, whose keys its help still lists.
type seasonScreen struct {
	p     *standingsPane
	under standingsScreen
}

func (seasonScreen) title() string { return "Season" }

func (s seasonScreen) help() keyHelp { return s.under.help() }

func (s seasonScreen) update(msg tea.KeyMsg) (tea.Cmd, bool) {
	return nil, s.p.list.move(msg, s.p.ctx.ListKeys, len(s.p.season.rows))
}

func (s seasonScreen) view() string {
	p := s.p
	lines := padTo(p.seasonLines(), p.list.height+1)
	return block(append(lines, p.ctx.Styles.Dim.Render(" e back · elo: one fit over every game of the season · games: those it rests on")),
		p.width, p.list.height+2)
}

// crossScreen is the crosstable of who beat whom: rows the (filtered)
// players, columns every player by rank, a cursor on a cell (enter opens
// its match).
type crossScreen struct{ p *standingsPane }

func (crossScreen) title() string { return "Crosstable" }

func (c crossScreen) help() keyHelp {
	p, k := c.p, c.p.ctx.ListKeys
	return keyHelp{short: []key.Binding{k.Up, k.Down, p.keyLeft, p.keyRight, p.keyOpen, p.keyCross},
		full: [][]key.Binding{{k.Up, k.Down, p.keyLeft, p.keyRight, k.PgUp, k.PgDown}, {p.keyOpen, p.keyCross}}}
}

func (c crossScreen) update(msg tea.KeyMsg) (tea.Cmd, bool) {
	p := c.p
	if key.Matches(msg, p.keyCross) {
		p.toggleCross()
		return nil, true
	}
	rows, ok := p.moveInTable(msg)
	if ok {
		return nil, true
	}
	return p.updateCross(msg, rows)
}

// view draws the crosstable; only the cells that fit are drawn.
func (c crossScreen) view() string {
	p := c.p
	s := p.ctx.Styles
	rows, cols := p.rows(), p.sorted()
	p.follow(rows)
	label, cell := p.crossLayout(cols)
	visible := max((p.width-label)/cell, 1)
	p.col = min(p.col, max(len(cols)-1, 0))
	if p.col < p.colOffset {
		p.colOffset = p.col
	}
	if p.col >= p.colOffset+visible {
		p.colOffset = p.col - visible + 1
	}
	var head strings.Builder
	head.WriteString(fmt.Sprintf(" %-*s", label-1, "rank player"))
	for j := p.colOffset; j < min(p.colOffset+visible, len(cols)); j++ {
		head.WriteString(fmt.Sprintf("%*d", cell, cols[j].Rank))
	}
	lines := []string{s.TableHead.Render(fit(head.String(), p.width))}
	from, to := p.list.window(len(rows))
	for i := from; i < to; i++ {
		lines = append(lines, p.crossRow(rows[i], cols, i == p.list.cursor, visible, label, cell))
	}
	lines = padTo(lines, p.list.height+1)
	return block(append(lines, s.Dim.Render(p.crossLegend(cols))), p.width, p.list.height+2)
}

// crossLegend is the crosstable's footer: the column under the cursor and
// what the cells say.
func (p *standingsPane) crossLegend(cols []protocol.StandingRow) string {
	legend := " W win · D draw · L loss · T technical loss · ▶ running · · to play"
	if n := p.ctx.State.PerPair(); n > 1 {
		legend = fmt.Sprintf(" %d games a pair: row's score, win 1 · draw ½ · ▶ running · · to play", n)
	}
	if p.col < len(cols) {
		legend = fmt.Sprintf(" column %d = %s ·%s", cols[p.col].Rank, idName(cols[p.col].PlayerID, cols[p.col].DisplayName, 24), legend)
	}
	return legend
}
