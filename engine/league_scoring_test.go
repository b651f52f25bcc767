package engine

import (
	"encoding/json"
	"testing"
)

// TestLeagueScoresAsItStarted: a league_started that names the points is
// scored with them, whatever points the League was made with, so that a
// replay of the journal (the console's, the report's, a manager restarted
// with other settings) gives the table the league gave; one that names
// none keeps the League's.
func TestLeagueScoresAsItStarted(t *testing.T) {
	own := Scoring{Win: 2, Draw: 1, Loss: 0, TechnicalLoss: -1}
	for _, tc := range []struct {
		name    string
		started *Scoring
		want    Scoring
	}{{"named", &own, own}, {"none", nil, DefaultScoring()}} {
		t.Run(tc.name, func(t *testing.T) {
			l := NewLeague("L", DefaultScoring())
			ids := []string{"P01", "P02"}
			for _, id := range ids {
				mustApply(t, l, Event{Kind: EventAgentRegistered, Agent: &AgentInfo{ID: id, Role: RolePlayer, Endpoint: id}})
			}
			start, err := NewStartInfo(FormatSpec{}, "even_odd", ids, 1)
			if err != nil {
				t.Fatal(err)
			}
			start.Scoring = tc.started
			// As the journal keeps it: the start goes through JSON.
			raw, err := json.Marshal(start)
			if err != nil {
				t.Fatal(err)
			}
			var read StartInfo
			if err := json.Unmarshal(raw, &read); err != nil {
				t.Fatal(err)
			}
			mustApply(t, l, Event{Kind: EventLeagueStarted, Start: &read})
			p := l.Round(1).Matches[0]
			r := Result{MatchID: p.MatchID, Round: 1, PlayerA: p.PlayerA, PlayerB: p.PlayerB, Status: StatusWin, Winner: p.PlayerA}
			mustApply(t, l, Event{Kind: EventMatchResult, MatchID: p.MatchID, Result: &r})
			winner, _ := l.Table.Row(p.PlayerA)
			loser, _ := l.Table.Row(p.PlayerB)
			if l.Table.Scoring() != tc.want || winner.Points != tc.want.Win || loser.Points != tc.want.Loss {
				t.Errorf("scoring %+v, points %d and %d; want %+v (%s)", l.Table.Scoring(), winner.Points, loser.Points,
					tc.want, raw)
			}
		})
	}
}
