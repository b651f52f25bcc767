package tui

import (
	"fmt"
	"strings"
	"testing"

	"github.com/leaguetui/leaguetui/agents/protocol"
	"github.com/leaguetui/leaguetui/engine"
	"github.com/leaguetui/leaguetui/league/control"
)

// TestKeyBarOffersWhatTheLeagueAllows: the key bar offers start, pause
// and stop only where they do something: start while the league waits or
// is paused, pause and stop while it runs, none of them once it has ended
// or when the console has no admin token.
func TestKeyBarOffersWhatTheLeagueAllows(t *testing.T) {
	const start, pause, stop = "s/space start/resume", "p pause", "x stop"
	tests := []struct {
		name   string
		league func(testing.TB) *league
		token  string
		want   []string
		absent []string
	}{
		{"waiting", waitingLeague, "adm-token", []string{start}, []string{pause, stop}},
		{"running", runningLeague, "adm-token", []string{pause, stop}, []string{start}},
		{"paused", pausedLeague, "adm-token", []string{start, stop}, []string{pause}},
		{"completed", completedLeague, "adm-token", nil, []string{start, pause, stop}},
		{"read-only running", runningLeague, "", nil, []string{start, pause, stop}},
		{"read-only waiting", waitingLeague, "", nil, []string{start, pause, stop}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fake := newFakeManager(t)
			m := newTestModel(t, control.New(fake.srv.URL, tt.token), t0)
			feed(m, tt.league(t))
			bar := m.helpView(200)
			for _, want := range tt.want {
				if !strings.Contains(bar, want) {
					t.Errorf("the key bar lacks %q: %s", want, bar)
				}
			}
			for _, absent := range tt.absent {
				if strings.Contains(bar, absent) {
					t.Errorf("the key bar offers %q: %s", absent, bar)
				}
			}
			if !strings.Contains(bar, "q quit") || !strings.Contains(bar, "? keys") {
				t.Errorf("the key bar lacks quit or help: %s", bar)
			}
		})
	}
}

// TestQuitQuestionAfterTheLeagueEnds: a quit question opened while a
// match runs no longer counts running matches once the league has ended
// under it.
func TestQuitQuestionAfterTheLeagueEnds(t *testing.T) {
	l := newLeague(t).register(2, 1).start(42)
	match := l.rounds[0].Matches[0]
	l.begin(match.MatchID, "REF01", "invited")
	m := newTestModel(t, nil, t0)
	feed(m, l)
	press(m, "q")
	if status := m.statusView(200); m.confirm != confirmQuit || !strings.Contains(status, "1 match running.") {
		t.Fatalf("q while a match runs: confirm %v, status %q", m.confirm, status)
	}
	l.finish(match.MatchID, "REF01", match.PlayerA).kind(engine.EventLeagueCompleted)
	feed(m, l)
	status := m.statusView(200)
	if m.st.DisplayState() != stateCompleted || strings.Contains(status, "running") || !strings.Contains(status, "[y/n]") {
		t.Errorf("after completion (%s) the question reads %q; want it without running matches", m.st.DisplayState(), status)
	}
}

// TestFullHelpNamesEveryKey: the ? screen lists enter beside the other
// list keys, and counts the panes the digits jump to.
func TestFullHelpNamesEveryKey(t *testing.T) {
	m := newTestModel(t, nil, t0)
	feed(m, runningLeague(t))
	press(m, "?")
	screen := m.screen()
	for _, want := range []string{"enter", "esc", fmt.Sprintf("1-%d jump to a pane", len(m.panes))} {
		if !strings.Contains(screen, want) {
			t.Errorf("the ? screen lacks %q:\n%s", want, screen)
		}
	}
}

// TestPlayerRegisteringWhileWaitingIsInTheStandings: with the manager's
// standings of the players registered so far, a player that registers
// next is in the Standings pane before the league starts.
func TestPlayerRegisteringWhileWaitingIsInTheStandings(t *testing.T) {
	l := newLeague(t).register(2, 1)
	m := newTestModel(t, nil, t0)
	feed(m, l)
	m.st.SetStandings(protocol.StandingsFile{LeagueID: "league_test", Standings: []protocol.StandingRow{
		{Rank: 1, PlayerID: "P01", DisplayName: "P01"}, {Rank: 2, PlayerID: "P02", DisplayName: "P02"}}})
	l.add(engine.Event{Kind: engine.EventAgentRegistered, Agent: &engine.AgentInfo{ID: "P03", Role: engine.RolePlayer,
		DisplayName: "newcomer", Endpoint: "http://127.0.0.1:8103/mcp"}})
	feed(m, l)
	var ids []string
	for _, r := range m.st.Standings() {
		ids = append(ids, r.PlayerID)
	}
	if len(ids) != 3 || !strings.Contains(m.screen(), "P03") {
		t.Errorf("standings %v after P03 registered; want P01, P02 and P03 on screen:\n%s", ids, m.screen())
	}
}
