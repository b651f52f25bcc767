package tui

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/leaguetui/leaguetui/agents/protocol"
	"github.com/leaguetui/leaguetui/engine"
)

// sortColumn is a column the standings can be sorted by.
type sortColumn int

// The sort columns, in the order the table shows them: o cycles through
// them left to right.
const (
	sortRank sortColumn = iota
	sortPlayer
	sortName
	sortPlayed
	sortWins
	sortDraws
	sortLosses
	sortTechnical
	sortPoints
	sortColumns // count
)

var sortNames = [...]string{"rank", "player", "name", "played", "W", "D", "L", "TL", "points"}

func (c sortColumn) String() string { return sortNames[c] }

// standingsPane is the live table and, on c, the crosstable of who beat
// whom. The table is sorted on each draw: O(players log players), a few
// hundred rows at most, and drawn 30 times a second at most.
type standingsPane struct {
	ctx        *programContext
	list       scroller
	selected   string // the player under the cursor: it follows the player as the table moves
	width      int
	sortBy     sortColumn
	reverse    bool
	cross      bool
	col        int // crosstable column cursor
	colOffset  int
	keySort    key.Binding
	keyReverse key.Binding
	keyCross   key.Binding
	keyLeft    key.Binding
	keyRight   key.Binding
	keyOpen    key.Binding
	keyLOS     key.Binding
	los        *losView // the LOS view of one player, when open
	losFrom    int      // the table's cursor when it opened
	keySeason  key.Binding
	season     *seasonView // the season's table (--season), when open
}

func newStandingsPane(ctx *programContext) *standingsPane {
	return &standingsPane{ctx: ctx,
		keySort:    key.NewBinding(key.WithKeys("o"), key.WithHelp("o", "sort column")),
		keyReverse: key.NewBinding(key.WithKeys("r"), key.WithHelp("r", "reverse sort")),
		keyCross:   key.NewBinding(key.WithKeys("c"), key.WithHelp("c", "crosstable")),
		keyLeft:    key.NewBinding(key.WithKeys("left", "h"), key.WithHelp("←/h", "column left")),
		keyRight:   key.NewBinding(key.WithKeys("right", "l"), key.WithHelp("→/l", "column right")),
		keyOpen:    key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "open match")),
		keyLOS:     key.NewBinding(key.WithKeys("v"), key.WithHelp("v", "LOS")),
		keySeason:  key.NewBinding(key.WithKeys("e"), key.WithHelp("e", "season")),
	}
}

func (p *standingsPane) Title() string {
	if p.season != nil {
		return "Season"
	}
	if p.cross {
		return "Crosstable"
	}
	if p.los != nil {
		return "Likelihood of superiority"
	}
	return "Standings"
}

func (p *standingsPane) SetSize(width, height int) { p.width, p.list.height = width, height-2 }

func (p *standingsPane) Help() keyHelp {
	k := p.ctx.ListKeys
	if p.cross {
		return keyHelp{short: []key.Binding{k.Up, k.Down, p.keyLeft, p.keyRight, p.keyOpen, p.keyCross},
			full: [][]key.Binding{{k.Up, k.Down, p.keyLeft, p.keyRight, k.PgUp, k.PgDown}, {p.keyOpen, p.keyCross}}}
	}
	views := []key.Binding{p.keySort, p.keyReverse, p.keyCross, p.keyLOS}
	if p.ctx.Season != nil { // e only where there is a season to show
		views = append(views, p.keySeason)
	}
	return keyHelp{short: append([]key.Binding{k.Up, k.Down}, views...),
		full: [][]key.Binding{{k.Up, k.Down, k.PgUp, k.PgDown, k.Top, k.Bottom}, views}}
}

// rows are the standings, filtered and sorted as asked.
func (p *standingsPane) rows() []protocol.StandingRow {
	all := p.sorted()
	rows := make([]protocol.StandingRow, 0, len(all))
	for _, r := range all {
		if p.ctx.matchesFilter(r.PlayerID) {
			rows = append(rows, r)
		}
	}
	return rows
}

// sorted is every player, sorted as asked: the crosstable's columns, in
// the order of its rows, so that a player meets itself on the diagonal.
func (p *standingsPane) sorted() []protocol.StandingRow {
	rows := slices.Clone(p.ctx.State.Standings())
	slices.SortStableFunc(rows, func(a, b protocol.StandingRow) int {
		c := compareBy(p.sortBy, a, b)
		if p.reverse {
			return -c
		}
		return c
	})
	return rows
}

// ascending reports whether the table's values grow down the column: the
// best first is rank 1 and the most points, and names read A to Z.
func (p *standingsPane) ascending() bool {
	natural := p.sortBy == sortRank || p.sortBy == sortPlayer || p.sortBy == sortName
	return natural != p.reverse
}

// sortMark is the sorted column's marker: ▲ values grow down, ▼ they fall.
func (p *standingsPane) sortMark() string {
	if p.ascending() {
		return "▲"
	}
	return "▼"
}

// headCell is a column's heading: right-aligned with the space before it
// (width+1 cells), or left-aligned in width cells; the sorted column carries its mark, taking
// the space before it when the heading fills the column.
func (p *standingsPane) headCell(col sortColumn, width int, left bool) string {
	label := col.String()
	if col == p.sortBy {
		label += p.sortMark()
	}
	if left {
		return fmt.Sprintf("%-*s", width, label)
	}
	return padLeft(label, width+1)
}

// follow puts the cursor on the player the user selected, wherever the
// table has moved that player since.
func (p *standingsPane) follow(rows []protocol.StandingRow) {
	for i, r := range rows {
		if p.selected != "" && r.PlayerID == p.selected {
			p.list.cursor = i
			break
		}
	}
	p.list.clamp(len(rows))
}

// compareBy orders by a column, best (or first) first, ties by rank.
func compareBy(col sortColumn, a, b protocol.StandingRow) int {
	desc := func(x, y int) int { return cmp.Compare(y, x) }
	var c int
	switch col {
	case sortPoints:
		c = desc(a.Points, b.Points)
	case sortWins:
		c = desc(a.Wins, b.Wins)
	case sortDraws:
		c = desc(a.Draws, b.Draws)
	case sortLosses:
		c = desc(a.Losses, b.Losses)
	case sortTechnical:
		c = desc(a.TechnicalLosses, b.TechnicalLosses)
	case sortPlayed:
		c = desc(a.Played, b.Played)
	case sortPlayer:
		c = cmp.Compare(a.PlayerID, b.PlayerID)
	case sortName:
		c = cmp.Compare(a.DisplayName, b.DisplayName)
	}
	return cmp.Or(c, cmp.Compare(a.Rank, b.Rank))
}

func (p *standingsPane) Update(msg tea.KeyMsg) (tea.Cmd, bool) {
	if key.Matches(msg, p.keySeason) {
		p.toggleSeason()
		p.list.cursor, p.list.offset = 0, 0
		return nil, true
	}
	if p.season != nil {
		return nil, p.list.move(msg, p.ctx.ListKeys, len(p.season.rows))
	}
	switch {
	case key.Matches(msg, p.keySort) && !p.cross:
		p.sortBy = (p.sortBy + 1) % sortColumns
		return nil, true
	case key.Matches(msg, p.keyReverse) && !p.cross:
		p.reverse = !p.reverse
		return nil, true
	case key.Matches(msg, p.keyCross):
		p.cross, p.los = !p.cross, nil
		return nil, true
	case key.Matches(msg, p.keyLOS) && !p.cross:
		return p.toggleLOS(), true
	}
	if p.los != nil {
		count := 0
		if p.los.msg != nil {
			count = len(p.los.msg.Doc.Versus)
		}
		return nil, p.list.move(msg, p.ctx.ListKeys, count)
	}
	rows := p.rows()
	p.follow(rows)
	if p.list.move(msg, p.ctx.ListKeys, len(rows)) {
		if p.list.cursor < len(rows) {
			p.selected = rows[p.list.cursor].PlayerID
		}
		return nil, true
	}
	if !p.cross {
		return nil, false
	}
	return p.updateCross(msg, rows)
}

func (p *standingsPane) updateCross(msg tea.KeyMsg, rows []protocol.StandingRow) (tea.Cmd, bool) {
	cols := p.sorted()
	switch {
	case key.Matches(msg, p.keyLeft):
		p.col = max(p.col-1, 0)
	case key.Matches(msg, p.keyRight):
		p.col = min(p.col+1, max(len(cols)-1, 0))
	case key.Matches(msg, p.keyOpen):
		if p.list.cursor < len(rows) && p.col < len(cols) {
			if m := p.ctx.State.Between(rows[p.list.cursor].PlayerID, cols[p.col].PlayerID); m != nil {
				return openMatch(m.MatchID), true
			}
		}
	default:
		return nil, false
	}
	return nil, true
}

// toggleLOS opens the LOS view of the selected player, or closes it.
func (p *standingsPane) toggleLOS() tea.Cmd {
	if p.los != nil {
		p.los, p.list.cursor = nil, p.losFrom
		return nil
	}
	rows := p.rows()
	if p.list.cursor >= len(rows) {
		return nil
	}
	id := rows[p.list.cursor].PlayerID
	p.los, p.losFrom, p.list.cursor, p.list.offset = &losView{playerID: id}, p.list.cursor, 0, 0
	return openLOS(id)
}

func (p *standingsPane) View() string {
	s := p.ctx.Styles
	if p.season != nil {
		lines := padTo(p.seasonLines(), p.list.height+1)
		return block(append(lines, s.Dim.Render(" e back · elo: one fit over every game of the season · games: those it rests on")),
			p.width, p.list.height+2)
	}
	if p.cross {
		return p.crossView()
	}
	if p.los != nil {
		lines := padTo(p.losLines(), p.list.height+1)
		return block(append(lines, s.Dim.Render(" v back · LOS = Φ(Δ/se), the chance the player is the stronger")), p.width, p.list.height+2)
	}
	rows := p.rows()
	ratings := p.ctx.State.Ratings()
	p.follow(rows)
	costs := p.ctx.State.ModelCosts()
	idW, nameW := p.nameColumns(rows, ratings != nil, costs != nil)
	head := " " + p.headCell(sortRank, 4, false) + " " + p.headCell(sortPlayer, idW, true)
	if nameW > 0 {
		head += " " + p.headCell(sortName, nameW, true)
	}
	for _, c := range []struct {
		col   sortColumn
		width int
	}{{sortPlayed, 6}, {sortWins, 4}, {sortDraws, 4}, {sortLosses, 4}, {sortTechnical, 4}, {sortPoints, 6}} {
		head += p.headCell(c.col, c.width, false)
	}
	if ratings != nil {
		head += ratingHead
	}
	if costs != nil {
		head += fmt.Sprintf(" %10s %11s", "tok in/out", "est. cost")
	}
	lines := []string{s.TableHead.Render(fit(head, p.width))}
	from, to := p.list.window(len(rows))
	for i := from; i < to; i++ {
		r := rows[i]
		player := truncate(r.PlayerID, idW)
		if nameW < 0 {
			player = idName(r.PlayerID, r.DisplayName, idW)
		}
		text := fmt.Sprintf("%4d  %s", r.Rank, padRight(player, idW))
		if nameW > 0 {
			text += " " + padRight(truncate(r.DisplayName, nameW), nameW)
		}
		text += fmt.Sprintf(" %6d %4d %4d %4d %4d %6d", r.Played, r.Wins, r.Draws, r.Losses, r.TechnicalLosses, r.Points)
		if ratings != nil {
			rating, ok := ratings[r.PlayerID]
			text += ratingCell(rating, ok)
		}
		if costs != nil {
			text += fmt.Sprintf(" %10s %11s", tokensText(costs[r.PlayerID]), moneyText(costs[r.PlayerID]))
		}
		if r.Status == engine.PlayerSuspended {
			text += " suspended"
		}
		if c := costs[r.PlayerID]; c != nil && c.BudgetSpent != "" {
			text += " " + c.BudgetSpent + " budget spent"
		}
		lines = append(lines, p.ctx.row(text, i == p.list.cursor, p.width))
	}
	switch {
	case len(rows) == 0 && p.ctx.Filter != "":
		lines = append(lines, s.Dim.Render(" No player matches the filter."))
	case len(rows) == 0:
		lines = append(lines, s.Dim.Render(" No player yet."))
	}
	lines = padTo(lines, p.list.height+1)
	order := "high to low"
	if p.ascending() {
		order = "low to high"
	}
	footer := fmt.Sprintf(" sorted by %s %s %s · %s", p.sortBy, p.sortMark(), order, plural(len(rows), "player"))
	if p.ctx.Filter != "" {
		footer += fmt.Sprintf(" · filter %q", p.ctx.Filter)
	}
	if tb := p.ctx.State.league.Table.Scoring().Tiebreakers; !tb.IsDefault() {
		footer += " · ranked by " + tb.Legend() // the league file's scoring.tiebreakers
	}
	if st := p.ctx.State.SPRT(); st != nil {
		lines[len(lines)-1] = fit(sprtLine(*st, p.width), p.width) // the table's last line gives way to the test
	}
	if st := p.ctx.State.Separation(); st != nil {
		lines[len(lines)-1] = fit(separationLine(*st), p.width) // and to --until-separated's count
	}
	return block(append(lines, s.Dim.Render(footer)), p.width, p.list.height+2)
}

// nameColumns sizes the player and name columns to the pane: the id
// column as wide as the widest id (7 to 10 cells), the name column what
// is left beside the figures, up to 20 cells. A roster's names are never
// dropped: under 6 cells free, id and name share the player column
// ("P01 ali…", nameW -1); names that only repeat the ids show only where
// 14 cells are free. nameW 0 leaves the column out.
func (p *standingsPane) nameColumns(rows []protocol.StandingRow, ratings, costs bool) (idW, nameW int) {
	idW, widest, own := 7, 4, false
	for _, r := range rows {
		idW = max(idW, visibleWidth(r.PlayerID))
		widest = max(widest, visibleWidth(r.DisplayName))
		own = own || (r.DisplayName != "" && r.DisplayName != r.PlayerID)
	}
	idW = min(idW, 10)
	rest := p.width - (1 + 5 + 1 + idW + 1) - 34 // the figures: played to points
	if ratings {
		rest -= visibleWidth(ratingHead)
	}
	if costs {
		rest -= 24
	}
	switch {
	case own && rest-1 < 6: // one column, "P01 alice", the name cut to fit
		return idW + max(rest, 4), -1
	case own:
		return idW, min(rest-1, widest, 20)
	case rest-1 >= 14:
		return idW, min(rest-1, 14)
	}
	return idW, 0
}

// padRight left-aligns s in n cells (s may be wider; then it is kept).
func padRight(s string, n int) string {
	if w := visibleWidth(s); w < n {
		return s + strings.Repeat(" ", n-w)
	}
	return s
}

// crossCell is one cell of the crosstable from the row player's side.
func crossCell(m *matchInfo, row string) string {
	switch {
	case m == nil:
		return "—"
	case m.Result != nil:
		switch kindOf(*m.Result, row) {
		case "win":
			return "W"
		case "draw":
			return "D"
		case "technical":
			return "T"
		}
		return "L"
	case m.Abandoned:
		return "x"
	case m.Referee != "":
		return "▶"
	}
	return "·"
}

// kindOf is how a result ended for player p: win, draw, loss or technical.
func kindOf(r engine.Result, p string) string {
	switch r.Status {
	case engine.StatusDraw:
		return "draw"
	case engine.StatusTechnicalLoss:
		if slices.Contains(r.Offenders, p) || (len(r.Offenders) == 0 && r.Winner != p) {
			return "technical"
		}
		return "win"
	}
	if r.Winner == p {
		return "win"
	}
	return "loss"
}

// pairCell is the crosstable's cell of a pair from the row player's side:
// the result of their one game, or, where a pair plays several
// (--games-per-pair), the row player's score so far (a win 1, a draw ½, a
// loss or a technical loss 0) with ▶ while one of them runs.
func pairCell(ms []*matchInfo, row string) string {
	switch len(ms) {
	case 0:
		return "—"
	case 1:
		return crossCell(ms[0], row)
	}
	halves, done, running, abandoned := 0, 0, false, 0
	for _, m := range ms {
		switch {
		case m.Result != nil:
			done++
			switch kindOf(*m.Result, row) {
			case "win":
				halves += 2
			case "draw":
				halves++
			}
		case m.Abandoned:
			abandoned++
		case m.Referee != "":
			running = true
		}
	}
	var c string
	switch {
	case done > 0:
		c = scoreText(halves)
	case abandoned == len(ms):
		return "x"
	case !running:
		return "·"
	}
	if running {
		c += "▶"
	}
	return c
}

// scoreText is a score counted in halves: 0, ½, 1, 1½.
func scoreText(halves int) string {
	switch {
	case halves == 1:
		return "½"
	case halves%2 == 1:
		return itoa(halves/2) + "½"
	}
	return itoa(halves / 2)
}

// crossLayout is the crosstable's geometry: the row label (rank, id and
// name) and the width of a cell, room for the widest score and the
// cursor's brackets.
func (p *standingsPane) crossLayout(rows []protocol.StandingRow) (label, cell int) {
	name := 11
	if p.ctx.named() {
		for _, r := range rows {
			name = max(name, visibleWidth(idName(r.PlayerID, r.DisplayName, 24)))
		}
		name = min(name, 24, max(p.width/3-5, 11))
	}
	cell = 3
	if n := p.ctx.State.PerPair(); n > 1 {
		cell = len(itoa(n)) + 4 // "1½▶" and the brackets
	}
	return name + 5, cell
}

// crossView draws the crosstable: rows are the (filtered) players, columns
// every player by rank; only the cells that fit are drawn.
func (p *standingsPane) crossView() string {
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
	legend := " W win · D draw · L loss · T technical loss · ▶ running · · to play"
	if n := p.ctx.State.PerPair(); n > 1 {
		legend = fmt.Sprintf(" %d games a pair: row's score, win 1 · draw ½ · ▶ running · · to play", n)
	}
	if p.col < len(cols) {
		legend = fmt.Sprintf(" column %d = %s ·%s", cols[p.col].Rank, idName(cols[p.col].PlayerID, cols[p.col].DisplayName, 24), legend)
	}
	return block(append(lines, s.Dim.Render(legend)), p.width, p.list.height+2)
}

func (p *standingsPane) crossRow(r protocol.StandingRow, cols []protocol.StandingRow, selected bool, visible, label, cell int) string {
	var b strings.Builder
	b.WriteString(cursorMark(selected))
	b.WriteString(fmt.Sprintf("%3d %s", r.Rank, padRight(idName(r.PlayerID, r.DisplayName, label-5), label-5)))
	for j := p.colOffset; j < min(p.colOffset+visible, len(cols)); j++ {
		c := "—"
		if cols[j].PlayerID != r.PlayerID {
			c = pairCell(p.ctx.State.Pair(r.PlayerID, cols[j].PlayerID), r.PlayerID)
		}
		if selected && j == p.col {
			c = "[" + c + "]"
		}
		b.WriteString(padLeft(c, cell))
	}
	return fit(b.String(), p.width)
}

// padLeft right-aligns s in n cells (s may be wider; then it is kept).
func padLeft(s string, n int) string {
	w := visibleWidth(s)
	if w >= n {
		return s
	}
	return strings.Repeat(" ", n-w) + s
}

// padTo adds empty lines up to n.
func padTo(lines []string, n int) []string {
	for len(lines) < n {
		lines = append(lines, "")
	}
	return lines[:max(n, 0)]
}

// moneyText is a model player's tokens at its price, "no price" without
// one, "-" for other players.
func moneyText(c *protocol.ModelCost) string {
	if c == nil {
		return "-"
	}
	return protocol.Money(c.CostUSD)
}

// tokensText is a model player's tokens in and out, "-" for other players.
func tokensText(c *protocol.ModelCost) string {
	if c == nil {
		return "-"
	}
	return shortCount(c.InputTokens) + "/" + shortCount(c.OutputTokens)
}
