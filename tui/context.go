package tui

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"

	"github.com/leaguetui/leaguetui/engine"
)

// programContext is what every component shares: the theme, the window
// size, the clock, the player filter and the league state. Components keep
// a pointer to it, as gh-dash's do, so a resize or a new filter reaches all
// of them at once.
type programContext struct {
	Width, Height int
	Styles        *styles
	Now           func() time.Time
	State         *leagueState
	ListKeys      listKeys
	Filter        string // lower-cased player filter; "" shows everyone
	Children      func() []ChildInfo
	Location      *time.Location // where times are shown
	// Season reads the table of the league's season (--season); nil
	// without one.
	Season func() ([]engine.SeasonRow, error)
	// Unreachable: the manager's feed does not answer (yet); what the
	// console knows of the league may be stale or nothing at all.
	Unreachable bool
}

// location is the zone times are shown in.
func (c *programContext) location() *time.Location {
	if c.Location == nil {
		return time.Local
	}
	return c.Location
}

// matchesFilter reports whether a player passes the filter.
func (c *programContext) matchesFilter(playerID string) bool {
	if c.Filter == "" {
		return true
	}
	if strings.Contains(strings.ToLower(playerID), c.Filter) {
		return true
	}
	if a := c.State.Agent(playerID); a != nil {
		return strings.Contains(strings.ToLower(a.DisplayName), c.Filter)
	}
	return false
}

// matchPasses reports whether either player of a match passes the filter.
func (c *programContext) matchPasses(m *matchInfo) bool {
	return c.matchesFilter(m.PlayerA) || c.matchesFilter(m.PlayerB)
}

// pane is one view of the league the root model can focus. Each pane owns
// its keys, its help and its size, and draws only the rows that fit.
type pane interface {
	Title() string
	SetSize(width, height int)
	// Update handles a key when the pane has focus; it returns a command
	// (such as opening a match) and whether it used the key.
	Update(msg tea.KeyMsg) (tea.Cmd, bool)
	View() string
	Help() keyHelp
}

// openMatchMsg asks the root model to open a match's transcript.
type openMatchMsg struct{ MatchID string }

func openMatch(id string) tea.Cmd {
	return func() tea.Msg { return openMatchMsg{MatchID: id} }
}

// scroller keeps a cursor and the first visible row of a list, so a list of
// 20,000 rows draws only the rows that fit.
type scroller struct {
	cursor, offset int
	height         int // visible rows
}

// move handles the list keys for a list of n rows; it reports whether the
// key was one of them.
func (s *scroller) move(msg tea.KeyMsg, keys listKeys, n int) bool {
	page := max(s.height-1, 1)
	switch {
	case key.Matches(msg, keys.Up):
		s.cursor--
	case key.Matches(msg, keys.Down):
		s.cursor++
	case key.Matches(msg, keys.PgUp):
		s.cursor -= page
	case key.Matches(msg, keys.PgDown):
		s.cursor += page
	case key.Matches(msg, keys.Top):
		s.cursor = 0
	case key.Matches(msg, keys.Bottom):
		s.cursor = n - 1
	default:
		return false
	}
	s.clamp(n)
	return true
}

// clamp keeps the cursor on a row and the cursor's row visible.
func (s *scroller) clamp(n int) {
	s.cursor = min(max(s.cursor, 0), max(n-1, 0))
	h := max(s.height, 1)
	if s.cursor < s.offset {
		s.offset = s.cursor
	}
	if s.cursor >= s.offset+h {
		s.offset = s.cursor - h + 1
	}
	s.offset = min(max(s.offset, 0), max(n-h, 0))
}

// window is the range of rows to draw.
func (s *scroller) window(n int) (from, to int) {
	s.clamp(n)
	return s.offset, min(s.offset+max(s.height, 1), n)
}

// cursorMark is the first column of a row: a marker on the cursor's row, so
// the cursor shows without colour or reverse video too.
func cursorMark(selected bool) string {
	if selected {
		return "›"
	}
	return " "
}

// fit cuts or pads a line to exactly width cells.
func fit(s string, width int) string {
	if width <= 0 {
		return ""
	}
	w := lipgloss.Width(s)
	if w > width {
		return ansi.Truncate(s, width, "…")
	}
	return s + strings.Repeat(" ", width-w)
}

// block makes lines into exactly height lines of exactly width cells.
func block(lines []string, width, height int) string {
	out := make([]string, height)
	for i := range out {
		if i < len(lines) {
			out[i] = fit(lines[i], width)
		} else {
			out[i] = strings.Repeat(" ", max(width, 0))
		}
	}
	return strings.Join(out, "\n")
}

// row renders a selectable row: marker, text, reverse video when selected.
func (c *programContext) row(text string, selected bool, width int) string {
	line := fit(cursorMark(selected)+text, width)
	if selected { // plain inside: inner colours would end the reverse video early
		return c.Styles.Selected.Render(ansi.Strip(line))
	}
	return line
}

// clock formats a duration as h:mm:ss or m:ss.
func clock(d time.Duration) string {
	d = d.Round(time.Second)
	h, m, s := int(d.Hours()), int(d.Minutes())%60, int(d.Seconds())%60
	if h > 0 {
		return fmt.Sprintf("%d:%02d:%02d", h, m, s)
	}
	return fmt.Sprintf("%d:%02d", m, s)
}

// rounded is a duration to the precision a reader takes in: whole
// milliseconds under a second (413ms), tenths of a second under a minute
// (2.4s), whole seconds beyond (1m23s).
func rounded(d time.Duration) time.Duration {
	switch {
	case d < time.Second:
		return d.Round(time.Millisecond)
	case d < time.Minute:
		return d.Round(100 * time.Millisecond)
	}
	return d.Round(time.Second)
}

// visibleWidth is the width of s in cells, escape codes left out.
func visibleWidth(s string) int { return lipgloss.Width(s) }

func itoa(n int) string { return strconv.Itoa(n) }

// ago says how long ago t was: "3s ago", "never".
func ago(now, t time.Time) string {
	if t.IsZero() {
		return "never"
	}
	d := now.Sub(t)
	switch {
	case d < time.Second:
		return "now"
	case d < time.Minute:
		return fmt.Sprintf("%ds ago", int(d.Seconds()))
	case d < time.Hour:
		return fmt.Sprintf("%dm ago", int(d.Minutes()))
	}
	return fmt.Sprintf("%dh ago", int(d.Hours()))
}
