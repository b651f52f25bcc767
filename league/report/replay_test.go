package report_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/leaguetui/leaguetui/agents/store"
	"github.com/leaguetui/leaguetui/engine"
	"github.com/leaguetui/leaguetui/league/report"
)

// A journal an older leaguetui wrote, in a folder without standings.json:
// its league_started names no points and a result came after the stop.
// The report replays it as the manager would: the late result is left
// out and said so, the match that ran at the stop is abandoned, and the
// table, scored with the default points, says that it is.
func TestReplayOfAnOlderJournal(t *testing.T) {
	dir := t.TempDir()
	layout, err := store.NewLayout(dir, "old")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Dir(layout.Journal()), 0o755); err != nil {
		t.Fatal(err)
	}
	ids := []string{"P01", "P02", "P03"}
	start, err := engine.NewStartInfo(engine.FormatSpec{}, "even_odd", ids, 9)
	if err != nil {
		t.Fatal(err)
	}
	rounds, err := start.Schedule()
	if err != nil {
		t.Fatal(err)
	}
	won, running, late := rounds[0].Matches[0], rounds[1].Matches[0], rounds[2].Matches[0]
	events := []engine.Event{{Kind: engine.EventAgentRegistered, Agent: &engine.AgentInfo{ID: "REF01", Role: engine.RoleReferee, Endpoint: "r"}}}
	for _, id := range ids {
		events = append(events, engine.Event{Kind: engine.EventAgentRegistered,
			Agent: &engine.AgentInfo{ID: id, Role: engine.RolePlayer, DisplayName: "name " + id, Endpoint: id}})
	}
	events = append(events, engine.Event{Kind: engine.EventLeagueStarted, Start: start},
		assign(won), result(won, won.PlayerA), assign(running), assign(late),
		engine.Event{Kind: engine.EventStopped}, result(late, late.PlayerB))
	journal, _, err := store.OpenJournal(layout.Journal())
	if err != nil {
		t.Fatal(err)
	}
	at := time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC)
	for i, ev := range events {
		ev.Seq, ev.Time = int64(i+1), at.Add(time.Duration(i)*time.Second)
		if err := journal.Append(ev); err != nil {
			t.Fatal(err)
		}
	}
	if err := journal.Close(); err != nil {
		t.Fatal(err)
	}

	l, err := report.Load(dir, "")
	if err != nil {
		t.Fatal(err)
	}
	statuses := map[string]string{}
	for _, m := range l.Matches {
		statuses[m.MatchID] = m.Status()
	}
	if l.State != engine.LeagueStopped || len(l.Matches) != 3 || statuses[won.MatchID] != "WIN" ||
		statuses[running.MatchID] != "ABANDONED" || statuses[late.MatchID] != "ABANDONED" || l.Played() != 1 {
		t.Errorf("state %s, %d matches, statuses %v, %d played", l.State, len(l.Matches), statuses, l.Played())
	}
	top := l.Standings.Standings[0]
	if top.PlayerID != won.PlayerA || top.Points != engine.DefaultScoring().Win || top.DisplayName != "name "+won.PlayerA ||
		l.Standings.MatchesDone != 1 || l.Ratings[0].PlayerID != top.PlayerID || l.Ratings[0].Games != 1 {
		t.Errorf("table %+v, ratings %+v", l.Standings.Standings, l.Ratings)
	}
	problems := strings.Join(l.Problems, "\n")
	for _, want := range []string{"journal record 11 is left out: match_result: the league is stopped",
		"the table is scored with the default points (win 3, draw 1, loss 0), and the folder has no standings.json"} {
		if !strings.Contains(problems, want) {
			t.Errorf("the problems lack %q:\n%s", want, problems)
		}
	}
}

func assign(p engine.Pairing) engine.Event {
	return engine.Event{Kind: engine.EventMatchAssigned, Round: p.Round, MatchID: p.MatchID, Referee: "REF01"}
}

func result(p engine.Pairing, winner string) engine.Event {
	r := engine.Result{MatchID: p.MatchID, Round: p.Round, PlayerA: p.PlayerA, PlayerB: p.PlayerB, Status: engine.StatusWin, Winner: winner}
	return engine.Event{Kind: engine.EventMatchResult, Round: p.Round, MatchID: p.MatchID, Referee: "REF01", Result: &r,
		Facts: &engine.MatchFacts{Reason: "drawn"}}
}
