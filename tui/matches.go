package tui

import (
	"fmt"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"

	"github.com/leaguetui/leaguetui/engine"
)

// matchesPane is the match flow: the running matches with their current
// step, then the last finished ones with their result, newest first.
type matchesPane struct {
	ctx     *programContext
	list    scroller
	width   int
	openKey key.Binding
}

func newMatchesPane(ctx *programContext) *matchesPane {
	return &matchesPane{ctx: ctx, openKey: key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "transcript"))}
}

func (p *matchesPane) Title() string { return "Matches" }

func (p *matchesPane) SetSize(width, height int) { p.width, p.list.height = width, height-1 }

func (p *matchesPane) Help() keyHelp {
	k := p.ctx.ListKeys
	return keyHelp{short: []key.Binding{k.Up, k.Down, p.openKey},
		full: [][]key.Binding{{k.Up, k.Down, k.PgUp, k.PgDown, k.Top, k.Bottom, p.openKey}}}
}

// flowRow is a line of the pane: a section title or a match.
type flowRow struct {
	title string
	match *matchInfo
}

// rows lists the running matches (one per referee slot) and the bounded
// list of recent results: the pane's cost does not grow with the league.
func (p *matchesPane) rows() []flowRow {
	st := p.ctx.State
	running, recent := st.Running(), st.Recent()
	rows := []flowRow{{title: fmt.Sprintf("Running (%d)", len(running))}}
	for _, m := range running {
		if p.ctx.matchPasses(m) {
			rows = append(rows, flowRow{match: m})
		}
	}
	done, _ := st.Progress()
	rows = append(rows, flowRow{title: fmt.Sprintf("Last finished (%d of %d)", len(recent), done)})
	for _, m := range recent {
		if p.ctx.matchPasses(m) {
			rows = append(rows, flowRow{match: m})
		}
	}
	return rows
}

func (p *matchesPane) Update(msg tea.KeyMsg) (tea.Cmd, bool) {
	rows := p.rows()
	if p.list.move(msg, p.ctx.ListKeys, len(rows)) {
		return nil, true
	}
	if key.Matches(msg, p.ctx.ListKeys.Open) && len(rows) > 0 {
		p.list.clamp(len(rows))
		if m := rows[p.list.cursor].match; m != nil {
			return openMatch(m.MatchID), true
		}
		return nil, true
	}
	return nil, false
}

func (p *matchesPane) View() string {
	rows := p.rows()
	s := p.ctx.Styles
	lines := []string{s.TableHead.Render(fit(" "+matchesHead(p.ctx, p.width), p.width))}
	from, to := p.list.window(len(rows))
	now := p.ctx.Now()
	for i := from; i < to; i++ {
		r := rows[i]
		if r.match == nil {
			lines = append(lines, p.ctx.row(s.PaneTitle.Render(r.title), i == p.list.cursor, p.width))
			continue
		}
		text := matchLine(p.ctx, r.match, p.width)
		if r.match.Result == nil && !r.match.Assigned.IsZero() {
			text += s.Dim.Render(" " + clock(now.Sub(r.match.Assigned)))
		}
		lines = append(lines, p.ctx.row(text, i == p.list.cursor, p.width))
	}
	if len(p.ctx.State.Rounds) == 0 {
		lines = append(lines, s.Dim.Render(" No match yet: the league has not started."))
	}
	return block(lines, p.width, p.list.height+1)
}

// resultStyle colours a result; the words already say it.
func resultStyle(s *styles, r engine.Result) lipgloss.Style {
	switch r.Status {
	case engine.StatusDraw:
		return s.Draw
	case engine.StatusTechnicalLoss:
		return s.Loss
	}
	return s.Win
}
