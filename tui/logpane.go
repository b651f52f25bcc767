package tui

import (
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
)

// logPane shows the console's log: the league's milestones, and the
// warnings and errors (timeouts, reassignments, technical losses, failed
// requests) that would otherwise be printed over the screen. It follows
// the newest line until the cursor moves up.
type logPane struct {
	ctx      *programContext
	list     scroller
	width    int
	height   int
	follow   bool
	problems bool // warnings and errors only
	keyLevel key.Binding
}

func newLogPane(ctx *programContext) *logPane {
	return &logPane{ctx: ctx, follow: true,
		keyLevel: key.NewBinding(key.WithKeys("w"), key.WithHelp("w", "warnings only"))}
}

func (p *logPane) Title() string {
	st := p.ctx.State
	if n := st.warnings + st.errors; n > 0 {
		return "Log " + itoa(n) + "!"
	}
	return "Log"
}

func (p *logPane) SetSize(width, height int) {
	p.width, p.height, p.list.height = width, height, height
}

func (p *logPane) Help() keyHelp {
	k := p.ctx.ListKeys
	return keyHelp{short: []key.Binding{k.Up, k.Down, p.keyLevel},
		full: [][]key.Binding{{k.Up, k.Down, k.PgUp, k.PgDown, k.Top, k.Bottom}, {p.keyLevel}}}
}

// entries are the entries shown. Copying the bounded ring is O(logCap).
func (p *logPane) entries() []logEntry {
	all := p.ctx.State.Logs()
	if !p.problems {
		return all
	}
	out := all[:0:0]
	for _, e := range all {
		if e.Level > levelInfo {
			out = append(out, e)
		}
	}
	return out
}

func (p *logPane) Update(msg tea.KeyMsg) (tea.Cmd, bool) {
	if key.Matches(msg, p.keyLevel) {
		p.problems = !p.problems
		p.follow = true
		return nil, true
	}
	n := len(p.entries())
	if !p.list.move(msg, p.ctx.ListKeys, n) {
		return nil, false
	}
	p.follow = p.list.cursor >= n-1
	return nil, true
}

func (p *logPane) View() string {
	entries := p.entries()
	if p.follow {
		p.list.cursor = len(entries) - 1
	}
	// A line cut at the pane's edge is shown whole, wrapped, below the
	// list, which keeps three rows; only a line longer than the rest of
	// the pane is cut, and the log file has it whole.
	var detail []string
	if c := p.list.cursor; c >= 0 && c < len(entries) && visibleWidth(p.line(entries[c]))+1 > p.width {
		wrapped := lipgloss.NewStyle().Width(max(p.width-2, 10)).Render(entries[c].Text)
		detail = strings.Split(wrapped, "\n")
		detail = detail[:min(len(detail), max(p.height-4, 1))]
	}
	p.list.height = max(p.height-len(detail)-1, 1)
	if len(detail) == 0 {
		p.list.height = p.height
	}
	list := p.render(entries, true)
	if len(detail) == 0 {
		return list
	}
	lines := []string{p.ctx.Styles.Dim.Render(rule("─ selected ", p.width))}
	for _, d := range detail {
		lines = append(lines, " "+d)
	}
	return list + "\n" + block(lines, p.width, len(lines))
}

// tail draws the newest lines without a cursor, for the wide layout.
func (p *logPane) tail(width, height int) string {
	entries := p.ctx.State.Logs()
	if len(entries) > height {
		entries = entries[len(entries)-height:]
	}
	lines := make([]string, 0, height)
	for _, e := range entries {
		lines = append(lines, " "+p.line(e))
	}
	return block(lines, width, height)
}

func (p *logPane) render(entries []logEntry, cursor bool) string {
	if len(entries) == 0 {
		return block([]string{p.ctx.Styles.Dim.Render(" Nothing logged yet.")}, p.width, p.list.height)
	}
	from, to := p.list.window(len(entries))
	lines := make([]string, 0, to-from)
	for i := from; i < to; i++ {
		lines = append(lines, p.ctx.row(p.line(entries[i]), cursor && i == p.list.cursor, p.width))
	}
	return block(lines, p.width, p.list.height)
}

func (p *logPane) line(e logEntry) string {
	return p.ctx.Styles.Dim.Render(e.Time.In(p.ctx.location()).Format("15:04:05")) + " " + p.ctx.Styles.level(e.Level) + " " + e.Text
}
