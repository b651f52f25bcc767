package tui

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/lipgloss"

	"github.com/leaguetui/leaguetui/league/control"
)

// flashFor is how long a message stays on the status line.
const flashFor = 5 * time.Second

// plural is "1 player", "2 players".
var plural = control.Plural

// Wide layout: from this size the focused pane shares the screen with a
// companion pane and the log's tail.
const (
	wideWidth  = 120
	wideHeight = 32
	logTail    = 6
)

// View returns the last drawn screen.
func (m *Model) View() string {
	if m.quitting {
		return ""
	}
	return m.frame
}

// render draws the whole screen into the cache.
func (m *Model) render() {
	m.dirty = false
	m.renders++
	w, h := m.pc.Width, m.pc.Height
	if w <= 0 || h <= 0 {
		m.frame = "leaguetui: starting…"
		return
	}
	m.header.SetSize(w, h)
	bodyH := max(h-headerHeight-3, 1)
	parts := []string{m.header.View(), m.tabsView(w), m.bodyView(w, bodyH), m.statusView(w), m.helpView(w)}
	m.frame = strings.Join(parts, "\n")
}

// screen draws and returns the screen (for tests).
func (m *Model) screen() string {
	m.render()
	return m.frame
}

func (m *Model) tabsView(width int) string {
	s := m.pc.Styles
	tabs := make([]string, len(m.panes))
	for i, p := range m.panes {
		if i == m.focus {
			tabs[i] = s.TabActive.Render("[" + strconv.Itoa(i+1) + " " + p.Title() + "]")
		} else {
			tabs[i] = s.TabInactive.Render(" " + strconv.Itoa(i+1) + " " + p.Title() + " ")
		}
	}
	left := strings.Join(tabs, "")
	right := ""
	if m.pc.Filter != "" {
		right = s.Label.Render("filter ") + s.Value.Render(m.pc.Filter)
	}
	return fit(spread(left, right, width), width)
}

func (m *Model) bodyView(w, h int) string {
	switch {
	case m.showHelp:
		return m.fullHelpView(w, h)
	case m.transcript != nil:
		m.transcript.SetSize(w, h)
		return m.transcript.View()
	case w >= wideWidth && h >= wideHeight:
		return m.wideBody(w, h)
	}
	p := m.panes[m.focus]
	p.SetSize(w, h)
	return p.View()
}

// wideBody puts the focused pane beside a companion (the standings, or the
// match flow when the standings have focus) above the log's tail.
func (m *Model) wideBody(w, h int) string {
	s := m.pc.Styles
	mainH := h
	var tail string
	if m.focus != paneLog {
		mainH = h - logTail - 1
		tail = "\n" + s.PaneTitle.Render(rule("─ Log ", w)) + "\n" + m.logPane.tail(w, logTail)
	}
	leftW := w * 11 / 20
	rightW := w - leftW - 1
	companion := paneStandings
	if m.focus == paneStandings {
		companion = paneMatches
	}
	left := m.titled(m.panes[m.focus], leftW, mainH, true)
	right := m.titled(m.panes[companion], rightW, mainH, false)
	sep := strings.TrimSuffix(strings.Repeat("│\n", mainH), "\n")
	return lipgloss.JoinHorizontal(lipgloss.Top, left, s.Dim.Render(sep), right) + tail
}

func (m *Model) titled(p pane, w, h int, focused bool) string {
	s := m.pc.Styles
	title := "─ " + p.Title() + " "
	if focused {
		title = "━ " + p.Title() + " (focus) "
	}
	p.SetSize(w, h-1)
	return s.PaneTitle.Render(rule(title, w)) + "\n" + p.View()
}

// rule is a title followed by a line to exactly width cells.
func rule(title string, width int) string {
	if w := visibleWidth(title); w < width {
		return title + strings.Repeat("─", width-w)
	}
	return fit(title, width)
}

// statusView is the line above the help: a question, the filter being
// typed, the last message, or a hint.
func (m *Model) statusView(w int) string {
	s := m.pc.Styles
	switch {
	case m.confirm == confirmStop:
		return fit(s.Confirm.Render(fmt.Sprintf("Stop the league? Running matches (%d) are abandoned. [y/n]", m.st.RunningCount())), w)
	case m.confirm == confirmQuit:
		return fit(s.Confirm.Render(m.quitQuestion()+" [y/n]"), w)
	case m.filtering:
		return fit(m.filter.View()+s.Dim.Render("  enter keep · esc clear"), w)
	case m.flash != "":
		style := s.Flash
		if m.flashErr {
			style = s.FlashError
		}
		return fit(style.Render(m.flash), w)
	case m.feedDown:
		return fit(s.FlashError.Render("manager unreachable: retrying…"), w)
	case m.st.DisplayState() == stateWaiting:
		how := "press s to start"
		if m.readOnly() {
			how = "read-only (no admin token): the league's admin starts it"
		}
		if m.opts.Joining != nil {
			how = m.opts.Joining() + " · s starts now"
		}
		return fit(s.Dim.Render(fmt.Sprintf("%s and %s registered · %s",
			plural(len(m.st.Players()), "player"), plural(len(m.st.Referees()), "referee"), how)), w)
	}
	return fit("", w)
}

// quitQuestion asks before quitting; it counts the running matches only
// while there are some (the league may end while the question is open).
func (m *Model) quitQuestion() string {
	what := "Quit and stop the agents this console started?"
	if m.opts.Attached || m.opts.Children == nil {
		what = "Quit the console? The league goes on without it."
	}
	if n := m.st.RunningCount(); n > 0 {
		return fmt.Sprintf("%s running. %s", plural(n, "match"), what)
	}
	return what
}

// readOnly: this console watches a manager without its admin token.
func (m *Model) readOnly() bool {
	return m.opts.Control != nil && !m.opts.Control.HasAdminToken()
}

// leagueKeys are the keys that change the league, those its state and
// this console's rights allow: none when read-only or once it has ended.
func (m *Model) leagueKeys() []key.Binding {
	g := m.keys
	if m.readOnly() {
		return nil
	}
	switch m.st.DisplayState() {
	case stateWaiting:
		return []key.Binding{g.Start}
	case stateRunning:
		return []key.Binding{g.Pause, g.Stop}
	case statePausing, statePaused:
		return []key.Binding{g.Start, g.Stop}
	}
	return nil
}

func (m *Model) helpView(w int) string {
	g := m.keys
	short := append(m.leagueKeys(), g.NextPane, g.Filter, g.Quit, g.Help)
	if m.confirm != confirmNone {
		short = []key.Binding{m.yesNo.Yes, m.yesNo.No}
	} else if m.transcript != nil {
		short = append(m.transcript.Help().short, g.Quit)
	}
	m.help.ShowAll = false
	return fit(m.help.ShortHelpView(short), w)
}

// helpColumns lays the groups of keys out side by side, starting a new
// band below when the next group would not fit the width, so that no key
// is cut off on a narrow terminal.
func (m *Model) helpColumns(groups [][]key.Binding, w int) []string {
	width := m.help.Width
	m.help.Width = 0 // measured whole: the help model would cut it with "…"
	defer func() { m.help.Width = width }()
	var lines []string
	var band [][]key.Binding
	flush := func() {
		if len(band) > 0 {
			if len(lines) > 0 {
				lines = append(lines, "")
			}
			lines = append(lines, strings.Split(m.help.FullHelpView(band), "\n")...)
			band = nil
		}
	}
	for _, g := range groups {
		if len(band) > 0 && visibleWidth(m.help.FullHelpView(append(band, g))) > w {
			flush()
		}
		band = append(band, g)
	}
	flush()
	return lines
}

// fullHelpView is the ? screen: every key, global and the focused pane's.
func (m *Model) fullHelpView(w, h int) string {
	g := m.keys
	groups := [][]key.Binding{
		{g.Start, g.Pause, g.Stop, g.Quit, g.ForceQ},
		{g.NextPane, g.PrevPane, g.Filter, g.Help, m.pc.ListKeys.Open, m.pc.ListKeys.Back},
	}
	var paneHelp keyHelp
	if m.transcript != nil {
		paneHelp = m.transcript.Help()
	} else {
		paneHelp = m.panes[m.focus].Help()
	}
	groups = append(groups, paneHelp.full...)
	var lines []string
	if len(m.opts.Info) > 0 {
		lines = append(lines, m.pc.Styles.PaneTitle.Render("League"), "")
		lines = append(lines, m.opts.Info...)
		lines = append(lines, "")
	}
	title := m.pc.Styles.PaneTitle.Render("Keys (? or esc closes)")
	lines = append(append(lines, title, ""), m.helpColumns(groups, w)...)
	lines = append(lines, "", m.pc.Styles.Dim.Render(fmt.Sprintf("1-%d jump to a pane · states read as words and symbols, colour is only a repeat", len(m.panes))))
	return block(lines, w, h)
}
