package tui

import (
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
)

// handleKeys splits runes typed faster than one read (Bubble Tea then
// sends "2jj" as one message) into keys, except into the filter, which
// takes text whole.
func (m *Model) handleKeys(msg tea.KeyMsg) tea.Cmd {
	if msg.Type != tea.KeyRunes || len(msg.Runes) < 2 || msg.Paste || m.filtering {
		return m.handleKey(msg)
	}
	var cmds []tea.Cmd
	for i, r := range msg.Runes {
		if m.quitting {
			break
		}
		if m.filtering { // "/p01" typed at once: the rest is the filter's
			rest := msg
			rest.Runes = msg.Runes[i:]
			cmds = append(cmds, m.handleKey(rest))
			break
		}
		one := msg
		one.Runes = []rune{r}
		cmds = append(cmds, m.handleKey(one))
	}
	return tea.Batch(cmds...)
}

// handleKey routes a key: quit now, the open question, the filter input,
// the transcript, the global keys, then the focused pane.
func (m *Model) handleKey(msg tea.KeyMsg) tea.Cmd {
	if key.Matches(msg, m.keys.ForceQ) {
		m.interrupted = true // Run returns ErrInterrupted: exit status 130, as --no-ui
		return m.quit()
	}
	if m.confirm != confirmNone {
		return m.answer(msg)
	}
	if m.filtering {
		return m.editFilter(msg)
	}
	// The help covers whatever is open: esc closes it first.
	if m.showHelp && key.Matches(msg, m.pc.ListKeys.Back, m.keys.Help) {
		m.showHelp = false
		return nil
	}
	if m.transcript != nil {
		if key.Matches(msg, m.pc.ListKeys.Back) {
			m.transcript = nil
			return nil
		}
		if !m.isGlobal(msg) {
			return m.transcript.Update(msg)
		}
	}
	if cmd, ok := m.globalKey(msg); ok {
		return cmd
	}
	cmd, used := m.panes[m.focus].Update(msg)
	if !used && key.Matches(msg, m.pc.ListKeys.Back) && m.pc.Filter != "" {
		m.setFilter("")
	}
	return cmd
}

// isGlobal reports keys that act whatever is open.
func (m *Model) isGlobal(msg tea.KeyMsg) bool {
	k := m.keys
	return key.Matches(msg, k.Start, k.Pause, k.Stop, k.Quit, k.Help, k.NextPane, k.PrevPane)
}

func (m *Model) globalKey(msg tea.KeyMsg) (tea.Cmd, bool) {
	k := m.keys
	switch {
	case key.Matches(msg, k.Start):
		return m.startOrResume(), true
	case key.Matches(msg, k.Pause):
		return m.pause(), true
	case key.Matches(msg, k.Stop):
		m.askStop()
		return nil, true
	case key.Matches(msg, k.NextPane):
		m.switchPane(1)
		return nil, true
	case key.Matches(msg, k.PrevPane):
		m.switchPane(-1)
		return nil, true
	case key.Matches(msg, k.Filter):
		m.filtering = true
		m.filter.SetValue(m.pc.Filter)
		m.filter.CursorEnd()
		return m.filter.Focus(), true
	case key.Matches(msg, k.Help):
		m.showHelp = !m.showHelp
		return nil, true
	case key.Matches(msg, k.Quit):
		if m.st.RunningCount() > 0 {
			m.confirm = confirmQuit
			return nil, true
		}
		return m.quit(), true
	}
	if s := msg.String(); len(s) == 1 && s[0] >= '1' && s[0] <= '0'+byte(len(m.panes)) {
		m.focus, m.transcript = int(s[0]-'1'), nil
		return nil, true
	}
	return nil, false
}

func (m *Model) switchPane(delta int) {
	m.transcript = nil
	m.focus = (m.focus + delta + len(m.panes)) % len(m.panes)
}

// startOrResume is s: start a waiting league, resume a paused one.
func (m *Model) startOrResume() tea.Cmd {
	switch m.st.DisplayState() {
	case stateWaiting:
		return m.admin(actionStart)
	case statePaused, statePausing:
		return m.admin(actionResume)
	case stateRunning:
		m.setFlash(false, "the league is already running (p pauses it)")
	default:
		m.setFlash(false, "the league is %s", m.st.DisplayState())
	}
	return nil
}

func (m *Model) pause() tea.Cmd {
	switch m.st.DisplayState() {
	case stateRunning:
		return m.admin(actionPause)
	case statePaused, statePausing:
		m.setFlash(false, "the league is already %s (s resumes it)", m.st.DisplayState())
	case stateWaiting:
		m.setFlash(false, "the league has not started (s starts it)")
	default:
		m.setFlash(false, "the league is %s", m.st.DisplayState())
	}
	return nil
}

func (m *Model) askStop() {
	switch m.st.DisplayState() {
	case stateRunning, statePausing, statePaused:
		m.confirm = confirmStop
	default:
		m.setFlash(false, "nothing to stop: the league is %s", m.st.DisplayState())
	}
}

// admin sends an admin command, or says why it cannot.
func (m *Model) admin(a adminAction) tea.Cmd {
	if m.opts.Control == nil {
		m.setFlash(true, "no manager to send %s to", a)
		return nil
	}
	if !m.opts.Control.HasAdminToken() {
		m.setFlash(true, "read-only: %s needs the league's admin token (LEAGUETUI_ADMIN_TOKEN or --admin-token-file)", a)
		return nil
	}
	m.setFlash(false, "sending %s…", a)
	return sendAdmin(m.ctx, m.opts.Control, a)
}

// answer handles y/n for the open question.
func (m *Model) answer(msg tea.KeyMsg) tea.Cmd {
	kind := m.confirm
	switch {
	case key.Matches(msg, m.yesNo.Yes):
		m.confirm = confirmNone
		if kind == confirmQuit {
			return m.quit()
		}
		return m.admin(actionStop)
	case key.Matches(msg, m.yesNo.No):
		m.confirm = confirmNone
		m.setFlash(false, "cancelled")
	}
	return nil
}

func (m *Model) quit() tea.Cmd {
	m.quitting = true
	return tea.Quit
}

// editFilter feeds the filter input; enter keeps the filter, esc clears it.
func (m *Model) editFilter(msg tea.KeyMsg) tea.Cmd {
	switch msg.Type {
	case tea.KeyEnter:
		m.filtering = false
		m.filter.Blur()
		return nil
	case tea.KeyEsc:
		m.filtering = false
		m.filter.Blur()
		m.setFilter("")
		return nil
	}
	var cmd tea.Cmd
	m.filter, cmd = m.filter.Update(msg)
	m.setFilter(m.filter.Value())
	return cmd
}

func (m *Model) setFilter(v string) {
	m.pc.Filter = strings.ToLower(strings.TrimSpace(v))
	if v == "" {
		m.filter.SetValue("")
	}
}
