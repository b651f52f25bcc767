package faults_test

import (
	"context"
	"math"
	"testing"

	"github.com/leaguetui/leaguetui/engine"
)

// TestRatingsServedByManager plays the crash league (five real players)
// and reads the ratings from the manager while it plays and at the end:
// mid-league GET /standings carries a fit of at most the results in, and
// at the end GET /standings and GET /los give the engine's fit of every
// result: each player's Elo and interval, and its likelihood of
// superiority over every other player.
func TestRatingsServedByManager(t *testing.T) {
	t.Parallel()
	l := startCrashLeague(t)
	ctx := context.Background()
	_, _, _ = l.inFlight(t, 0, "", 3)
	mid, err := l.ctl.Standings(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if mid.Ratings == nil || mid.Ratings.MatchesFitted > mid.MatchesDone || len(mid.Ratings.Players) != len(mid.Standings) {
		t.Errorf("mid-league ratings %+v for %d matches done", mid.Ratings, mid.MatchesDone)
	}
	all := results(finishFeed(t, l.ctl, 0))
	final, err := l.ctl.Standings(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, row := range final.Standings {
		ids = append(ids, row.PlayerID)
	}
	want := engine.FitRatings(ids, all, engine.RatingOptions{})
	if final.Ratings == nil || final.Ratings.MatchesFitted != len(all) {
		t.Fatalf("final ratings %+v for %d results", final.Ratings, len(all))
	}
	for _, got := range final.Ratings.Players {
		w, _ := want.Rating(got.PlayerID)
		if math.Abs(got.Elo-w.Elo) > 0.01 || math.Abs(got.CI95-w.CI95) > 0.01 {
			t.Errorf("%s: %+.2f ±%.2f, the engine gives %+.2f ±%.2f", got.PlayerID, got.Elo, got.CI95, w.Elo, w.CI95)
		}
	}
	for _, id := range ids {
		doc, err := l.ctl.LOS(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		if doc.PlayerID != id || len(doc.Versus) != len(ids)-1 {
			t.Errorf("LOS of %s: %+v", id, doc)
		}
		for _, v := range doc.Versus {
			if los := want.LOS(id, v.PlayerID); math.Abs(v.LOS-los) > 1e-4 {
				t.Errorf("LOS of %s over %s = %.4f, the engine gives %.4f", id, v.PlayerID, v.LOS, los)
			}
		}
	}
	if _, err := l.ctl.LOS(ctx, "nobody"); err == nil {
		t.Errorf("GET /los of an unknown player answered")
	}
	stopManager(t, l.manager)
}
