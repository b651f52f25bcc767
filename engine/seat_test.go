package engine

import (
	"math"
	"testing"
)

// seatGames is a double round robin of 6 players 100 Elo apart played 10
// times, each game won with the Bradley–Terry probability of the strength
// difference plus bias for the first seat (PlayerA), from the seed.
func seatGames(bias float64, seed int64) ([]string, []Result) {
	strengths := spaced(6)
	ids := players(6)
	rounds, _, _ := Schedule(FormatSpec{Format: FormatDoubleRoundRobin, GamesPerPair: 10}, ids, seed)
	var results []Result
	for _, r := range rounds {
		for _, p := range r.Matches {
			res := Result{MatchID: p.MatchID, PlayerA: p.PlayerA, PlayerB: p.PlayerB, Status: StatusWin, Winner: p.PlayerB}
			if MatchRand(seed, p.MatchID, "seat").Float64() < EloExpected((strengths[p.PlayerA]-strengths[p.PlayerB])/2+bias) {
				res.Winner = p.PlayerA
			}
			results = append(results, res)
		}
	}
	return ids, results
}

// TestSeatAdvantageFindsAKnownBias: with a first seat 100 Elo stronger
// the fitted advantage's interval holds 100 in most of 20 seeds (17 or
// more), and without a bias it holds 0 as often; the interval is about
// what 300 games give (some 40 to 50 Elo), and a seat that wins every
// game has none.
func TestSeatAdvantageFindsAKnownBias(t *testing.T) {
	for _, bias := range []float64{0, 100} {
		covered := 0
		for seed := int64(1); seed <= 20; seed++ {
			ids, results := seatGames(bias, seed)
			seat := FitRatings(ids, results, RatingOptions{}).Seat
			if !seat.Known || seat.Games != len(results) || seat.CI95 < 35 || seat.CI95 > 60 {
				t.Fatalf("bias %g, seed %d: %+v over %d games", bias, seed, seat, len(results))
			}
			if math.Abs(seat.Elo-bias) <= seat.CI95 {
				covered++
			}
		}
		t.Logf("bias %g: covered in %d of 20 seeds", bias, covered)
		if covered < 17 {
			t.Errorf("bias %g: the interval held it in %d of 20 seeds", bias, covered)
		}
	}
	ids := []string{"A", "B"}
	all := []Result{{PlayerA: "A", PlayerB: "B", Status: StatusWin, Winner: "A"}, {PlayerA: "B", PlayerB: "A", Status: StatusWin, Winner: "B"}}
	if seat := FitRatings(ids, all, RatingOptions{}).Seat; seat.Known {
		t.Errorf("every game won by the first seat: %+v", seat)
	}
}
