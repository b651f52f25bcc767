package tui

import (
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/leaguetui/leaguetui/agents/protocol"
	"github.com/leaguetui/leaguetui/engine"
	"github.com/leaguetui/leaguetui/league/control"
)

// Tests that the console says only what is true (issue 14, items 5 to 9).

// finishedAgentsModel is a completed league whose agents this console
// started, all still running and answering /health with SHUTDOWN, as
// they do after LEAGUE_COMPLETED, on five-digit ports.
func finishedAgentsModel(t *testing.T, width int) *Model {
	t.Helper()
	l := completedLeague(t)
	var children []ChildInfo
	for _, ev := range l.events {
		if ev.Kind == engine.EventAgentRegistered {
			ev.Agent.Endpoint = strings.Replace(ev.Agent.Endpoint, ":8", ":34", 1)
			children = append(children, ChildInfo{Name: string(ev.Agent.Role) + " " + ev.Agent.ID, ID: ev.Agent.ID,
				PID: 1234567, Running: true})
		}
	}
	children = append(children, ChildInfo{Name: "manager", PID: 1234566, Running: true})
	m := New(t.Context(), Options{Now: func() time.Time { return l.at.Add(3 * time.Second) }, Location: time.UTC,
		NoColor: true, HealthEvery: -1, Children: func() []ChildInfo { return children }})
	m.st.manager.Endpoint = "http://127.0.0.1:34000/mcp"
	m.Update(tea.WindowSizeMsg{Width: width, Height: 40})
	feed(m, l)
	var probes []control.Probe
	for _, a := range append(m.st.Referees(), m.st.Players()...) {
		probes = append(probes, control.Probe{Endpoint: a.Endpoint, At: l.at, Health: protocol.Health{ID: a.ID, State: "SHUTDOWN"}})
	}
	m.Update(healthMsg{Probes: probes})
	press(m, "4")
	return m
}

// TestAgentsAfterNormalFinish (item 5): agents told the league is over are
// finished, not down, and the pid column agrees.
func TestAgentsAfterNormalFinish(t *testing.T) {
	m := finishedAgentsModel(t, 200)
	screen := m.screen()
	if strings.Contains(screen, "down") {
		t.Errorf("agents shown down after a normal finish:\n%s", screen)
	}
	if line := screenLine(screen, "P03 "); !strings.Contains(line, "■ finished") || !strings.Contains(line, "1234567 running") {
		t.Errorf("P03's line %q, want finished and its pid running", line)
	}
}

// TestAgentsColumnsNotCut (item 6): at 80, 120 and 200 columns the pid and
// endpoint columns are whole.
func TestAgentsColumnsNotCut(t *testing.T) {
	for _, width := range []int{80, 120, 200} {
		t.Run(fmt.Sprint(width), func(t *testing.T) {
			screen := finishedAgentsModel(t, width).screen()
			for _, want := range []string{"1234567 running", "127.0.0.1:34101", "127.0.0.1:34002", "1234566 running"} {
				if !strings.Contains(screen, want) {
					t.Errorf("%q not whole at %d columns:\n%s", want, width, screen)
				}
			}
			if strings.Contains(screen, "runn…") || strings.Contains(screen, "127.0.0.1:341…") {
				t.Errorf("a cell is cut at %d columns:\n%s", width, screen)
			}
		})
	}
}

// TestEscClosesHelpOverTranscript (item 7): with ? open over a transcript,
// esc closes the help and leaves the transcript; esc again closes that.
func TestEscClosesHelpOverTranscript(t *testing.T) {
	m := newTestModel(t, nil, t0)
	feed(m, runningLeague(t))
	m.Update(openMatchMsg{MatchID: "R1M1"})
	press(m, "?")
	if !m.showHelp || m.transcript == nil {
		t.Fatalf("? over a transcript: help %v, transcript %v", m.showHelp, m.transcript != nil)
	}
	press(m, "esc")
	if m.showHelp || m.transcript == nil {
		t.Fatalf("esc: help %v, transcript %v; want the help closed, the transcript open", m.showHelp, m.transcript != nil)
	}
	if !strings.Contains(m.screen(), "Match R1M1") {
		t.Errorf("transcript not shown after the help closed:\n%s", m.screen())
	}
	press(m, "esc")
	if m.transcript != nil {
		t.Error("esc again left the transcript open")
	}
}

// TestSortFollowsColumns (item 7): o walks the columns left to right, the
// sorted column is marked, and the mark says which way the values go:
// rank 1 first is low to high (▲), most wins first is high to low (▼).
func TestSortFollowsColumns(t *testing.T) {
	m := newTestModel(t, nil, t0)
	m.Update(tea.WindowSizeMsg{Width: 100, Height: 30})
	feed(m, completedLeague(t))
	sp := m.panes[paneStandings].(*standingsPane)
	want := []struct{ head, footer string }{
		{"rank▲", "sorted by rank ▲ low to high"},
		{"player▲", "sorted by player ▲ low to high"},
		{"name▲", "sorted by name ▲ low to high"},
		{"played▼", "sorted by played ▼ high to low"},
		{"W▼", "sorted by W ▼ high to low"},
		{"D▼", "sorted by D ▼ high to low"},
		{"L▼", "sorted by L ▼ high to low"},
		{"TL▼", "sorted by TL ▼ high to low"},
		{"points▼", "sorted by points ▼ high to low"},
		{"rank▲", "sorted by rank ▲ low to high"},
	}
	for i, w := range want {
		if i > 0 {
			press(m, "o")
		}
		screen := m.screen()
		head := screenLine(screen, "played")
		if !strings.Contains(head, w.head) || strings.Count(head, "▲")+strings.Count(head, "▼") != 1 || !strings.Contains(screen, w.footer) {
			t.Fatalf("after %d o: heading %q, want %q marked alone and %q below:\n%s", i, head, w.head, w.footer, screen)
		}
	}
	press(m, "o", "o", "o", "o", "r") // W, reversed: fewest wins first
	rows := sp.rows()
	if !strings.Contains(m.screen(), "sorted by W ▲ low to high") || rows[0].Wins > rows[len(rows)-1].Wins {
		t.Errorf("W reversed: first %d wins, last %d:\n%s", rows[0].Wins, rows[len(rows)-1].Wins, m.screen())
	}
}

// TestCrosstableColumnsFollowRows (item 7): however the table is sorted,
// the crosstable's columns are in the order of its rows, so each player
// meets itself on the diagonal.
func TestCrosstableColumnsFollowRows(t *testing.T) {
	m := newTestModel(t, nil, t0)
	feed(m, completedLeague(t))
	press(m, "o", "r", "c") // by player, Z to A
	const label, cell = 16, 3
	lines := strings.Split(m.screen(), "\n")
	row := 0
	for _, line := range lines {
		cells := []rune(line)
		if !crossRowLine.MatchString(line) {
			continue
		}
		var marks []int
		for j := 0; label+cell*(j+1) <= len(cells); j++ {
			if strings.Contains(string(cells[label+cell*j:label+cell*(j+1)]), "—") {
				marks = append(marks, j)
			}
		}
		if len(marks) != 1 || marks[0] != row {
			t.Errorf("row %d %q: — in columns %v, want only %d", row, line, marks, row)
		}
		row++
	}
	if row != 6 {
		t.Fatalf("read %d crosstable rows, want 6:\n%s", row, m.screen())
	}
}

// crossRowLine is a crosstable row: cursor mark, rank, player.
var crossRowLine = regexp.MustCompile(`^[ ›]\s*\d+ P\d\d `)

// TestRoundsCursorFollowsCurrentRound (item 7): in a long league the
// current round is on screen, under the cursor, until the user moves it.
func TestRoundsCursorFollowsCurrentRound(t *testing.T) {
	l := newLeague(t).register(40, 2).start(7)
	for n := 1; n <= 30; n++ {
		l.playRound(n)
	}
	m := newTestModel(t, nil, t0)
	feed(m, l)
	press(m, "1")
	if line := screenLine(m.screen(), "Round 31"); !strings.HasPrefix(line, "›") {
		t.Fatalf("round 31 not under the cursor (%q):\n%s", line, m.screen())
	}
	press(m, "k")
	if line := screenLine(m.screen(), "Round 30"); !strings.HasPrefix(line, "›") {
		t.Errorf("k did not move to round 30:\n%s", m.screen())
	}
	feed(m, l.playRound(31))
	if line := screenLine(m.screen(), "Round 30"); !strings.HasPrefix(line, "›") {
		t.Errorf("the cursor the user moved was taken back:\n%s", m.screen())
	}
}

// TestStandingsCursorFollowsPlayer (item 7): the cursor stays on the
// player chosen while results move that player up the table.
func TestStandingsCursorFollowsPlayer(t *testing.T) {
	l := newLeague(t).register(6, 2).start(42)
	m := newTestModel(t, nil, t0)
	feed(m, l)
	press(m, "G") // the last row
	sp := m.panes[paneStandings].(*standingsPane)
	chosen := sp.rows()[5].PlayerID
	for _, r := range l.rounds[:3] {
		for _, p := range r.Matches {
			if p.PlayerA == chosen || p.PlayerB == chosen {
				l.play(p.MatchID, "REF01", chosen)
			}
		}
	}
	feed(m, l)
	if line := screenLine(m.screen(), chosen+" "); !strings.HasPrefix(line, "›") || !strings.HasPrefix(strings.TrimSpace(line[len("›"):]), "1 ") {
		t.Errorf("cursor left %s, now first (%q):\n%s", chosen, line, m.screen())
	}
}

// TestAttachedWithoutTokenIsReadOnly (item 8): attached without the admin
// token, the console does not invite s, and s says why nothing is sent.
func TestAttachedWithoutTokenIsReadOnly(t *testing.T) {
	fake := newFakeManager(t)
	m := New(t.Context(), Options{Control: control.New(fake.srv.URL, ""), Attached: true, Now: func() time.Time { return t0 },
		Location: time.UTC, NoColor: true, HealthEvery: -1, FlashFor: time.Millisecond})
	m.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
	feed(m, waitingLeague(t))
	if screen := m.screen(); strings.Contains(screen, "press s") || !strings.Contains(screen, "read-only") {
		t.Errorf("attached without a token:\n%s", screen)
	}
	press(m, "s")
	if !strings.Contains(m.flash, "admin token") || len(fake.Calls()) != 0 {
		t.Errorf("s: flash %q, calls %v", m.flash, fake.Calls())
	}
}

// TestUnreachableManagerSaysSo (item 8): a manager that never answered is
// unreachable in the header, not a league "waiting".
func TestUnreachableManagerSaysSo(t *testing.T) {
	m := newTestModel(t, control.New("http://127.0.0.1:1", "token"), t0)
	m.Update(feedMsg{Err: fmt.Errorf("connection refused")})
	header := strings.SplitN(m.screen(), "\n", 2)[0]
	if !strings.Contains(header, "unreachable") || strings.Contains(header, "waiting") {
		t.Errorf("header %q, want unreachable", header)
	}
	feed(m, waitingLeague(t))
	if header := strings.SplitN(m.screen(), "\n", 2)[0]; strings.Contains(header, "unreachable") {
		t.Errorf("header %q once the feed answered", header)
	}
}

// TestMessagesSayCountsRight (item 9): one player is "1 player", a filter
// that matches nobody says so, and before the start the header shows no
// "round 0/0".
func TestMessagesSayCountsRight(t *testing.T) {
	m := newTestModel(t, nil, t0)
	feed(m, newLeague(t).register(1, 1))
	screen := m.screen()
	if !strings.Contains(screen, "1 player and 1 referee registered") || strings.Contains(screen, "1 players") {
		t.Errorf("counts:\n%s", screen)
	}
	if strings.Contains(screen, "round 0/0") || strings.Contains(screen, "matches 0/0") || !strings.Contains(screen, "not started") {
		t.Errorf("header before the start:\n%s", screen)
	}
	press(m, "/", "z", "z", "enter")
	if screen := m.screen(); !strings.Contains(screen, "No player matches the filter.") || !strings.Contains(screen, "0 players") {
		t.Errorf("filter without a match:\n%s", screen)
	}
	l := newLeague(t).register(2, 1).start(1).playRound(1).kind(engine.EventLeagueCompleted)
	m = newTestModel(t, nil, t0)
	feed(m, l)
	var logged string
	for _, e := range m.st.Logs() {
		logged += e.Text + "\n"
	}
	if !strings.Contains(logged, "1 match in 1 round") || !strings.Contains(logged, "2 players, 1 round, 1 match") {
		t.Errorf("log:\n%s", logged)
	}
}

// TestStatusMessageClears (item 9): a status message goes away by itself,
// on a tick the model asked for.
func TestStatusMessageClears(t *testing.T) {
	m := newTestModel(t, nil, t0)
	feed(m, waitingLeague(t))
	msgs := runCmd(t, press(m, "p"))
	if !strings.Contains(m.screen(), "has not started") {
		t.Fatalf("no status message:\n%s", m.screen())
	}
	if len(msgs) != 1 {
		t.Fatalf("p gave %v, want the message's expiry", msgs)
	}
	m.Update(msgs[0])
	if strings.Contains(m.screen(), "has not started") || m.flash != "" {
		t.Errorf("status message still shown after its expiry:\n%s", m.screen())
	}
}

// TestLongLogLineReadWhole (item 9): a log line longer than the pane is
// shown whole, wrapped, when selected.
func TestLongLogLineReadWhole(t *testing.T) {
	m := newTestModel(t, nil, t0)
	long := strings.Repeat("word ", 150) + "end-of-line"
	m.st.Log(t0, levelWarn, "%s", long)
	press(m, "5")
	flat := strings.Join(strings.Fields(m.screen()), " ")
	if !strings.Contains(flat, strings.TrimSpace(strings.Join(strings.Fields(long), " "))) {
		t.Errorf("the long line is not shown whole:\n%s", m.screen())
	}
}

// TestHelpListsEveryKey (item 9): ? names space, ctrl+u and ctrl+d, and at
// 80 columns cuts no group off.
func TestHelpListsEveryKey(t *testing.T) {
	m := newTestModel(t, nil, t0)
	press(m, "?")
	screen := m.screen()
	for _, want := range []string{"s/space", "ctrl+u", "ctrl+d", "sort column", "crosstable"} {
		if !strings.Contains(screen, want) {
			t.Errorf("help lacks %q:\n%s", want, screen)
		}
	}
	if strings.Contains(screen, "…") {
		t.Errorf("help cut at 80 columns:\n%s", screen)
	}
}

// TestReopenedLeagueNamed (item 2): a console opened on a data folder that
// holds a league says which, first thing, on the status line and in the log.
func TestReopenedLeagueNamed(t *testing.T) {
	notice := "./data holds league L: completed, even_odd, 4 players, seed 42, 6 of 6 matches played"
	m := New(t.Context(), Options{Now: func() time.Time { return t0 }, Location: time.UTC, NoColor: true,
		HealthEvery: -1, Notice: notice, FlashFor: time.Millisecond})
	m.Update(tea.WindowSizeMsg{Width: 120, Height: 30})
	if !strings.Contains(m.screen(), notice) {
		t.Errorf("status line lacks the notice:\n%s", m.screen())
	}
	if logs := m.st.Logs(); len(logs) == 0 || logs[0].Text != notice {
		t.Errorf("log starts with %v, want the notice", logs)
	}
}
