package tui

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/leaguetui/leaguetui/agents/protocol"
	"github.com/leaguetui/leaguetui/engine"
	"github.com/leaguetui/leaguetui/league/control"
)

// keyMsg makes the tea.KeyMsg a terminal sends for a key name.
func keyMsg(name string) tea.KeyMsg {
	switch name {
	case "tab":
		return tea.KeyMsg{Type: tea.KeyTab}
	case "shift+tab":
		return tea.KeyMsg{Type: tea.KeyShiftTab}
	case "enter":
		return tea.KeyMsg{Type: tea.KeyEnter}
	case "esc":
		return tea.KeyMsg{Type: tea.KeyEsc}
	case "space":
		return tea.KeyMsg{Type: tea.KeySpace, Runes: []rune{' '}}
	case "ctrl+c":
		return tea.KeyMsg{Type: tea.KeyCtrlC}
	case "up":
		return tea.KeyMsg{Type: tea.KeyUp}
	case "down":
		return tea.KeyMsg{Type: tea.KeyDown}
	case "backspace":
		return tea.KeyMsg{Type: tea.KeyBackspace}
	case "pgdown":
		return tea.KeyMsg{Type: tea.KeyPgDown}
	case "pgup":
		return tea.KeyMsg{Type: tea.KeyPgUp}
	case "home":
		return tea.KeyMsg{Type: tea.KeyHome}
	case "end":
		return tea.KeyMsg{Type: tea.KeyEnd}
	}
	return tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(name)}
}

// press sends keys one by one and returns the last command.
func press(m *Model, keys ...string) tea.Cmd {
	var cmd tea.Cmd
	for _, k := range keys {
		_, cmd = m.Update(keyMsg(k))
	}
	return cmd
}

func feed(m *Model, l *league) tea.Cmd {
	_, cmd := m.Update(l.page())
	return cmd
}

// TestAdminKeys checks that s, space, p and x (with its confirmation) send
// the right admin method in each state, and nothing where it makes no sense.
func TestAdminKeys(t *testing.T) {
	tests := []struct {
		name   string
		league func(testing.TB) *league
		keys   []string
		want   string // the JSON-RPC method sent, "" for none
		flash  string // part of the status line
	}{
		{"s starts a waiting league", waitingLeague, []string{"s"}, control.MethodStart, "sending start"},
		{"space starts a waiting league", waitingLeague, []string{"space"}, control.MethodStart, "sending start"},
		{"s resumes a paused league", pausedLeague, []string{"s"}, control.MethodResume, "sending resume"},
		{"s resumes a pausing league", pausingLeague, []string{"s"}, control.MethodResume, "sending resume"},
		{"s on a running league does nothing", runningLeague, []string{"s"}, "", "already running"},
		{"s on a completed league does nothing", completedLeague, []string{"s"}, "", "completed"},
		{"p pauses a running league", runningLeague, []string{"p"}, control.MethodPause, "sending pause"},
		{"p on a waiting league does nothing", waitingLeague, []string{"p"}, "", "has not started"},
		{"p on a paused league does nothing", pausedLeague, []string{"p"}, "", "already paused"},
		{"x then y stops", runningLeague, []string{"x", "y"}, control.MethodStop, "sending stop"},
		{"x then n does not stop", runningLeague, []string{"x", "n"}, "", "cancelled"},
		{"x then esc does not stop", pausedLeague, []string{"x", "esc"}, "", "cancelled"},
		{"x on a completed league does nothing", completedLeague, []string{"x"}, "", "nothing to stop"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fake := newFakeManager(t)
			m := newTestModel(t, control.New(fake.srv.URL, "token"), t0)
			feed(m, tt.league(t))
			cmd := press(m, tt.keys...)
			if !strings.Contains(m.flash, tt.flash) {
				t.Errorf("flash = %q, want it to contain %q", m.flash, tt.flash)
			}
			msgs := withoutFlashExpiry(runCmd(t, cmd))
			calls := fake.Calls()
			if tt.want == "" {
				if len(calls) != 0 {
					t.Errorf("sent %v, want nothing", calls)
				}
				return
			}
			if len(calls) != 1 || calls[0] != tt.want {
				t.Fatalf("sent %v, want [%s]", calls, tt.want)
			}
			if len(msgs) != 1 {
				t.Fatalf("messages %v", msgs)
			}
			m.Update(msgs[0])
			if !strings.Contains(m.flash, "sent to the manager") {
				t.Errorf("after the answer, flash = %q", m.flash)
			}
		})
	}
}

func TestStopAsksFirst(t *testing.T) {
	fake := newFakeManager(t)
	m := newTestModel(t, control.New(fake.srv.URL, "token"), t0)
	feed(m, runningLeague(t))
	if cmd := press(m, "x"); cmd != nil || m.confirm != confirmStop {
		t.Fatalf("x: cmd %v, confirm %v", cmd, m.confirm)
	}
	if !strings.Contains(m.screen(), "Stop the league? Running matches (2) are abandoned. [y/n]") {
		t.Errorf("the question is not on screen:\n%s", m.screen())
	}
	press(m, "p") // other keys are ignored while the question is open
	if m.confirm != confirmStop || len(fake.Calls()) != 0 {
		t.Errorf("p answered the question: confirm %v, calls %v", m.confirm, fake.Calls())
	}
}

func TestAdminRefusedShowsTokenHint(t *testing.T) {
	fake := newFakeManager(t)
	fake.refuse = "pause_league needs the admin token"
	m := newTestModel(t, control.New(fake.srv.URL, "adm-wrong"), t0)
	feed(m, runningLeague(t))
	for _, msg := range runCmd(t, press(m, "p")) {
		m.Update(msg)
	}
	if !m.flashErr || !strings.Contains(m.flash, "--admin-token") {
		t.Errorf("flash = %q (error %v), want the token hint", m.flash, m.flashErr)
	}
	if m.st.errors != 1 {
		t.Errorf("log errors = %d, want 1", m.st.errors)
	}
}

func TestAdminWithoutManager(t *testing.T) {
	m := newTestModel(t, nil, t0)
	feed(m, waitingLeague(t))
	if msgs := withoutFlashExpiry(runCmd(t, press(m, "s"))); len(msgs) != 0 || !m.flashErr {
		t.Errorf("s without a manager: messages %v, flash %q", msgs, m.flash)
	}
}

func TestQuitKeys(t *testing.T) {
	tests := []struct {
		name    string
		league  func(testing.TB) *league
		keys    []string
		quits   bool
		confirm confirmKind
	}{
		{"q quits when no match runs", completedLeague, []string{"q"}, true, confirmNone},
		{"q quits a waiting league", waitingLeague, []string{"q"}, true, confirmNone},
		{"q asks while matches run", runningLeague, []string{"q"}, false, confirmQuit},
		{"q then y quits", runningLeague, []string{"q", "y"}, true, confirmNone},
		{"q then n stays", runningLeague, []string{"q", "n"}, false, confirmNone},
		{"q asks while pausing", pausingLeague, []string{"q"}, false, confirmQuit},
		{"ctrl+c quits at once", runningLeague, []string{"ctrl+c"}, true, confirmNone},
		{"ctrl+c quits from the question", runningLeague, []string{"q", "ctrl+c"}, true, confirmQuit},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := newTestModel(t, nil, t0)
			feed(m, tt.league(t))
			cmd := press(m, tt.keys...)
			quit := false
			if cmd != nil {
				_, quit = cmd().(tea.QuitMsg)
			}
			if quit != tt.quits || m.quitting != tt.quits {
				t.Errorf("quit = %v (quitting %v), want %v", quit, m.quitting, tt.quits)
			}
			if m.confirm != tt.confirm {
				t.Errorf("confirm = %v, want %v", m.confirm, tt.confirm)
			}
			if tt.quits && m.View() != "" {
				t.Error("a quitting console should leave an empty screen")
			}
		})
	}
}

func TestPaneKeys(t *testing.T) {
	tests := []struct {
		keys []string
		want int
	}{
		{nil, paneStandings},
		{[]string{"tab"}, paneAgents},
		{[]string{"tab", "tab", "tab"}, paneRounds},
		{[]string{"shift+tab"}, paneMatches},
		{[]string{"shift+tab", "shift+tab", "shift+tab"}, paneLog},
		{[]string{"1"}, paneRounds},
		{[]string{"5"}, paneLog},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprint(tt.keys), func(t *testing.T) {
			m := newTestModel(t, nil, t0)
			press(m, tt.keys...)
			if m.focus != tt.want {
				t.Errorf("focus = %d (%s), want %d", m.focus, m.panes[m.focus].Title(), tt.want)
			}
			if !strings.Contains(m.screen(), "["+fmt.Sprint(tt.want+1)+" "+m.panes[tt.want].Title()+"]") {
				t.Errorf("the tab bar does not mark the focused pane:\n%s", m.screen())
			}
		})
	}
}

func TestListKeysMoveAndScroll(t *testing.T) {
	m := newTestModel(t, nil, t0)
	feed(m, newLeague(t).register(40, 2))
	sp := m.panes[paneStandings].(*standingsPane)
	press(m, "j", "j", "down")
	if sp.list.cursor != 3 {
		t.Errorf("after j j down, cursor = %d", sp.list.cursor)
	}
	press(m, "k")
	if sp.list.cursor != 2 {
		t.Errorf("after k, cursor = %d", sp.list.cursor)
	}
	press(m, "G")
	screen := m.screen()
	if sp.list.cursor != 39 || !strings.Contains(screen, "›  40  P40") || strings.Contains(screen, "P01 ") {
		t.Errorf("G should scroll to the last row, cursor %d:\n%s", sp.list.cursor, screen)
	}
	press(m, "g")
	if sp.list.cursor != 0 || sp.list.offset != 0 {
		t.Errorf("g: cursor %d offset %d", sp.list.cursor, sp.list.offset)
	}
}

func TestStandingsSortAndCrosstable(t *testing.T) {
	m := newTestModel(t, nil, t0)
	feed(m, completedLeague(t))
	sp := m.panes[paneStandings].(*standingsPane)
	press(m, "o")
	if sp.sortBy != sortPlayer || !strings.Contains(m.screen(), "sorted by player ▲ low to high") {
		t.Fatalf("sort by %v:\n%s", sp.sortBy, m.screen())
	}
	if rows := sp.rows(); rows[0].PlayerID != "P01" || rows[5].PlayerID != "P06" {
		t.Errorf("by player: %v … %v", rows[0].PlayerID, rows[5].PlayerID)
	}
	press(m, "r")
	if rows := sp.rows(); rows[0].PlayerID != "P06" {
		t.Errorf("reversed: first %v", rows[0].PlayerID)
	}
	press(m, "c")
	if !sp.cross || !strings.Contains(m.screen(), "W win · D draw") {
		t.Fatalf("c should show the crosstable:\n%s", m.screen())
	}
	press(m, "l")
	cmd := press(m, "enter")
	if cmd == nil {
		t.Fatal("enter on a crosstable cell should open its match")
	}
	open, ok := cmd().(openMatchMsg)
	if !ok || open.MatchID == "" {
		t.Fatalf("enter gave %v", open)
	}
	press(m, "c")
	if sp.cross {
		t.Error("c again should leave the crosstable")
	}
}

func TestFilterKeys(t *testing.T) {
	m := newTestModel(t, nil, t0)
	feed(m, newLeague(t).register(12, 2))
	press(m, "/")
	if !m.filtering {
		t.Fatal("/ should open the filter")
	}
	press(m, "p", "1", "backspace", "1", "1") // q, s and others are text here
	if m.pc.Filter != "p11" {
		t.Errorf("filter = %q", m.pc.Filter)
	}
	press(m, "enter")
	if m.filtering || m.pc.Filter != "p11" {
		t.Errorf("enter keeps the filter: filtering %v filter %q", m.filtering, m.pc.Filter)
	}
	screen := m.screen()
	if !strings.Contains(screen, "P11") || strings.Contains(screen, "P12") || !strings.Contains(screen, "filter p11") {
		t.Errorf("filtered standings:\n%s", screen)
	}
	press(m, "esc")
	if m.pc.Filter != "" {
		t.Errorf("esc clears the filter, got %q", m.pc.Filter)
	}
	press(m, "/", "p", "esc")
	if m.filtering || m.pc.Filter != "" {
		t.Errorf("esc while typing: filtering %v filter %q", m.filtering, m.pc.Filter)
	}
}

func TestHelpKey(t *testing.T) {
	m := newTestModel(t, nil, t0)
	if !strings.Contains(m.screen(), "? keys") {
		t.Errorf("the help bar should be shown:\n%s", m.screen())
	}
	press(m, "?")
	screen := m.screen()
	for _, want := range []string{"Keys (? or esc closes)", "start/resume", "shift+tab", "quit now", "sort column"} {
		if !strings.Contains(screen, want) {
			t.Errorf("full help lacks %q:\n%s", want, screen)
		}
	}
	press(m, "?")
	if m.showHelp {
		t.Error("? again should close the help")
	}
	press(m, "?", "esc")
	if m.showHelp {
		t.Error("esc should close the help")
	}
}

func TestOpenMatchAndTranscript(t *testing.T) {
	m := newTestModel(t, nil, t0)
	l := runningLeague(t)
	feed(m, l)
	press(m, "2", "j") // match flow, first running match
	cmd := press(m, "enter")
	if cmd == nil {
		t.Fatal("enter on a running match should open it")
	}
	open := cmd().(openMatchMsg)
	want := l.rounds[1].Matches[1].MatchID
	if open.MatchID != want {
		t.Fatalf("opened %s, want %s", open.MatchID, want)
	}
	_, load := m.Update(open)
	if m.transcript == nil {
		t.Fatal("no transcript view")
	}
	for _, msg := range runCmd(t, load) {
		if tm, ok := msg.(transcriptMsg); ok {
			m.Update(tm)
		}
	}
	screen := m.screen()
	if !strings.Contains(screen, "Match "+want) || !strings.Contains(screen, "steps from the feed") || !strings.Contains(screen, "choosing") {
		t.Errorf("transcript from the feed:\n%s", screen)
	}
	press(m, "esc")
	if m.transcript != nil {
		t.Error("esc should close the transcript")
	}
}

// TestTranscriptFromFile: the transcript is the match file the manager
// serves over HTTP.
func TestTranscriptFromFile(t *testing.T) {
	fake := newFakeManager(t)
	m := newTestModel(t, control.New(fake.srv.URL, ""), t0)
	l := completedLeague(t)
	feed(m, l)
	id := l.rounds[0].Matches[0].MatchID
	body := `{"match_id":"` + id + `","game_type":"even_odd","lifecycle":{"started_at":"2025-03-14T15:09:27Z","finished_at":"2025-03-14T15:09:28Z"},
	 "transcript":[{"seq":1,"timestamp":"2025-03-14T15:09:27.100Z","message_type":"GAME_INVITATION","from":"REF01","to":"P01","content":{"message_type":"GAME_INVITATION","role_in_match":"PLAYER_A"}}],
	 "result":{"status":"WIN","winner":"P01"}}`
	fake.matchFiles[id] = body
	msg := loadTranscript(t.Context(), m.opts.Control, id)().(transcriptMsg)
	if msg.Err != nil {
		t.Fatal(msg.Err)
	}
	m.Update(openMatchMsg{MatchID: id})
	m.Update(msg)
	screen := m.screen()
	for _, want := range []string{"GAME_INVITATION", "REF01 → P01", `role_in_match="PLAYER_A"`, `result: status="WIN" winner="P01"`} {
		if !strings.Contains(screen, want) {
			t.Errorf("transcript lacks %q:\n%s", want, screen)
		}
	}
}

func TestFeedEvents(t *testing.T) {
	fake := newFakeManager(t)
	m := newTestModel(t, control.New(fake.srv.URL, ""), t0)
	l := runningLeague(t)
	msgs := runCmd(t, feed(m, l))
	if m.cursor != l.seq || m.st.DisplayState() != stateRunning {
		t.Errorf("cursor %d state %s", m.cursor, m.st.DisplayState())
	}
	var polled, standings, frame bool
	for _, msg := range msgs {
		switch msg := msg.(type) {
		case feedMsg:
			polled = msg.Err == nil
		case standingsMsg:
			standings = msg.Doc.LeagueID == "league_test"
		case frameMsg:
			frame = true
		}
	}
	if !polled || !standings || !frame {
		t.Errorf("after a page: polled again %v, standings read %v, frame tick %v", polled, standings, frame)
	}
}

func TestFeedErrorRetries(t *testing.T) {
	fake := newFakeManager(t)
	m := newTestModel(t, control.New(fake.srv.URL, ""), t0)
	_, cmd := m.Update(feedMsg{Err: errors.New("connection refused")})
	if !m.feedDown || m.st.errors != 1 || !strings.Contains(m.screen(), "manager unreachable") {
		t.Errorf("feed error: down %v errors %d", m.feedDown, m.st.errors)
	}
	m.Update(feedMsg{Err: errors.New("connection refused")})
	if m.st.errors != 1 {
		t.Error("a second failure in a row should not log again")
	}
	if cmd == nil {
		t.Fatal("no retry scheduled")
	}
	_, retry := m.Update(feedRetryMsg{})
	if retry == nil {
		t.Error("feedRetryMsg should poll again")
	}
	m.Update(feedMsg{Page: protocol.FeedPage{}})
	if m.feedDown {
		t.Error("a page should clear the failure")
	}
}

func TestStandingsAndHealthMessages(t *testing.T) {
	m := newTestModel(t, nil, t0)
	feed(m, waitingLeague(t))
	m.Update(standingsMsg{Doc: protocol.StandingsFile{LeagueID: "league_x", Seed: 9}})
	if m.st.LeagueID != "league_x" || !strings.Contains(m.screen(), "league_x") {
		t.Errorf("league id not shown:\n%s", m.screen())
	}
	p1 := m.st.Agent("P01")
	p2 := m.st.Agent("P02")
	m.Update(healthMsg{Probes: []control.Probe{
		{Endpoint: p1.Endpoint, Health: protocol.Health{State: "ACTIVE"}, At: t0},
		{Endpoint: p2.Endpoint, Err: errors.New("refused"), At: t0},
	}})
	if agentState(p1, ChildInfo{}, false) != "● active" || agentState(p2, ChildInfo{}, false) != "✗ no answer" {
		t.Errorf("states: %s, %s", agentState(p1, ChildInfo{}, false), agentState(p2, ChildInfo{}, false))
	}
	press(m, "4")
	if screen := m.screen(); !strings.Contains(screen, "● active") || !strings.Contains(screen, "✗ no answer") {
		t.Errorf("agents pane:\n%s", screen)
	}
}

func TestAgentToolsShownForSelectedAgent(t *testing.T) {
	m := newTestModel(t, nil, t0)
	feed(m, waitingLeague(t))
	manager := m.st.manager
	m.Update(healthMsg{Probes: []control.Probe{{Endpoint: manager.Endpoint,
		Health: protocol.Health{State: "ACTIVE", Tools: []string{"register_player", "get_standings"}}, At: t0}}})
	press(m, "4")
	if screen := m.screen(); !strings.Contains(screen, "register_player, get_standings") {
		t.Errorf("the selected agent's tools are not shown:\n%s", screen)
	}
}

func TestChildrenShownInAgents(t *testing.T) {
	m := New(t.Context(), Options{Now: func() time.Time { return t0 }, Location: time.UTC, NoColor: true, HealthEvery: -1,
		Children: func() []ChildInfo {
			return []ChildInfo{{Name: "manager", PID: 100, Running: true}, {Name: "player P01", ID: "P01", PID: 101, Running: false}}
		}})
	m.Update(tea.WindowSizeMsg{Width: 100, Height: 24})
	feed(m, waitingLeague(t))
	press(m, "4")
	screen := m.screen()
	if !strings.Contains(screen, "100 running") || !strings.Contains(screen, "101 exited") {
		t.Errorf("process states not shown:\n%s", screen)
	}
}

func TestResizeRedraws(t *testing.T) {
	m := newTestModel(t, nil, t0)
	feed(m, runningLeague(t))
	for _, size := range [][2]int{{80, 24}, {120, 40}, {60, 15}, {200, 60}} {
		m.Update(tea.WindowSizeMsg{Width: size[0], Height: size[1]})
		lines := strings.Split(m.View(), "\n")
		if len(lines) != size[1] {
			t.Errorf("%dx%d: %d lines", size[0], size[1], len(lines))
		}
		for i, line := range lines {
			if w := visibleWidth(line); w > size[0] {
				t.Errorf("%dx%d: line %d is %d wide: %q", size[0], size[1], i, w, line)
			}
		}
	}
}

// TestFeedEventsAreCoalesced: events only mark the screen dirty; it is
// drawn once on the next frame tick, however many pages came.
func TestFeedEventsAreCoalesced(t *testing.T) {
	m := newTestModel(t, nil, t0)
	before := m.renders
	l := completedLeague(t)
	ticks := 0
	for _, ev := range l.events {
		_, cmd := m.Update(feedMsg{Page: protocol.FeedPage{Events: []engine.Event{ev}, LastSeq: ev.Seq}})
		if cmd != nil {
			ticks++
		}
	}
	if m.renders != before {
		t.Errorf("%d feed pages drew the screen %d times before any tick", len(l.events), m.renders-before)
	}
	if ticks != 1 {
		t.Errorf("%d frame ticks scheduled, want 1", ticks)
	}
	m.Update(frameMsg{})
	if m.renders != before+1 || !strings.Contains(m.View(), "completed") {
		t.Errorf("the frame tick should draw once: renders %d", m.renders-before)
	}
	m.Update(frameMsg{})
	if m.renders != before+1 {
		t.Error("a tick with nothing new should not draw")
	}
}

// bigLeagueModel is a console showing 200 players and 19,900 matches, 100
// rounds played and 8 matches running, on a 200x60 terminal.
func bigLeagueModel(t testing.TB) *Model {
	m := newTestModel(t, nil, t0)
	l := newLeague(t).register(200, 8).start(7)
	for _, r := range l.rounds[:100] {
		for i, p := range r.Matches {
			l.finish(p.MatchID, fmt.Sprintf("REF%02d", i%8+1), p.PlayerA)
		}
	}
	for i, p := range l.rounds[100].Matches[:8] {
		l.begin(p.MatchID, fmt.Sprintf("REF%02d", i+1), "invited")
	}
	for from := 0; from < len(l.events); from += 2000 {
		evs := l.events[from:min(from+2000, len(l.events))]
		m.Update(feedMsg{Page: protocol.FeedPage{Events: evs, LastSeq: evs[len(evs)-1].Seq}})
	}
	m.Update(tea.WindowSizeMsg{Width: 200, Height: 60})
	return m
}

// BenchmarkBigLeagueDraw draws each pane of a 200-player league, plain and
// with its "c" view; a frame at the console's 30 per second leaves 33 ms.
// go test -run '^$' -bench BigLeagueDraw ./tui
func BenchmarkBigLeagueDraw(b *testing.B) {
	m := bigLeagueModel(b)
	for pane := range m.panes {
		for _, extra := range [][]string{nil, {"c"}} {
			name := m.panes[pane].Title()
			if extra != nil {
				name += "_c_view"
			}
			b.Run(name, func(b *testing.B) {
				m.focus = pane
				press(m, extra...)
				for b.Loop() {
					m.render()
				}
			})
		}
	}
}

// TestBigLeagueDraws: every pane of a 200-player league draws, the
// standings listing its players.
func TestBigLeagueDraws(t *testing.T) {
	m := bigLeagueModel(t)
	for pane := range m.panes {
		m.focus = pane
		if screen := m.screen(); !strings.Contains(screen, m.panes[pane].Title()) {
			t.Errorf("pane %s is not on the screen it draws:\n%s", m.panes[pane].Title(), screen)
		}
	}
	if got := len(m.pc.State.Standings()); got != 200 {
		t.Errorf("the standings hold %d players, want 200", got)
	}
}

func TestLogPaneKeys(t *testing.T) {
	m := newTestModel(t, nil, t0)
	feed(m, completedLeague(t))
	press(m, "5")
	lp := m.logPane
	screen := m.screen()
	if !lp.follow || !strings.Contains(screen, "›15:09:37 INFO  league completed") {
		t.Errorf("the log should follow its newest line:\n%s", screen)
	}
	press(m, "k")
	if lp.follow {
		t.Error("moving up should stop following")
	}
	press(m, "G")
	if !lp.follow {
		t.Error("going to the bottom should follow again")
	}
	press(m, "w")
	if !lp.problems || len(lp.entries()) != 2 {
		t.Errorf("w: warnings only, got %d entries", len(lp.entries()))
	}
	m.st.Log(t0, levelError, "a very long error that cannot fit on one line of an eighty column terminal, so it is shown whole below the list")
	screen = m.screen()
	if !strings.Contains(screen, "─ selected") || !strings.Contains(screen, "it is shown whole below the list") {
		t.Errorf("a cut line should be shown whole:\n%s", screen)
	}
}

func TestClockTickRedraws(t *testing.T) {
	now := t0
	m := New(t.Context(), Options{Now: func() time.Time { return now }, Location: time.UTC, NoColor: true, HealthEvery: -1})
	m.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
	feed(m, runningLeague(t))
	m.Update(frameMsg{})
	now = now.Add(time.Minute)
	_, cmd := m.Update(clockMsg{})
	if cmd == nil || !m.dirty {
		t.Fatal("the clock should schedule itself and a redraw")
	}
	m.Update(frameMsg{})
	if !strings.Contains(m.View(), "elapsed 0:59") {
		t.Errorf("elapsed time not updated:\n%s", m.View())
	}
}

func TestRoundsPaneKeys(t *testing.T) {
	m := newTestModel(t, nil, t0)
	l := runningLeague(t)
	feed(m, l)
	press(m, "1")
	rp := m.panes[paneRounds].(*roundsPane)
	if got := len(rp.rows()); got != 5+3 {
		t.Fatalf("rows = %d, want 5 rounds and the current round's 3 matches", got)
	}
	if rp.list.cursor != 1 {
		t.Errorf("cursor on row %d, want the current round's (1)", rp.list.cursor)
	}
	press(m, "k", "enter") // on round 1: unfold it
	if got := len(rp.rows()); got != 5+3+3 {
		t.Errorf("after enter on round 1, rows = %d", got)
	}
	press(m, "enter")  // fold it again
	press(m, "j", "j") // round 2's first match
	cmd := press(m, "enter")
	if cmd == nil {
		t.Fatal("enter on a match should open it")
	}
	if open := cmd().(openMatchMsg); open.MatchID != l.rounds[1].Matches[0].MatchID {
		t.Errorf("opened %s", open.MatchID)
	}
	press(m, "j") // round 2's second match: fold round 2 from its own line
	press(m, "k", "k", "enter")
	if got := len(rp.rows()); got != 5 {
		t.Errorf("after folding the current round, rows = %d", got)
	}
}

func TestPageKeys(t *testing.T) {
	m := newTestModel(t, nil, t0)
	feed(m, newLeague(t).register(100, 2))
	sp := m.panes[paneStandings].(*standingsPane)
	press(m, "pgdown")
	page := sp.list.height - 1
	if sp.list.cursor != page {
		t.Errorf("pgdown: cursor %d, want %d", sp.list.cursor, page)
	}
	press(m, "pgdown", "pgup")
	if sp.list.cursor != page {
		t.Errorf("pgdown pgup: cursor %d, want %d", sp.list.cursor, page)
	}
	press(m, "end")
	if sp.list.cursor != 99 {
		t.Errorf("end: cursor %d", sp.list.cursor)
	}
	press(m, "home")
	if sp.list.cursor != 0 {
		t.Errorf("home: cursor %d", sp.list.cursor)
	}
}

// TestRunesTypedAtOnce: keys that arrive in one read are handled one by one.
func TestRunesTypedAtOnce(t *testing.T) {
	m := newTestModel(t, nil, t0)
	feed(m, runningLeague(t))
	m.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("2j")})
	mp := m.panes[paneMatches].(*matchesPane)
	if m.focus != paneMatches || mp.list.cursor != 1 {
		t.Errorf("\"2j\": focus %d cursor %d", m.focus, mp.list.cursor)
	}
	m.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("/p0")})
	if !m.filtering || m.pc.Filter != "p0" {
		t.Errorf("\"/p0\": filtering %v filter %q", m.filtering, m.pc.Filter)
	}
}

// TestTinyTerminalsDoNotPanic draws every pane, open view and layout at
// sizes down to 1x1: a resize must never crash the console.
func TestTinyTerminalsDoNotPanic(t *testing.T) {
	views := [][]string{{"1"}, {"2"}, {"3"}, {"3", "c"}, {"4"}, {"5"}, {"?"}, {"x"}, {"/"}}
	for _, keys := range views {
		m := newTestModel(t, nil, t0)
		feed(m, completedLeague(t))
		press(m, keys...)
		for _, size := range [][2]int{{1, 1}, {5, 3}, {20, 5}, {40, 8}, {79, 23}, {120, 31}, {119, 32}, {300, 100}} {
			m.Update(tea.WindowSizeMsg{Width: size[0], Height: size[1]})
			if lines := strings.Split(m.View(), "\n"); size[1] >= 6 && len(lines) != size[1] {
				t.Errorf("%v at %dx%d: %d lines", keys, size[0], size[1], len(lines))
			}
		}
	}
	m := newTestModel(t, nil, t0)
	feed(m, completedLeague(t))
	m.Update(openMatchMsg{MatchID: "R1M1"})
	for _, size := range [][2]int{{1, 1}, {10, 4}, {80, 24}} {
		m.Update(tea.WindowSizeMsg{Width: size[0], Height: size[1]})
	}
}
