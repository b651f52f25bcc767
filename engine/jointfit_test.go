package engine

import (
	"fmt"
	"math"
	"os"
	"strings"
	"testing"
)

// davidsonLeague is a double round robin of 6 players 100 Elo apart
// played 4 times (120 games, seats alternating), each game drawn from
// Davidson's model with the first seat seat Elo stronger and draw
// parameter nu, from the seed.
func davidsonLeague(seed int64, seat, nu float64) ([]string, []Result) {
	ids := players(6)
	rounds, _, _ := Schedule(FormatSpec{Format: FormatDoubleRoundRobin, GamesPerPair: 4}, ids, seed)
	var results []Result
	for _, r := range rounds {
		for _, p := range r.Matches {
			u := (float64(250-100*playerIndex(ids, p.PlayerA)) + seat) / eloPerNatural
			v := float64(250-100*playerIndex(ids, p.PlayerB)) / eloPerNatural
			a, b, c := math.Exp(u), math.Exp(v), nu*math.Exp((u+v)/2)
			res := Result{MatchID: p.MatchID, PlayerA: p.PlayerA, PlayerB: p.PlayerB, Status: StatusWin, Winner: p.PlayerA}
			switch x := MatchRand(seed, p.MatchID, "davidson").Float64() * (a + b + c); {
			case x >= a+c:
				res.Winner = p.PlayerB
			case x >= a:
				res.Status, res.Winner = StatusDraw, ""
			}
			results = append(results, res)
		}
	}
	return ids, results
}

func playerIndex(ids []string, id string) int {
	for i, p := range ids {
		if p == id {
			return i
		}
	}
	return -1
}

// TestJointFitCoversTheSeatAndTheDraws fits 200 seeded leagues drawn from
// the model (first seat +80 Elo, ν = 1: equal players draw a third of
// their games) and checks that the 95 % intervals of η and of ν hold the
// truth 92–98 % of the time, that the estimates average near it, and
// that docs/ratings.md gives the figure.
func TestJointFitCoversTheSeatAndTheDraws(t *testing.T) {
	const leagues, seat, nu = 200, 80.0, 1.0
	seatHeld, nuHeld := 0, 0
	seatSum, nuSum := 0.0, 0.0
	for seed := int64(1); seed <= leagues; seed++ {
		ids, results := davidsonLeague(seed, seat, nu)
		fit := FitSeatAndDraws(ids, results, RatingOptions{})
		if !fit.Known || !fit.Seat.Known || !fit.Draw.Known || fit.Games != len(results) {
			t.Fatalf("seed %d: %+v", seed, fit)
		}
		seatHeld += b2i(math.Abs(fit.Seat.Elo-seat) <= fit.Seat.CI95)
		nuHeld += b2i(fit.Draw.Low <= nu && nu <= fit.Draw.High)
		seatSum, nuSum = seatSum+fit.Seat.Elo, nuSum+fit.Draw.Nu
		if math.Abs(fit.Draw.EqualDraw-fit.Draw.Nu/(2+fit.Draw.Nu)) > 1e-12 {
			t.Errorf("seed %d: equal players draw %v with ν %v", seed, fit.Draw.EqualDraw, fit.Draw.Nu)
		}
	}
	figure := jointFitFigure(leagues, seatHeld, nuHeld, seatSum, nuSum)
	t.Logf("%s", figure)
	if page, err := os.ReadFile("../docs/ratings.md"); err != nil || !strings.Contains(strings.Join(strings.Fields(string(page)), " "), figure) {
		t.Errorf("docs/ratings.md does not say %q (%v)", figure, err)
	}
	for name, held := range map[string]int{"seat": seatHeld, "draw": nuHeld} {
		if p := float64(held) / leagues; p < 0.92 || p > 0.98 {
			t.Errorf("the %s interval held the truth in %d of %d leagues", name, held, leagues)
		}
	}
	if math.Abs(seatSum/leagues-seat) > 10 || math.Abs(nuSum/leagues-nu) > 0.1 {
		t.Errorf("mean seat %.1f Elo (truth %g), mean ν %.3f (truth %g)", seatSum/leagues, seat, nuSum/leagues, nu)
	}
}

// jointFitFigure is the sentence docs/ratings.md gives for the test.
func jointFitFigure(leagues, seatHeld, nuHeld int, seatSum, nuSum float64) string {
	return fmt.Sprintf("over %d leagues the seat's 95 %% interval held +80 Elo in %d and ν's held 1 in %d; the estimates averaged %+.1f Elo and %.3f",
		leagues, seatHeld, nuHeld, seatSum/float64(leagues), nuSum/float64(leagues))
}

// TestJointFitWithoutDraws: games without a draw fit the seat alone (ν
// 0, Draw not known), its interval no narrower than the seat fitted after
// the ratings, which leaves out their uncertainty; and results that do
// not link the players both ways give no joint fit.
func TestJointFitWithoutDraws(t *testing.T) {
	ids, results := davidsonLeague(7, 100, 0)
	fit := FitSeatAndDraws(ids, results, RatingOptions{})
	after := FitRatings(ids, results, RatingOptions{}).Seat
	if !fit.Known || !fit.Seat.Known || fit.Draw.Known || fit.Draw.Nu != 0 {
		t.Fatalf("no draws: %+v", fit)
	}
	if fit.Seat.CI95 < after.CI95 || math.Abs(fit.Seat.Elo-after.Elo) > after.CI95 {
		t.Errorf("joint seat %.1f ± %.1f, fitted after the ratings %.1f ± %.1f", fit.Seat.Elo, fit.Seat.CI95, after.Elo, after.CI95)
	}
	t.Logf("joint seat %.1f ± %.1f, fitted after the ratings %.1f ± %.1f", fit.Seat.Elo, fit.Seat.CI95, after.Elo, after.CI95)
	oneWay := []Result{{PlayerA: "P01", PlayerB: "P02", Status: StatusWin, Winner: "P01"}, {PlayerA: "P02", PlayerB: "P01", Status: StatusWin, Winner: "P01"}}
	if got := FitSeatAndDraws([]string{"P01", "P02"}, oneWay, RatingOptions{}); got.Known || got.Games != 2 {
		t.Errorf("a perfect score: %+v", got)
	}
	if got := FitSeatAndDraws(ids, nil, RatingOptions{}); got.Known {
		t.Errorf("no games: %+v", got)
	}
}
