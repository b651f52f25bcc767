package tui

import (
	"context"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/leaguetui/leaguetui/agents/protocol"
	"github.com/leaguetui/leaguetui/league/control"
)

// Timing of the console's background work.
const (
	frameEvery     = 33 * time.Millisecond // at most ~30 redraws a second
	clockEvery     = time.Second           // elapsed time and "seen 3s ago"
	feedWait       = 10 * time.Second      // long poll of the event feed
	feedRetry      = time.Second           // after a failed poll
	adminTimeout   = 10 * time.Second
	healthTimeout  = 2 * time.Second
	healthParallel = 16
	defaultHealth  = 3 * time.Second
)

// feedMsg is one page of the manager's event feed, or why none came.
type feedMsg struct {
	Page protocol.FeedPage
	Err  error
}

// pollFeed long-polls the feed after cursor. The root model re-issues it
// on each answer, so the feed is a loop of commands, never a goroutine of
// ours writing into the model.
func pollFeed(ctx context.Context, c *control.Client, cursor int64) tea.Cmd {
	return func() tea.Msg {
		page, err := c.Events(ctx, cursor, feedWait)
		return feedMsg{Page: page, Err: err}
	}
}

// feedRetryMsg says it is time to poll the feed again after a failure.
type feedRetryMsg struct{}

// standingsMsg is the manager's standings document.
type standingsMsg struct {
	Doc protocol.StandingsFile
	Err error
}

func fetchStandings(ctx context.Context, c *control.Client) tea.Cmd {
	return func() tea.Msg {
		doc, err := c.Standings(ctx)
		return standingsMsg{Doc: doc, Err: err}
	}
}

// adminAction is an admin command the console sends.
type adminAction string

const (
	actionStart  adminAction = "start"
	actionPause  adminAction = "pause"
	actionResume adminAction = "resume"
	actionStop   adminAction = "stop"
)

// adminMsg is the manager's answer to an admin command.
type adminMsg struct {
	Action adminAction
	Err    error
}

func sendAdmin(ctx context.Context, c *control.Client, a adminAction) tea.Cmd {
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(ctx, adminTimeout)
		defer cancel()
		var err error
		switch a {
		case actionStart:
			err = c.Start(ctx)
		case actionPause:
			err = c.Pause(ctx)
		case actionResume:
			err = c.Resume(ctx)
		case actionStop:
			err = c.Stop(ctx)
		}
		return adminMsg{Action: a, Err: err}
	}
}

// healthMsg carries the /health answers of the agents.
type healthMsg struct{ Probes []control.Probe }

// healthTickMsg says it is time to probe the agents again.
type healthTickMsg struct{}

func probeAgents(ctx context.Context, endpoints []string) tea.Cmd {
	return func() tea.Msg {
		return healthMsg{Probes: control.ProbeAgents(ctx, endpoints, healthParallel, healthTimeout)}
	}
}

// frameMsg is the redraw tick; clockMsg the once-a-second tick.
type (
	frameMsg struct{}
	clockMsg struct{}
)

func frameTick() tea.Cmd { return tea.Tick(frameEvery, func(time.Time) tea.Msg { return frameMsg{} }) }
func clockTick() tea.Cmd { return tea.Tick(clockEvery, func(time.Time) tea.Msg { return clockMsg{} }) }

func after(d time.Duration, msg tea.Msg) tea.Cmd {
	return tea.Tick(d, func(time.Time) tea.Msg { return msg })
}
