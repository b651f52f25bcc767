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
// whom; on v one player's LOS, on e the season's table: four screens, each
// its own type (standingsscreens.go), the one shown chosen by screen. The
// table is sorted on each draw: O(players log players), a few hundred rows
// at most, and drawn 30 times a second at most.
type standingsPane struct {
	ctx        *programContext
	list       scroller
	selected   string // the player under the cursor: it follows the player as the table moves
	width      int
	sortBy     sortColumn
	reverse    bool
	cross      bool // the crosstable is shown
	col        int  // crosstable column cursor
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

func (p *standingsPane) Title() string { return p.screen().title() }

func (p *standingsPane) SetSize(width, height int) { p.width, p.list.height = width, height-2 }

func (p *standingsPane) Help() keyHelp { return p.screen().help() }

// tableHelp is the keys of the table and of the LOS view: the list's, and
// those that sort the table and open the other screens.
func (p *standingsPane) tableHelp() keyHelp {
	k := p.ctx.ListKeys
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

// Update takes e, which opens or closes the season's table over any
// screen, and hands every other key to the screen shown.
func (p *standingsPane) Update(msg tea.KeyMsg) (tea.Cmd, bool) {
	if key.Matches(msg, p.keySeason) {
		p.toggleSeason()
		p.list.cursor, p.list.offset = 0, 0
		return nil, true
	}
	return p.screen().update(msg)
}

// viewKeys takes the keys the table and the LOS view share: o and r sort
// the table, c opens the crosstable, v opens or closes the LOS view.
func (p *standingsPane) viewKeys(msg tea.KeyMsg) (tea.Cmd, bool) {
	switch {
	case key.Matches(msg, p.keySort):
		p.sortBy = (p.sortBy + 1) % sortColumns
	case key.Matches(msg, p.keyReverse):
		p.reverse = !p.reverse
	case key.Matches(msg, p.keyCross):
		p.toggleCross()
	case key.Matches(msg, p.keyLOS):
		return p.toggleLOS(), true
	default:
		return nil, false
	}
	return nil, true
}

// toggleCross opens the crosstable (closing the LOS view), or closes it.
func (p *standingsPane) toggleCross() { p.cross, p.los = !p.cross, nil }

// moveInTable moves the cursor over the (filtered) rows of the table or
// the crosstable, the selected player following it; it returns the rows
// and whether the key moved it.
func (p *standingsPane) moveInTable(msg tea.KeyMsg) ([]protocol.StandingRow, bool) {
	rows := p.rows()
	p.follow(rows)
	if !p.list.move(msg, p.ctx.ListKeys, len(rows)) {
		return rows, false
	}
	if p.list.cursor < len(rows) {
		p.selected = rows[p.list.cursor].PlayerID
	}
	return rows, true
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

func (p *standingsPane) View() string { return p.screen().view() }

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
		rest -= visibleWidth(ratingHead) + visibleWidth(rankHead)
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
