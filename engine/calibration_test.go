package engine

import (
	"fmt"
	"math"
	"os"
	"strings"
	"testing"
)

// The calibration of the ratings' intervals: many seeded leagues of
// players of known strengths, and how often each interval holds the
// truth. docs/ratings.md and docs/formats.md carry the table
// calibrationTable writes, and TestCalibrationTableIsThePages holds the
// pages to it.

// calibrationLeague is a double round robin of 6 players 100 Elo apart
// played 3 times (90 games), each game won with the Bradley–Terry
// probability of the strength difference plus 30 Elo for the first seat,
// from the seed: the players' ids, the results and the true ratings
// (mean 0, as the fit's).
func calibrationLeague(seed int64) ([]string, []Result, map[string]float64) {
	ids := players(6)
	truth := map[string]float64{}
	for i, id := range ids {
		truth[id] = float64(250 - 100*i)
	}
	rounds, _, _ := Schedule(FormatSpec{Format: FormatDoubleRoundRobin, GamesPerPair: 3}, ids, seed)
	var results []Result
	for _, r := range rounds {
		for _, p := range r.Matches {
			res := Result{MatchID: p.MatchID, PlayerA: p.PlayerA, PlayerB: p.PlayerB, Status: StatusWin, Winner: p.PlayerB}
			if MatchRand(seed, p.MatchID, "calibration").Float64() < EloExpected(truth[p.PlayerA]-truth[p.PlayerB]+30) {
				res.Winner = p.PlayerA
			}
			results = append(results, res)
		}
	}
	return ids, results, truth
}

// calibration counts, over leagues seeds, how often the analytic 95 %
// interval, the bootstrap one (resamples each) and the rank interval hold
// each player's true rating and rank, and the intervals' mean widths.
type calibration struct {
	leagues, resamples, intervals            int
	analytic, bootstrap, ranks               int
	analyticWidth, bootstrapWidth, rankWidth float64
}

func calibrate(leagues, resamples int) calibration {
	c := calibration{leagues: leagues, resamples: resamples}
	for seed := int64(1); seed <= int64(leagues); seed++ {
		ids, results, truth := calibrationLeague(seed)
		fit := FitRatings(ids, results, RatingOptions{})
		boot := BootstrapRatings(ids, results, RatingOptions{}, resamples, seed)
		for i, id := range ids {
			r, _ := fit.Rating(id)
			c.intervals++
			c.analytic += b2i(math.Abs(r.Elo-truth[id]) <= r.CI95)
			c.bootstrap += b2i(boot[i].Rated && boot[i].Low <= truth[id] && truth[id] <= boot[i].High)
			c.analyticWidth += 2 * r.CI95
			c.bootstrapWidth += boot[i].High - boot[i].Low
		}
		for _, iv := range RankIntervals(fit) {
			trueRank := 1 + int((250-truth[iv.PlayerID])/100)
			c.ranks += b2i(iv.Best <= trueRank && trueRank <= iv.Worst)
			c.rankWidth += float64(iv.Worst - iv.Best + 1)
		}
	}
	return c
}

func (c calibration) percent(n int) float64 { return 100 * float64(n) / float64(c.intervals) }

// calibrationTable is the table docs/ratings.md carries.
func calibrationTable(c calibration) string {
	n := float64(c.intervals)
	return fmt.Sprintf(`| interval | holds the truth | mean width |
|---|---|---|
| analytic 95 %% (the fit's standard errors) | %.1f %% | %.0f Elo |
| bootstrap 95 %% (%d resamples) | %.1f %% | %.0f Elo |
| rank interval | %.1f %% | %.2f ranks |
`, c.percent(c.analytic), c.analyticWidth/n, c.resamples, c.percent(c.bootstrap), c.bootstrapWidth/n, c.percent(c.ranks), c.rankWidth/n)
}

// TestCalibrationTableIsThePages computes the calibration over 200
// leagues (1,200 intervals of each kind) and checks that docs/ratings.md
// and docs/formats.md carry its table, and that each 95 % interval holds the truth 93–97 %
// of the time.
func TestCalibrationTableIsThePages(t *testing.T) {
	if testing.Short() {
		t.Skip("200 leagues, 40,000 bootstrap fits")
	}
	c := calibrate(200, 200)
	table := calibrationTable(c)
	t.Logf("\n%s", table)
	for _, name := range []string{"ratings.md", "formats.md"} {
		page, err := os.ReadFile("../docs/" + name)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(page), table) {
			t.Errorf("docs/%s does not carry the calibration table; it is now\n%s", name, table)
		}
	}
	for name, held := range map[string]int{"analytic": c.analytic, "bootstrap": c.bootstrap} {
		if p := c.percent(held); p < 93 || p > 97 {
			t.Errorf("the %s interval held the truth %.1f %% of the time", name, p)
		}
	}
}
