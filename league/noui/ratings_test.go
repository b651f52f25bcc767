package noui_test

import (
	"math"
	"testing"

	"github.com/leaguetui/leaguetui/engine"
)

// checkRatings checks standings.json's ratings of a completed league:
// every match fitted, one rating per row in the table's order, the
// engine's fit of the match files' results, and, for a round robin (where
// everyone meets everyone equally often, so the ratings follow the score),
// higher Elo for more score.
func checkRatings(t *testing.T, st standingsFile, matches map[string]matchFile, roundRobin bool) {
	t.Helper()
	doc := st.Ratings
	if doc == nil {
		t.Errorf("standings.json has no ratings")
		return
	}
	if doc.MatchesFitted != st.MatchesDone || len(doc.Players) != len(st.Standings) {
		t.Errorf("ratings fitted %d of %d matches, %d players for %d rows", doc.MatchesFitted, st.MatchesDone,
			len(doc.Players), len(st.Standings))
		return
	}
	var results []engine.Result
	ids := make([]string, len(st.Standings))
	for i, row := range st.Standings {
		ids[i] = row.PlayerID
	}
	for _, m := range matches {
		r := engine.Result{MatchID: m.MatchID, PlayerA: m.Players["player_A"], PlayerB: m.Players["player_B"], Status: engine.Status(m.Result.Status)}
		if m.Result.WinnerPlayerID != nil {
			r.Winner = *m.Result.WinnerPlayerID
		}
		results = append(results, r)
	}
	want := engine.FitRatings(ids, results, engine.RatingOptions{})
	score := map[string]float64{}
	for _, row := range st.Standings {
		score[row.PlayerID] = float64(row.Wins) + float64(row.Draws)/2
	}
	for i, got := range doc.Players {
		w, _ := want.Rating(ids[i])
		if got.PlayerID != ids[i] || math.Abs(got.Elo-w.Elo) > 0.01 || math.Abs(got.CI95-w.CI95) > 0.01 {
			t.Errorf("rating %d = %+v, want %s %+.2f ±%.2f", i, got, ids[i], w.Elo, w.CI95)
		}
		if i+1 < len(doc.Players) {
			next := doc.Players[i+1]
			if got.LOSNext == nil || math.Abs(*got.LOSNext-want.LOS(got.PlayerID, next.PlayerID)) > 1e-4 {
				t.Errorf("%s: LOS over %s = %v, want %.4f", got.PlayerID, next.PlayerID, got.LOSNext, want.LOS(got.PlayerID, next.PlayerID))
			}
		}
		for _, other := range doc.Players {
			if roundRobin && score[got.PlayerID] > score[other.PlayerID] && got.Elo <= other.Elo {
				t.Errorf("%s scored %.1f, more than %s's %.1f, but is rated %+.2f <= %+.2f", got.PlayerID,
					score[got.PlayerID], other.PlayerID, score[other.PlayerID], got.Elo, other.Elo)
			}
		}
	}
}
