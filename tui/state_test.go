package tui

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/leaguetui/leaguetui/agents/protocol"
	"github.com/leaguetui/leaguetui/engine"
)

func applyAll(l *league) *leagueState {
	st := newLeagueState(engine.DefaultScoring())
	for _, ev := range l.events {
		st.Apply(ev)
	}
	return st
}

func TestStateDisplayState(t *testing.T) {
	tests := []struct {
		name   string
		league func(testing.TB) *league
		want   string
	}{
		{"waiting", waitingLeague, stateWaiting},
		{"running", runningLeague, stateRunning},
		{"pausing while a match runs", pausingLeague, statePausing},
		{"paused once none runs", pausedLeague, statePaused},
		{"completed", completedLeague, stateCompleted},
		{"stopped", func(t testing.TB) *league { return runningLeague(t).kind(engine.EventStopped) }, stateStopped},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := applyAll(tt.league(t)).DisplayState(); got != tt.want {
				t.Errorf("DisplayState() = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestStateCountsAndStandings(t *testing.T) {
	l := runningLeague(t)
	st := applyAll(l)
	done, total := st.Progress()
	if done != 4 || total != 15 {
		t.Errorf("Progress() = %d/%d, want 4/15", done, total)
	}
	if st.RunningCount() != 2 || st.CurrentRound() != 2 || st.RoundsCompleted() != 1 {
		t.Errorf("running %d, current round %d, rounds completed %d; want 2, 2, 1",
			st.RunningCount(), st.CurrentRound(), st.RoundsCompleted())
	}
	running := st.Running()
	if len(running) != 2 || running[0].Index > running[1].Index || running[0].Step != "choosing" || running[1].Step != "invited" {
		t.Errorf("Running() = %+v", running)
	}
	if got := st.Recent(); len(got) != 4 || got[0].MatchID != l.rounds[1].Matches[0].MatchID {
		t.Errorf("Recent() newest first: got %d, first %v", len(got), got[0].MatchID)
	}
	rows := st.Standings()
	if len(rows) != 6 || rows[0].Points < rows[5].Points || rows[0].Rank != 1 {
		t.Errorf("Standings() = %+v", rows)
	}
}

func TestStateIgnoresReplayedEvents(t *testing.T) {
	l := runningLeague(t)
	st := applyAll(l)
	for _, ev := range l.events { // a feed that went back must not count twice
		st.Apply(ev)
	}
	if done, _ := st.Progress(); done != 4 {
		t.Errorf("after a replay, done = %d, want 4", done)
	}
}

func TestStateStopAbandonsRunning(t *testing.T) {
	st := applyAll(runningLeague(t).kind(engine.EventStopped))
	if st.RunningCount() != 0 {
		t.Errorf("running after stop = %d", st.RunningCount())
	}
	abandoned := 0
	for _, r := range st.Rounds {
		for _, m := range r.Matches {
			if m.Abandoned {
				abandoned++
			}
		}
	}
	if abandoned != 2 || st.warnings != 1 {
		t.Errorf("abandoned %d, warnings %d; want 2 and 1", abandoned, st.warnings)
	}
}

func TestStateWarnsOfTechnicalLossAndReassignment(t *testing.T) {
	st := applyAll(completedLeague(t))
	if st.warnings != 2 {
		for _, e := range st.Logs() {
			t.Log(e.Level, e.Text)
		}
		t.Fatalf("warnings = %d, want 2 (a technical loss, a reassignment)", st.warnings)
	}
	var row protocol.StandingRow
	for _, r := range st.Standings() {
		if r.TechnicalLosses > 0 {
			row = r
		}
	}
	if row.TechnicalLosses != 1 {
		t.Errorf("no technical loss in the standings: %+v", st.Standings())
	}
}

func TestStateRateAndETAIgnorePauses(t *testing.T) {
	st := newLeagueState(engine.DefaultScoring())
	l := newLeague(t).register(4, 1).start(1)
	for _, ev := range l.events {
		st.Apply(ev)
	}
	started := st.Started
	m := l.rounds[0].Matches[0]
	st.Apply(engine.Event{Seq: 100, Time: started.Add(2 * time.Second), Kind: engine.EventMatchAssigned, MatchID: m.MatchID, Referee: "REF01"})
	st.Apply(engine.Event{Seq: 101, Time: started.Add(2 * time.Second), Kind: engine.EventMatchResult, MatchID: m.MatchID,
		Result: &engine.Result{MatchID: m.MatchID, Round: 1, PlayerA: m.PlayerA, PlayerB: m.PlayerB, Status: engine.StatusDraw}})
	st.Apply(engine.Event{Seq: 102, Time: started.Add(2 * time.Second), Kind: engine.EventPaused})
	now := started.Add(12 * time.Second) // 10 s paused
	if got := st.Rate(now); got != 0.5 {
		t.Errorf("Rate while paused = %v, want 0.5 (1 match in 2 s of play)", got)
	}
	if _, ok := st.ETA(now); ok {
		t.Error("ETA while paused should be unknown")
	}
	st.Apply(engine.Event{Seq: 103, Time: now, Kind: engine.EventResumed})
	if eta, ok := st.ETA(now); !ok || eta != 10*time.Second {
		t.Errorf("ETA = %v %v, want 10s (5 matches left at 0.5/s)", eta, ok)
	}
	if got := st.Elapsed(now); got != 12*time.Second {
		t.Errorf("Elapsed = %v, want 12s", got)
	}
}

func TestStateOfficialStandingsWinWhenInStep(t *testing.T) {
	st := applyAll(runningLeague(t))
	// The manager's table: a row for each of the league's six players.
	rows := []protocol.StandingRow{{Rank: 1, PlayerID: "P99", Points: 99}}
	for i := 2; i <= 6; i++ {
		rows = append(rows, protocol.StandingRow{Rank: i, PlayerID: fmt.Sprintf("P%02d", i)})
	}
	doc := protocol.StandingsFile{LeagueID: "L", MatchesDone: 4, Standings: rows}
	st.SetStandings(doc)
	if rows := st.Standings(); rows[0].PlayerID != "P99" || st.LeagueID != "L" {
		t.Errorf("in step: got %+v", rows[0])
	}
	doc.MatchesDone = 3 // behind the feed: ours are newer
	st.SetStandings(doc)
	if rows := st.Standings(); rows[0].PlayerID == "P99" {
		t.Error("standings behind the feed should not be shown")
	}
	doc.MatchesDone, doc.Standings = 4, rows[:5] // a player short: one registered since
	st.SetStandings(doc)
	if rows := st.Standings(); rows[0].PlayerID == "P99" || len(rows) != 6 {
		t.Errorf("standings a player short should not be shown: got %d rows from %s", len(rows), rows[0].PlayerID)
	}
}

func TestRing(t *testing.T) {
	r := newRing[int](3)
	for i := 1; i <= 5; i++ {
		r.Push(i)
	}
	if got := r.OldestFirst(); len(got) != 3 || got[0] != 3 || got[2] != 5 {
		t.Errorf("OldestFirst = %v", got)
	}
	if got := r.NewestFirst(); got[0] != 5 || got[2] != 3 {
		t.Errorf("NewestFirst = %v", got)
	}
}

// TestStateApplyIsConstantPerEvent guards the per-event cost: 20,000
// results over 200 players apply without the work growing with the league
// (a quadratic Apply would take minutes here).
func TestStateApplyIsConstantPerEvent(t *testing.T) {
	if testing.Short() {
		t.Skip("long")
	}
	l := newLeague(t).register(200, 8).start(7)
	st := applyAll(l)
	start := time.Now()
	seq := l.seq
	for _, r := range l.rounds {
		for i, p := range r.Matches {
			seq++
			ref := "REF0" + string(rune('1'+i%8))
			st.Apply(engine.Event{Seq: seq, Time: t0, Kind: engine.EventMatchAssigned, MatchID: p.MatchID, Referee: ref})
			seq++
			st.Apply(engine.Event{Seq: seq, Time: t0, Kind: engine.EventMatchResult, MatchID: p.MatchID, Referee: ref,
				Result: &engine.Result{MatchID: p.MatchID, Round: p.Round, PlayerA: p.PlayerA, PlayerB: p.PlayerB, Status: engine.StatusWin, Winner: p.PlayerA}})
		}
	}
	if done, total := st.Progress(); done != total || total != 19900 {
		t.Fatalf("progress %d/%d", done, total)
	}
	if d := time.Since(start); d > 10*time.Second {
		t.Errorf("applying 39,800 events took %v", d)
	}
}

// TestRestartedManagerShowsNothingRunning (issue 14, item 3): after the
// manager restarts on its journal and holds the league paused, the matches
// that were running when it went down are neither running nor counted, and
// given again to the same referee they are not "reassigned from REF01 to
// REF01".
func TestRestartedManagerShowsNothingRunning(t *testing.T) {
	l := pausingLeague(t)
	m := l.rounds[1].Matches[0]
	l.add(engine.Event{Kind: engine.EventRestarted, Detail: "manager restarted: 1 running matches are played again"})
	l.add(engine.Event{Kind: engine.EventResumed, Detail: "by the admin"})
	model := newTestModel(t, nil, t0)
	feed(model, l)
	if got := model.st.DisplayState(); got != stateRunning || model.st.RunningCount() != 0 {
		t.Fatalf("after the restart: state %q, %d running; want running, 0", got, model.st.RunningCount())
	}
	if line := screenLine(model.screen(), "running ·"); !strings.Contains(line, "0 running") {
		t.Errorf("header %q, want 0 running", line)
	}
	press(model, "q")
	if model.confirm != confirmNone || !model.quitting {
		t.Errorf("q after a restart asked about running matches")
	}
	l.begin(m.MatchID, "REF01", "invited")
	model = newTestModel(t, nil, t0)
	feed(model, l)
	for _, e := range model.st.Logs() {
		if strings.Contains(e.Text, "reassigned") || strings.Contains(e.Text, "again: its first try") {
			t.Errorf("log after the restart: %q", e.Text)
		}
	}
	if model.st.RunningCount() != 1 || model.st.Match(m.MatchID).Step != "invited" {
		t.Errorf("played again: %d running, step %q", model.st.RunningCount(), model.st.Match(m.MatchID).Step)
	}
}

// TestResultsAfterStopAreLeftOut (issue 14, item 4): the stop abandons the
// running matches; a result reported after it changes no count, so the
// header, the log line of the stop and the standings agree.
func TestResultsAfterStopAreLeftOut(t *testing.T) {
	l := runningLeague(t).kind(engine.EventStopped)
	running := l.rounds[1].Matches[1]
	l.finish(running.MatchID, "REF02", running.PlayerA)
	model := newTestModel(t, nil, t0)
	feed(model, l)
	done, total := model.st.Progress()
	if done != 4 || total != 15 {
		t.Fatalf("progress %d/%d after a result past the stop, want 4/15", done, total)
	}
	var stopLine string
	for _, e := range model.st.Logs() {
		if strings.Contains(e.Text, "league stopped") {
			stopLine = e.Text
		}
	}
	if !strings.Contains(stopLine, "4 of 15 matches played, 2 running matches abandoned") {
		t.Errorf("stop logged as %q", stopLine)
	}
	if line := screenLine(model.screen(), "matches "); !strings.Contains(line, "matches 4/15") {
		t.Errorf("header %q, want matches 4/15", line)
	}
	if !model.st.Match(running.MatchID).Abandoned {
		t.Errorf("%s not shown abandoned", running.MatchID)
	}
}
