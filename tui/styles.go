package tui

import (
	"os"

	"github.com/charmbracelet/bubbles/help"
	"github.com/charmbracelet/lipgloss"
)

// styles are every style of the console, in one place. Colour only ever
// repeats what a word or symbol already says, so a screen without colour
// (NO_COLOR, a dumb terminal, the golden tests) loses nothing.
type styles struct {
	noColor bool

	Title       lipgloss.Style // the league id in the header
	Label       lipgloss.Style // header labels
	Value       lipgloss.Style
	Dim         lipgloss.Style
	TabActive   lipgloss.Style
	TabInactive lipgloss.Style
	PaneTitle   lipgloss.Style
	Selected    lipgloss.Style // the cursor row
	TableHead   lipgloss.Style
	Confirm     lipgloss.Style
	Flash       lipgloss.Style
	FlashError  lipgloss.Style

	StateWaiting   lipgloss.Style
	StateRunning   lipgloss.Style
	StatePausing   lipgloss.Style
	StatePaused    lipgloss.Style
	StateCompleted lipgloss.Style
	StateStopped   lipgloss.Style

	Win  lipgloss.Style
	Draw lipgloss.Style
	Loss lipgloss.Style

	LevelInfo  lipgloss.Style
	LevelWarn  lipgloss.Style
	LevelError lipgloss.Style

	Help help.Styles
}

// noColorRequested reports NO_COLOR (https://no-color.org): set and not empty.
func noColorRequested() bool { return os.Getenv("NO_COLOR") != "" }

// newStyles builds the theme. With noColor every style keeps only bold,
// reverse and faint, which read as emphasis without colour.
func newStyles(noColor bool) *styles {
	s := &styles{noColor: noColor}
	c := func(fg string) lipgloss.Style {
		if noColor {
			return lipgloss.NewStyle()
		}
		return lipgloss.NewStyle().Foreground(lipgloss.Color(fg))
	}
	s.Title = c("212").Bold(true)
	s.Label = c("245")
	s.Value = lipgloss.NewStyle().Bold(true)
	s.Dim = c("241")
	s.TabActive = lipgloss.NewStyle().Bold(true).Reverse(true).Padding(0, 1)
	s.TabInactive = c("245").Padding(0, 1)
	s.PaneTitle = c("39").Bold(true)
	s.Selected = lipgloss.NewStyle().Reverse(true)
	s.TableHead = c("245").Bold(true)
	s.Confirm = c("214").Bold(true)
	s.Flash = c("42")
	s.FlashError = c("196").Bold(true)

	s.StateWaiting = c("245").Bold(true)
	s.StateRunning = c("42").Bold(true)
	s.StatePausing = c("214").Bold(true)
	s.StatePaused = c("214").Bold(true)
	s.StateCompleted = c("39").Bold(true)
	s.StateStopped = c("196").Bold(true)

	s.Win = c("42")
	s.Draw = c("245")
	s.Loss = c("196")

	s.LevelInfo = c("245")
	s.LevelWarn = c("214").Bold(true)
	s.LevelError = c("196").Bold(true)

	s.Help = help.New().Styles
	if noColor {
		plain := lipgloss.NewStyle()
		s.Help = help.Styles{Ellipsis: plain, ShortKey: plain.Bold(true), ShortDesc: plain, ShortSeparator: plain,
			FullKey: plain.Bold(true), FullDesc: plain, FullSeparator: plain}
	}
	return s
}

// stateLabel is a league state as symbol and word, so it reads without colour.
func (s *styles) stateLabel(state string) string {
	switch state {
	case stateRunning:
		return s.StateRunning.Render("▶ running")
	case statePausing:
		return s.StatePausing.Render("◔ pausing")
	case statePaused:
		return s.StatePaused.Render("‖ paused")
	case stateCompleted:
		return s.StateCompleted.Render("✓ completed")
	case stateStopped:
		return s.StateStopped.Render("■ stopped")
	}
	return s.StateWaiting.Render("○ waiting")
}

// level renders a log level as its word.
func (s *styles) level(l logLevel) string {
	switch l {
	case levelWarn:
		return s.LevelWarn.Render("WARN ")
	case levelError:
		return s.LevelError.Render("ERROR")
	}
	return s.LevelInfo.Render("INFO ")
}
