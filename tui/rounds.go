package tui

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/leaguetui/leaguetui/engine"
)

// roundsPane lists the rounds, each with its progress; the current round
// is expanded to its matches, and enter expands or folds any other.
type roundsPane struct {
	ctx     *programContext
	list    scroller
	width   int
	toggled map[int]bool // rounds whose expansion the user flipped
	openKey key.Binding
	// moved: the user has moved the cursor; until then it follows the
	// current round, so the round being played is always on screen.
	moved bool
}

func newRoundsPane(ctx *programContext) *roundsPane {
	return &roundsPane{ctx: ctx, toggled: map[int]bool{},
		openKey: key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "expand / open match"))}
}

func (p *roundsPane) Title() string { return "Rounds" }

func (p *roundsPane) SetSize(width, height int) { p.width, p.list.height = width, height-1 }

// roundRow is one line of the pane: a round, or a match of an expanded round.
type roundRow struct {
	round    *roundInfo
	match    *matchInfo // nil for the round's own line
	expanded bool
}

// expanded reports whether a round shows its matches: the current round
// does unless folded, others do when unfolded.
func (p *roundsPane) expanded(r *roundInfo, current int) bool {
	return (r.Number == current) != p.toggled[r.Number]
}

// rows lists the lines: O(rounds + matches of expanded rounds).
func (p *roundsPane) rows() []roundRow {
	var rows []roundRow
	current := p.ctx.State.CurrentRound()
	for _, r := range p.ctx.State.Rounds {
		rows = append(rows, roundRow{round: r, expanded: p.expanded(r, current)})
		if !rows[len(rows)-1].expanded {
			continue
		}
		for _, m := range r.Matches {
			if p.ctx.matchPasses(m) {
				rows = append(rows, roundRow{round: r, match: m})
			}
		}
	}
	return rows
}

// followCurrent puts the cursor on the current round's line until the
// user moves it.
func (p *roundsPane) followCurrent(rows []roundRow) {
	current := p.ctx.State.CurrentRound()
	if p.moved || current == 0 {
		return
	}
	for i, r := range rows {
		if r.match == nil && r.round.Number == current {
			p.list.cursor = i
			return
		}
	}
}

func (p *roundsPane) Update(msg tea.KeyMsg) (tea.Cmd, bool) {
	rows := p.rows()
	p.followCurrent(rows)
	if p.list.move(msg, p.ctx.ListKeys, len(rows)) {
		p.moved = true
		return nil, true
	}
	if !key.Matches(msg, p.ctx.ListKeys.Open) || len(rows) == 0 {
		return nil, false
	}
	p.list.clamp(len(rows))
	row := rows[p.list.cursor]
	if row.match != nil {
		return openMatch(row.match.MatchID), true
	}
	p.toggled[row.round.Number] = !p.toggled[row.round.Number]
	return nil, true
}

func (p *roundsPane) Help() keyHelp {
	k := p.ctx.ListKeys
	return keyHelp{short: []key.Binding{k.Up, k.Down, p.openKey},
		full: [][]key.Binding{{k.Up, k.Down, k.PgUp, k.PgDown, k.Top, k.Bottom, p.openKey}}}
}

func (p *roundsPane) View() string {
	st := p.ctx.State
	if len(st.Rounds) == 0 {
		return block([]string{p.ctx.Styles.Dim.Render(" The schedule appears when the league starts (press s).")}, p.width, p.list.height+1)
	}
	rows := p.rows()
	p.followCurrent(rows)
	pw := playersWidth(p.ctx, p.width-4)
	head := p.ctx.Styles.TableHead.Render(fit(fmt.Sprintf(" round / match    %-*s referee  state", pw-5, "players"), p.width))
	lines := []string{head}
	from, to := p.list.window(len(rows))
	for i := from; i < to; i++ {
		lines = append(lines, p.ctx.row(p.rowText(rows[i]), i == p.list.cursor, p.width))
	}
	return block(lines, p.width, p.list.height+1)
}

func (p *roundsPane) rowText(r roundRow) string {
	if r.match != nil {
		return "   " + matchLine(p.ctx, r.match, p.width-4)
	}
	ri := r.round
	fold := "▸"
	if r.expanded {
		fold = "▾"
	}
	return fmt.Sprintf("%s Round %-3d %s", fold, ri.Number, roundStatus(ri))
}

// roundStatus is a round's state in words and counts.
func roundStatus(r *roundInfo) string {
	n := len(r.Matches)
	switch {
	case r.Done == n:
		return fmt.Sprintf("✓ done       %d/%d", r.Done, n)
	case r.Running > 0 || r.Done > 0:
		return fmt.Sprintf("▶ playing    %d/%d, %d running", r.Done, n, r.Running)
	case r.Announced:
		return fmt.Sprintf("· announced  %d/%d", r.Done, n)
	}
	return fmt.Sprintf("· pending    %d/%d", r.Done, n)
}

// matchLine is one match in a line of width cells: id, players, referee
// and state. Players a roster named show as "P01 alice vs P02 bob", the
// players' column taking the room the line has (20 to 40 cells), each name
// cut to its half of it.
func matchLine(ctx *programContext, m *matchInfo, width int) string {
	ref := m.Referee
	if ref == "" {
		ref = "-"
	}
	pw := playersWidth(ctx, width)
	players := truncate(m.PlayerA+" vs "+m.PlayerB, pw)
	if ctx.named() {
		side := (pw - 4) / 2
		players = ctx.who(m.PlayerA, side) + " vs " + ctx.who(m.PlayerB, pw-4-side)
	}
	return fmt.Sprintf("%-7s %s %-7s  %s", m.MatchID, padRight(players, pw), truncate(ref, 7), matchState(ctx, m))
}

// playersWidth is the players' column of matchLine on a line of width
// cells: 20, or with a roster's names what is left beside the match id,
// the referee and 16 cells of state, up to 40.
func playersWidth(ctx *programContext, width int) int {
	if !ctx.named() {
		return 20
	}
	return min(max(width-1-8-1-9-16, 20), 40)
}

// matchesHead is the heading of matchLine's columns.
func matchesHead(ctx *programContext, width int) string {
	return fmt.Sprintf("match   %-*s referee  step / result", playersWidth(ctx, width), "players")
}

// matchState says where a match is, with a symbol and words.
func matchState(ctx *programContext, m *matchInfo) string {
	s := ctx.Styles
	switch {
	case m.Result != nil:
		return resultStyle(s, *m.Result).Render("✓ " + describeResult(*m.Result))
	case m.Abandoned:
		return s.Loss.Render("✗ abandoned")
	case m.Referee != "" && m.StepDetail != "" && turnStep(m.Step):
		return s.StateRunning.Render("▶ " + m.Step + ": " + m.StepDetail) // where each player stands
	case m.Referee != "":
		return s.StateRunning.Render("▶ " + m.Step)
	}
	return s.Dim.Render("· pending")
}

// turnStep tells the steps that begin a turn ("choosing", "turn N") from
// the others: their detail is where the game stands.
func turnStep(step string) bool {
	return step == engine.TurnStep(1) || strings.HasPrefix(step, "turn ")
}

// truncate cuts s to n cells with an ellipsis.
func truncate(s string, n int) string {
	if visibleWidth(s) <= n {
		return s
	}
	return fit(s, n)
}
