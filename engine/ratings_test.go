package engine

import (
	"fmt"
	"math"
	"math/rand/v2"
	"reflect"
	"testing"
)

// games makes w wins, d draws and l losses of a against b, as results.
func games(a, b string, w, d, l int) []Result {
	var out []Result
	add := func(status Status, winner string) {
		out = append(out, Result{MatchID: fmt.Sprintf("%s-%s-%d", a, b, len(out)), PlayerA: a, PlayerB: b, Status: status, Winner: winner})
	}
	for range w {
		add(StatusWin, a)
	}
	for range d {
		add(StatusDraw, "")
	}
	for range l {
		add(StatusWin, b)
	}
	return out
}

func near(t *testing.T, what string, got, want, tol float64) {
	t.Helper()
	if math.Abs(got-want) > tol {
		t.Errorf("%s = %.4f, want %.4f (±%g)", what, got, want, tol)
	}
}

func TestEloScaleCheckValues(t *testing.T) {
	near(t, "E(100)", EloExpected(100), 0.64006, 1e-5)
	near(t, "E(200)", EloExpected(200), 0.75975, 1e-5)
	near(t, "E(400)", EloExpected(400), 0.90909, 1e-5)
	near(t, "d(0.75)", EloFromScore(0.75), 190.85, 0.01)
	near(t, "d(0.6)", EloFromScore(0.6), 70.44, 0.01)
	near(t, "d(0.9)", EloFromScore(0.9), 381.70, 0.01)
}

// Two players, 75 % for A: the lead is 400·log10(3) = +190.85 whatever the
// mix of wins and draws, split ±95.42 around the mean.
func TestTwoPlayersClosedForm(t *testing.T) {
	for _, res := range [][]Result{games("A", "B", 3, 0, 1), games("A", "B", 10, 10, 0), games("B", "A", 1, 0, 3)} {
		r := FitRatings([]string{"A", "B"}, res, RatingOptions{})
		a, _ := r.Rating("A")
		b, _ := r.Rating("B")
		near(t, "A-B", a.Elo-b.Elo, 190.85, 0.01)
		near(t, "mean", a.Elo+b.Elo, 0, 1e-9)
		if r.Prior {
			t.Errorf("prior used for linked results")
		}
	}
	// 50-50 over 100 games: SE(d) = 173.72/√(100·¼) = 34.74.
	r := FitRatings([]string{"A", "B"}, games("A", "B", 50, 0, 50), RatingOptions{})
	near(t, "SE(A-B)", r.DifferenceSE("A", "B"), 34.74, 0.01)
	a, _ := r.Rating("A")
	near(t, "CI95(A)", a.CI95, 1.96*34.74/2, 0.05) // a mean-0 rating moves half the difference
	near(t, "LOS even", r.LOS("A", "B"), 0.5, 1e-9)
}

// The worked example of the ratings notes (10 games per pair).
func TestWorkedExample(t *testing.T) {
	var res []Result
	res = append(res, games("A", "B", 5, 3, 2)...)
	res = append(res, games("B", "C", 5, 2, 3)...)
	res = append(res, games("A", "C", 6, 2, 2)...)
	r := FitRatings([]string{"A", "B", "C"}, res, RatingOptions{})
	for id, want := range map[string]float64{"A": 85.27, "B": -12.20, "C": -73.07} {
		got, _ := r.Rating(id)
		near(t, id, got.Elo, want, 0.01)
	}
	near(t, "SE(B-A)", r.DifferenceSE("B", "A"), 93.90, 0.01)
	near(t, "SE(C-A)", r.DifferenceSE("C", "A"), 96.68, 0.01)
	near(t, "SE(B-C)", r.DifferenceSE("B", "C"), 92.72, 0.01)
	near(t, "LOS(B>C)", r.LOS("B", "C"), 0.744, 0.001)
	near(t, "LOS(C>B)", r.LOS("C", "B"), 1-0.744, 0.001)
	if r.Games != 30 {
		t.Errorf("games = %d, want 30", r.Games)
	}
}

// An independent computation: Zermelo's MM iteration (a different
// algorithm from the fit's Newton steps) on a random 6-player table must
// give the same ratings, and at the optimum each player's expected score
// equals its actual score.
func TestMatchesIndependentFit(t *testing.T) {
	players := []string{"P1", "P2", "P3", "P4", "P5", "P6"}
	rng := rand.New(rand.NewPCG(7, 7))
	var res []Result
	for i := range players {
		for j := i + 1; j < len(players); j++ {
			res = append(res, games(players[i], players[j], 1+rng.IntN(4), rng.IntN(3), 1+rng.IntN(4))...)
		}
	}
	r := FitRatings(players, res, RatingOptions{})
	want := zermelo(players, res)
	for i, p := range players {
		got, _ := r.Rating(p)
		near(t, p, got.Elo, want[i], 1e-6)
	}
}

// zermelo fits γ_i ← S_i / Σ_j n_ij/(γ_i+γ_j) until it settles, then maps
// to mean-0 Elo.
func zermelo(players []string, res []Result) []float64 {
	idx := map[string]int{}
	for i, p := range players {
		idx[p] = i
	}
	n := len(players)
	games := make([][]float64, n)
	for i := range games {
		games[i] = make([]float64, n)
	}
	score := make([]float64, n)
	for _, r := range res {
		a, b := idx[r.PlayerA], idx[r.PlayerB]
		games[a][b]++
		games[b][a]++
		switch r.Winner {
		case r.PlayerA:
			score[a]++
		case r.PlayerB:
			score[b]++
		default:
			score[a] += 0.5
			score[b] += 0.5
		}
	}
	gamma := make([]float64, n)
	for i := range gamma {
		gamma[i] = 1
	}
	for range 100000 {
		next := make([]float64, n)
		for i := range n {
			den := 0.0
			for j := range n {
				if games[i][j] > 0 {
					den += games[i][j] / (gamma[i] + gamma[j])
				}
			}
			next[i] = score[i] / den
		}
		copy(gamma, next)
	}
	elo := make([]float64, n)
	mean := 0.0
	for i := range gamma {
		elo[i] = 400 * math.Log10(gamma[i])
		mean += elo[i] / float64(n)
	}
	for i := range elo {
		elo[i] -= mean
	}
	return elo
}

// A perfect score has no finite maximum: the prior keeps it finite, the
// winner first, and says it was used.
func TestPerfectScoreUsesPrior(t *testing.T) {
	r := FitRatings([]string{"A", "B", "C"}, games("A", "B", 5, 0, 0), RatingOptions{})
	a, _ := r.Rating("A")
	b, _ := r.Rating("B")
	c, _ := r.Rating("C")
	if !r.Prior || !(a.Elo > b.Elo) || math.IsInf(a.Elo, 0) || math.IsNaN(a.CI95) {
		t.Fatalf("ratings %+v %+v, prior %v", a, b, r.Prior)
	}
	if c.Rated || c.Games != 0 {
		t.Errorf("C without games is rated: %+v", c)
	}
	if r.LOS("A", "B") <= 0.5 || r.LOS("A", "C") != 0.5 {
		t.Errorf("LOS A>B %.3f, A>C %.3f", r.LOS("A", "B"), r.LOS("A", "C"))
	}
}

// Technical losses count as losses unless excluded; a double technical
// loss never counts.
func TestTechnicalLosses(t *testing.T) {
	res := append(games("A", "B", 1, 0, 1),
		Result{MatchID: "t1", PlayerA: "A", PlayerB: "B", Status: StatusTechnicalLoss, Winner: "A", Offenders: []string{"B"}},
		Result{MatchID: "t2", PlayerA: "A", PlayerB: "B", Status: StatusTechnicalLoss, Offenders: []string{"A", "B"}})
	counted := FitRatings([]string{"A", "B"}, res, RatingOptions{})
	if counted.Games != 3 {
		t.Errorf("games counted = %d, want 3", counted.Games)
	}
	a, _ := counted.Rating("A")
	near(t, "A with technical", 2*a.Elo, EloFromScore(2.0/3), 0.01)
	excluded := FitRatings([]string{"A", "B"}, res, RatingOptions{ExcludeTechnical: true})
	a, _ = excluded.Rating("A")
	if excluded.Games != 2 || math.Abs(a.Elo) > 1e-9 {
		t.Errorf("excluded: games %d, A %.3f", excluded.Games, a.Elo)
	}
}

// The order of results does not change the fit.
func TestFitDeterministic(t *testing.T) {
	res := append(append(games("A", "B", 5, 3, 2), games("B", "C", 5, 2, 3)...), games("C", "A", 2, 2, 6)...)
	first := FitRatings([]string{"A", "B", "C"}, res, RatingOptions{})
	reversed := make([]Result, len(res))
	for i, r := range res {
		reversed[len(res)-1-i] = r
	}
	second := FitRatings([]string{"A", "B", "C"}, reversed, RatingOptions{})
	for i := range first.Players {
		if first.Players[i] != second.Players[i] {
			t.Errorf("%+v != %+v", first.Players[i], second.Players[i])
		}
	}
}

// TestFitRecordedIsFitRatings: the fit the manager runs, over the league's
// packed results, gives the same table to the bit as a fit of the same
// results given whole: draws, wins either way, technical losses of one or
// both, a result kept whole, and matches still without a result.
func TestFitRecordedIsFitRatings(t *testing.T) {
	l, rounds := startedLeague(t, 12)
	rng := rand.New(rand.NewPCG(3, 4))
	var given []Result
	for _, round := range rounds {
		for _, p := range round.Matches {
			r := Result{MatchID: p.MatchID, Round: p.Round, PlayerA: p.PlayerA, PlayerB: p.PlayerB, Status: StatusWin}
			switch x := rng.IntN(10); {
			case x == 0:
				continue // not played yet
			case x == 1:
				r.Status, r.Offenders = StatusTechnicalLoss, []string{p.PlayerA, p.PlayerB}
			case x == 2:
				r.Status, r.Winner, r.Offenders = StatusTechnicalLoss, p.PlayerA, []string{p.PlayerB}
			case x == 3:
				r.Status = "FORFEIT" // kept whole
				r.Winner = p.PlayerB
			case x < 6:
				r.Status = StatusDraw
			case x < 8:
				r.Winner = p.PlayerA
			default:
				r.Winner = p.PlayerB
			}
			mustApply(t, l, Event{Kind: EventMatchResult, Result: &r})
			given = append(given, r)
		}
	}
	for _, opts := range []RatingOptions{{}, {ExcludeTechnical: true}} {
		recorded := FitRecorded(l.PlayerIDs(), l.RecordedResults(), opts)
		whole := FitRatings(l.PlayerIDs(), given, opts)
		if !reflect.DeepEqual(recorded, whole) {
			t.Errorf("%+v: fit of the recorded results\n%+v\nof the results given\n%+v", opts, recorded, whole)
		}
	}
}

func TestShownEloIsNeverMinusZero(t *testing.T) {
	for _, c := range []struct {
		elo  float64
		want string
	}{{-0.3, "+0"}, {0.3, "+0"}, {-0.5, "-1"}, {0, "+0"}, {math.Copysign(0, -1), "+0"}, {12.6, "+13"}, {-12.6, "-13"}} {
		if got := fmt.Sprintf("%+.0f", ShownElo(c.elo)); got != c.want {
			t.Errorf("ShownElo(%v) prints %s, want %s", c.elo, got, c.want)
		}
	}
}
