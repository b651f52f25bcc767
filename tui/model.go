package tui

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/charmbracelet/bubbles/cursor"
	"github.com/charmbracelet/bubbles/help"
	"github.com/charmbracelet/bubbles/textinput"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/leaguetui/leaguetui/engine"
)

// Pane indexes, in tab order.
const (
	paneRounds = iota
	paneMatches
	paneStandings
	paneAgents
	paneLog
)

// confirmKind is the question the console is waiting on, if any.
type confirmKind int

const (
	confirmNone confirmKind = iota
	confirmStop
	confirmQuit
)

// Model is the console's root model. It owns the league state, routes keys
// to the global bindings, the open dialog or the focused pane, runs the
// feed, standings, admin and health commands, and caches the drawn screen:
// feed events only mark it dirty, and it is redrawn on the next frame tick,
// so however fast events come the screen is drawn at most ~30 times a
// second, while a key redraws at once.
type Model struct {
	ctx   context.Context
	opts  Options
	pc    *programContext
	st    *leagueState
	keys  globalKeys
	yesNo confirmKeys

	header     header
	panes      []pane
	focus      int
	logPane    *logPane
	transcript *transcriptView
	help       help.Model
	showHelp   bool
	filter     textinput.Model
	filtering  bool

	confirm  confirmKind
	flash    string
	flashErr bool
	flashAt  time.Time
	flashSeq int // counts messages, so an expiry clears only its own
	flashSet int // the last message whose expiry is scheduled

	cursor       int64 // the feed's cursor: last sequence number read
	feedDown     bool
	storageShown bool // the manager's storage failure is in the log
	// managerExitShown: the log says the manager the console started exited
	managerExitShown bool
	healthEvery      time.Duration
	healthBusy       bool
	dirty            bool
	framePending     bool
	frame            string
	renders          int // how many times the screen was drawn (tests read it)
	quitting         bool
	interrupted      bool // left with Ctrl-C
}

// New builds the root model. ctx bounds every request the console makes.
func New(ctx context.Context, opts Options) *Model {
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.FlashFor == 0 {
		opts.FlashFor = flashFor
	}
	if opts.Location == nil {
		opts.Location = time.Local
	}
	if opts.Scoring == (engine.Scoring{}) {
		opts.Scoring = engine.DefaultScoring()
	}
	st := newLeagueState(opts.Scoring)
	st.Seed = opts.Seed
	st.logger = opts.Logger
	if opts.Control != nil {
		st.ManagerURL = opts.Control.Base()
		st.manager.Endpoint = opts.Control.Base() + "/mcp"
	}
	pc := &programContext{Styles: newStyles(opts.NoColor || noColorRequested()), Now: opts.Now, State: st,
		ListKeys: newListKeys(), Children: opts.Children, Location: opts.Location, Season: opts.Season}
	m := &Model{ctx: ctx, opts: opts, pc: pc, st: st, keys: newGlobalKeys(), yesNo: newConfirmKeys()}
	m.header = header{ctx: pc, mode: "local"}
	if opts.Attached {
		m.header.mode = "attached"
	}
	m.logPane = newLogPane(pc)
	m.panes = []pane{newRoundsPane(pc), newMatchesPane(pc), newStandingsPane(pc), newAgentsPane(pc), m.logPane}
	m.focus = paneStandings
	m.help = help.New()
	m.help.Styles = pc.Styles.Help
	m.filter = textinput.New()
	m.filter.Prompt = "/"
	m.filter.Placeholder = "player id or name"
	m.filter.Cursor.SetMode(cursor.CursorStatic)
	if opts.Notice != "" {
		st.Log(opts.Now(), levelInfo, "%s", opts.Notice)
		m.setFlash(false, "%s", opts.Notice)
	}
	m.healthEvery = opts.HealthEvery
	if m.healthEvery == 0 {
		m.healthEvery = defaultHealth
	}
	m.render()
	return m
}

// Init starts the feed loop, the first standings read, the clock and the
// agents' health probes.
func (m *Model) Init() tea.Cmd {
	cmds := []tea.Cmd{clockTick()}
	if c := m.opts.Control; c != nil {
		cmds = append(cmds, fetchStandings(m.ctx, c), pollFeed(m.ctx, c, 0))
		if m.healthEvery > 0 {
			cmds = append(cmds, func() tea.Msg { return healthTickMsg{} })
		}
	}
	return tea.Batch(cmds...)
}

// Update routes one message. Keys and resizes redraw at once; everything
// else marks the screen dirty for the next frame tick.
func (m *Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.pc.Width, m.pc.Height = msg.Width, msg.Height
		m.help.Width = msg.Width
		m.render()
		return m, nil
	case tea.KeyMsg:
		cmd := m.handleKeys(msg)
		if !m.quitting {
			m.render()
		}
		return m, tea.Batch(cmd, m.expireFlash())
	case flashExpiredMsg:
		if int(msg) == m.flashSeq {
			m.flash = ""
			m.render()
		}
		return m, nil
	case frameMsg:
		m.framePending = false
		if m.dirty {
			m.render()
		}
		return m, nil
	case clockMsg:
		return m, tea.Batch(clockTick(), m.markDirty())
	}
	return m, tea.Batch(m.handleData(msg), m.markDirty(), m.expireFlash())
}

// flashExpiredMsg says a status message has been shown long enough.
type flashExpiredMsg int

// expireFlash schedules the clearing of a new status message.
func (m *Model) expireFlash() tea.Cmd {
	if m.flash == "" || m.flashSet == m.flashSeq {
		return nil
	}
	m.flashSet = m.flashSeq
	return after(m.opts.FlashFor, flashExpiredMsg(m.flashSeq))
}

// handleData applies what a command brought back.
func (m *Model) handleData(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case feedMsg:
		return m.onFeed(msg)
	case feedRetryMsg:
		if m.opts.Control != nil {
			return pollFeed(m.ctx, m.opts.Control, m.cursor)
		}
	case standingsMsg:
		if msg.Err == nil {
			m.st.SetStandings(msg.Doc)
		} else if m.ctx.Err() == nil {
			m.st.Log(m.pc.Now(), levelError, "standings: %v", msg.Err)
		}
	case adminMsg:
		m.onAdmin(msg)
	case healthTickMsg:
		return m.onHealthTick()
	case healthMsg:
		return m.onHealth(msg)
	case openMatchMsg:
		m.transcript = newTranscriptView(m.pc, msg.MatchID)
		return loadTranscript(m.ctx, m.opts.Control, msg.MatchID)
	case openLOSMsg:
		return fetchLOS(m.ctx, m.opts.Control, msg.PlayerID)
	case losMsg:
		if p, ok := m.panes[paneStandings].(*standingsPane); ok {
			p.setLOS(msg)
		}
	case transcriptMsg:
		if m.transcript != nil && m.transcript.matchID == msg.MatchID {
			m.transcript.setFile(msg)
		}
	}
	return nil
}

// markDirty asks for a redraw on the next frame tick, starting the tick if
// none is pending: many events between two ticks cost one redraw.
func (m *Model) markDirty() tea.Cmd {
	m.dirty = true
	if m.framePending || m.quitting {
		return nil
	}
	m.framePending = true
	return frameTick()
}

// onFeed applies a page of events and polls again; after a failure it
// waits a moment, says so once, and carries on from the same cursor.
func (m *Model) onFeed(msg feedMsg) tea.Cmd {
	c := m.opts.Control
	if msg.Err != nil {
		if m.ctx.Err() != nil || c == nil {
			return nil
		}
		if !m.feedDown {
			m.feedDown, m.pc.Unreachable = true, true
			m.st.Log(m.pc.Now(), levelError, "event feed: %v (retrying)", msg.Err)
		}
		m.sayManagerExited()
		return after(feedRetry, feedRetryMsg{})
	}
	if m.feedDown {
		m.feedDown, m.pc.Unreachable = false, false
		m.st.Log(m.pc.Now(), levelInfo, "event feed back")
	}
	m.st.manager.LastSeen = m.pc.Now()
	refresh := false
	for _, ev := range msg.Page.Events {
		m.st.Apply(ev)
		switch ev.Kind {
		case engine.EventRoundCompleted, engine.EventLeagueCompleted, engine.EventStopped, engine.EventPaused, engine.EventLeagueStarted:
			refresh = true
		}
	}
	if msg.Page.LastSeq > m.cursor {
		m.cursor = msg.Page.LastSeq
	}
	if f := msg.Page.StorageFailure; f != "" && !m.storageShown {
		m.storageShown = true
		m.st.Apply(engine.Event{Kind: engine.EventStorageFailed, Time: m.pc.Now(), Detail: f + resumeHint(m.opts.ResumeCommand)})
	}
	var cmds []tea.Cmd
	if c != nil {
		cmds = append(cmds, pollFeed(m.ctx, c, m.cursor))
		if refresh {
			cmds = append(cmds, fetchStandings(m.ctx, c))
		}
	}
	if t := m.transcript; t != nil && c != nil && t.needsReload() {
		t.loading = true
		cmds = append(cmds, loadTranscript(m.ctx, c, t.matchID))
	}
	return tea.Batch(cmds...)
}

// sayManagerExited logs once, as an error, that the manager this console
// started has exited, with how far the league got and the command that
// resumes it: the feed alone cannot tell a dead manager from a slow one.
func (m *Model) sayManagerExited() {
	if m.managerExitShown || m.opts.Children == nil {
		return
	}
	for _, c := range m.opts.Children() {
		if c.Name != managerChild || c.Running {
			continue
		}
		m.managerExitShown = true
		done, total := m.st.Progress()
		m.st.Log(m.pc.Now(), levelError, "the manager (PID %d) exited; league at %d of %d matches, state saved; quit with q%s",
			c.PID, done, total, resumeHint(m.opts.ResumeCommand))
		m.setFlash(true, "the manager exited: the log (5) says how to resume")
		return
	}
}

// managerChild is the name of the manager among the console's children.
const managerChild = "manager"

// onAdmin reports the manager's answer to an admin command.
func (m *Model) onAdmin(msg adminMsg) {
	if msg.Err == nil {
		m.setFlash(false, "%s sent to the manager", msg.Action)
		return
	}
	text := fmt.Sprintf("%s refused: %v", msg.Action, msg.Err)
	if strings.Contains(msg.Err.Error(), "admin token") {
		text += " (set LEAGUETUI_ADMIN_TOKEN or pass --admin-token-file)"
	}
	m.st.Log(m.pc.Now(), levelError, "%s", text)
	m.setFlash(true, "%s", text)
}

func (m *Model) onHealthTick() tea.Cmd {
	if m.healthBusy || m.opts.Control == nil || m.ctx.Err() != nil {
		return nil
	}
	m.healthBusy = true
	endpoints := []string{m.st.manager.Endpoint}
	for _, list := range [][]*agentInfo{m.st.Referees(), m.st.Players()} {
		for _, a := range list {
			endpoints = append(endpoints, a.Endpoint)
		}
	}
	return probeAgents(m.ctx, endpoints)
}

// onHealth records the probes and schedules the next round of them.
func (m *Model) onHealth(msg healthMsg) tea.Cmd {
	m.healthBusy = false
	byEndpoint := map[string]*agentInfo{m.st.manager.Endpoint: m.st.manager}
	for _, list := range [][]*agentInfo{m.st.Referees(), m.st.Players()} {
		for _, a := range list {
			byEndpoint[a.Endpoint] = a
		}
	}
	for _, p := range msg.Probes {
		a := byEndpoint[p.Endpoint]
		if a == nil {
			continue
		}
		m.st.setHealth(a, p)
	}
	if m.ctx.Err() != nil {
		return nil
	}
	return after(m.healthEvery, healthTickMsg{})
}

func (m *Model) setFlash(isErr bool, format string, args ...any) {
	m.flash, m.flashErr, m.flashAt = fmt.Sprintf(format, args...), isErr, m.pc.Now()
	m.flashSeq++
}

// resumeHint is how to resume a league whose journal could not be written,
// once the disk is fixed.
func resumeHint(command string) string {
	if command == "" {
		return "; restart its manager on the same data folder to resume"
	}
	return "; resume with: " + command
}
