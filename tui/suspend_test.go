package tui

import (
	"context"
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

// suspendedLeague is a running league in which the manager suspended P06.
func suspendedLeague(t testing.TB) *league {
	l := runningLeague(t)
	l.add(engine.Event{Kind: engine.EventPlayerSuspended, AgentID: "P06",
		Detail: "P06 suspended after 3 technical losses in a row"})
	return l
}

// TestSuspendedPlayerShown: the standings and agents panes mark a suspended
// player, and the log says why.
func TestSuspendedPlayerShown(t *testing.T) {
	m := newTestModel(t, nil, t0)
	feed(m, suspendedLeague(t))
	if line := screenLine(m.screen(), "P06"); !strings.Contains(line, "suspended") {
		t.Errorf("standings line of P06 = %q, want it marked suspended", line)
	}
	if line := screenLine(m.screen(), "P01"); strings.Contains(line, "suspended") {
		t.Errorf("standings line of P01 = %q, not suspended", line)
	}
	press(m, "tab")
	if line := screenLine(m.screen(), "P06"); !strings.Contains(line, "‖ suspended") {
		t.Errorf("agents line of P06 = %q, want ‖ suspended", line)
	}
	logged := false
	for _, e := range m.pc.State.Logs() {
		logged = logged || (e.Level == levelWarn && e.Text == "P06 suspended after 3 technical losses in a row")
	}
	if !logged {
		t.Errorf("the log does not say why P06 was suspended: %+v", m.pc.State.Logs())
	}
}

// TestRegisteringAgainLiftsSuspension follows engine.League: the same
// player registering again is in play again.
func TestRegisteringAgainLiftsSuspension(t *testing.T) {
	l := suspendedLeague(t)
	p06 := *applyAll(l).Agent("P06")
	l.add(engine.Event{Kind: engine.EventAgentRegistered, Agent: &p06.AgentInfo})
	st := applyAll(l)
	if st.Agent("P06").Suspended {
		t.Error("P06 still suspended after registering again")
	}
	for _, r := range st.Standings() {
		if r.Status != "" {
			t.Errorf("%s has status %q, want none", r.PlayerID, r.Status)
		}
	}
}

// screenLine is the first line of screen that mentions s.
func screenLine(screen, s string) string {
	for _, line := range strings.Split(screen, "\n") {
		if strings.Contains(line, s) {
			return line
		}
	}
	return ""
}

// TestStorageFailureShown: when the manager cannot write its journal the
// league shows as paused and the log gives the manager's words, as an error.
func TestStorageFailureShown(t *testing.T) {
	l := runningLeague(t)
	detail := "cannot write the league journal in data/leagues/x: file too large; the league is paused"
	l.add(engine.Event{Kind: engine.EventStorageFailed, Detail: detail})
	st := applyAll(l)
	// runningLeague has matches in flight: paused, they are left to finish.
	if st.DisplayState() != statePausing {
		t.Errorf("state %q after a storage failure, want %q", st.DisplayState(), statePausing)
	}
	logged := false
	for _, e := range st.Logs() {
		logged = logged || (e.Level == levelError && e.Text == detail)
	}
	if !logged {
		t.Errorf("the log does not show the failure as an error: %+v", st.Logs())
	}
}

// TestStorageFailureOnPage: the manager says a storage failure on the feed's
// page, not as an event (it has no sequence number). The console logs it
// once, as an error, with the command that resumes the league.
func TestStorageFailureOnPage(t *testing.T) {
	m := New(context.Background(), Options{Now: func() time.Time { return t0 }, Location: time.UTC, NoColor: true,
		HealthEvery: -1, FlashFor: time.Millisecond, ResumeCommand: "leaguetui --data ./data"})
	m.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
	l := runningLeague(t)
	page := protocol.FeedPage{Events: l.events, LastSeq: l.seq, StorageFailure: "cannot write the league journal in data/x: no space left on device"}
	m.Update(feedMsg{Page: page})
	m.Update(feedMsg{Page: protocol.FeedPage{LastSeq: l.seq, StorageFailure: page.StorageFailure}})
	want := page.StorageFailure + "; resume with: leaguetui --data ./data"
	logged := 0
	for _, e := range m.st.Logs() {
		if e.Level == levelError && e.Text == want {
			logged++
		}
	}
	if logged != 1 {
		t.Errorf("the failure is logged %d times, want once as %q: %+v", logged, want, m.st.Logs())
	}
}

// TestSuspendedRefereeShown: a referee the manager suspended for missing
// its reports is marked in the agents pane, and the log says why.
func TestSuspendedRefereeShown(t *testing.T) {
	l := runningLeague(t)
	const why = "referee REF02 suspended after 2 matches in a row without a report; its matches go to the other referees"
	l.add(engine.Event{Kind: engine.EventRefereeSuspended, AgentID: "REF02", Detail: why})
	m := newTestModel(t, nil, t0)
	feed(m, l)
	press(m, "tab")
	if line := screenLine(m.screen(), "REF02"); !strings.Contains(line, "‖ suspended") {
		t.Errorf("agents line of REF02 = %q, want ‖ suspended", line)
	}
	if line := screenLine(m.screen(), "REF01"); strings.Contains(line, "suspended") {
		t.Errorf("agents line of REF01 = %q, not suspended", line)
	}
	logged := false
	for _, e := range m.pc.State.Logs() {
		logged = logged || (e.Level == levelWarn && e.Text == why)
	}
	if !logged {
		t.Errorf("the log does not say why REF02 was suspended: %+v", m.pc.State.Logs())
	}
}

// TestManagerExitShown: when the manager the console started has exited,
// the console says so once, as an error, with how far the league got and
// the command that resumes it; while it runs, a failing feed says only
// that it retries.
func TestManagerExitShown(t *testing.T) {
	manager := ChildInfo{Name: "manager", PID: 4242, Running: true}
	m := New(context.Background(), Options{Now: func() time.Time { return t0 }, Location: time.UTC, NoColor: true,
		HealthEvery: -1, FlashFor: time.Millisecond, ResumeCommand: "leaguetui --data ./data",
		Control: control.New("http://127.0.0.1:1", ""), // never called: the test sends the feed's answers itself
		Children: func() []ChildInfo {
			return []ChildInfo{manager, {Name: "player P01", ID: "P01", PID: 4243, Running: true}}
		}})
	m.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
	l := runningLeague(t)
	m.Update(feedMsg{Page: protocol.FeedPage{Events: l.events, LastSeq: l.seq}})
	refused := errors.New("dial tcp 127.0.0.1:1: connect: connection refused")
	exitLines := func() []string {
		var lines []string
		for _, e := range m.st.Logs() {
			if e.Level == levelError && strings.Contains(e.Text, "the manager (PID 4242) exited") {
				lines = append(lines, e.Text)
			}
		}
		return lines
	}
	m.Update(feedMsg{Err: refused})
	if lines := exitLines(); len(lines) != 0 {
		t.Errorf("the manager runs, yet the log says %q", lines)
	}
	manager.Running = false
	m.Update(feedMsg{Err: refused})
	m.Update(feedMsg{Err: refused})
	done, total := m.st.Progress()
	want := fmt.Sprintf("the manager (PID 4242) exited; league at %d of %d matches, state saved; quit with q; resume with: leaguetui --data ./data",
		done, total)
	if lines := exitLines(); len(lines) != 1 || lines[0] != want {
		t.Errorf("the log says %q, want once %q", lines, want)
	}
}
