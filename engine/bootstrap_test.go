package engine

import (
	"slices"
	"testing"
)

// TestBootstrapIsTheSeeds: the same seed and results give the same
// intervals, another seed others; each interval holds the player's rating
// and is about as wide as the analytic one on a league of many games.
func TestBootstrapIsTheSeeds(t *testing.T) {
	sim := simulate(t, FormatSpec{Format: FormatDoubleRoundRobin, GamesPerPair: 8}, spaced(4), 3, nil)
	results := slices.Collect(sim.l.RecordedResults().All())
	ids := sim.l.PlayerIDs()
	a := BootstrapRatings(ids, results, RatingOptions{}, 100, 7)
	b := BootstrapRatings(ids, results, RatingOptions{}, 100, 7)
	c := BootstrapRatings(ids, results, RatingOptions{}, 100, 8)
	if !slices.Equal(a, b) {
		t.Fatalf("the same seed gave %+v and %+v", a, b)
	}
	if slices.Equal(a, c) {
		t.Errorf("seeds 7 and 8 gave the same intervals %+v", a)
	}
	fit := FitRatings(ids, results, RatingOptions{})
	for i, iv := range a {
		r, _ := fit.Rating(iv.PlayerID)
		width := (iv.High - iv.Low) / 2
		t.Logf("%s: elo %.1f ± %.1f, bootstrap [%.1f, %.1f] (± %.1f)", iv.PlayerID, r.Elo, r.CI95, iv.Low, iv.High, width)
		if !iv.Rated || iv.PlayerID != ids[i] || iv.Low > r.Elo || iv.High < r.Elo || width < r.CI95/2 || width > 2*r.CI95 {
			t.Errorf("%s: bootstrap %+v beside elo %.1f ± %.1f", iv.PlayerID, iv, r.Elo, r.CI95)
		}
	}
}

func TestQuantileIsLinearBetweenNeighbours(t *testing.T) {
	v := []float64{0, 10, 20, 30, 40}
	for q, want := range map[float64]float64{0: 0, 0.5: 20, 0.125: 5, 1: 40, 0.975: 39} {
		if got := quantile(v, q); got != want {
			t.Errorf("quantile %g = %g, want %g", q, got, want)
		}
	}
}

// BenchmarkBootstrapRatings is the report's bootstrap of a 100-player
// round robin (4,950 games): 200 resamples, a fit each. It reports
// seconds per bootstrap.
//
//	go test -run '^$' -bench BootstrapRatings -benchtime 1x ./engine
func BenchmarkBootstrapRatings(b *testing.B) {
	ids, res := syntheticLeague(100, 0)
	for b.Loop() {
		BootstrapRatings(ids, res, RatingOptions{}, DefaultBootstrapResamples, 1)
	}
	b.ReportMetric(b.Elapsed().Seconds()/float64(b.N), "s/bootstrap")
}
