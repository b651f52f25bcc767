package protocol

import (
	"encoding/json"
	"math"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/leaguetui/leaguetui/engine"
)

// TestRatingsDocCarriesRankIntervals: over a fit of two groups of equal
// players far apart, each row of the ratings section carries the rank
// interval and tie group the engine gives, under the names
// docs/ratings.md says, and the page's worked examples are the engine's.
func TestRatingsDocCarriesRankIntervals(t *testing.T) {
	ids := []string{"A", "B", "C", "D"}
	var results []engine.Result
	game := func(a, b, winner string) {
		status := engine.StatusWin
		if winner == "" {
			status = engine.StatusDraw
		}
		results = append(results, engine.Result{PlayerA: a, PlayerB: b, Status: status, Winner: winner})
	}
	for range 10 {
		game("A", "B", "")
		game("C", "D", "")
		for _, strong := range []string{"A", "B"} {
			for _, weak := range []string{"C", "D"} {
				game(strong, weak, strong)
			}
		}
	}
	game("C", "A", "C") // every player loses once: a finite fit without the prior
	game("D", "B", "D")
	fit := engine.FitRatings(ids, results, engine.RatingOptions{})
	rows := []StandingRow{{PlayerID: "A"}, {PlayerID: "B"}, {PlayerID: "C"}, {PlayerID: "D"}}
	doc := NewRatingsDoc(fit, len(results), engine.RatingOptions{}, rows)
	want := map[string][2]int{"A": {1, 2}, "B": {1, 2}, "C": {3, 4}, "D": {3, 4}}
	for _, r := range doc.Players {
		group := 1
		if r.PlayerID > "B" {
			group = 2
		}
		if r.RankInterval == nil || *r.RankInterval != want[r.PlayerID] || r.TieGroup != group {
			t.Errorf("%s: ranks %v, tie group %d; want %v in group %d", r.PlayerID, r.RankInterval, r.TieGroup, want[r.PlayerID], group)
		}
	}
	data, err := json.Marshal(doc.Players[2])
	if err != nil || !strings.Contains(string(data), `"rank_interval":[3,4],"tie_group":2`) {
		t.Errorf("C's row as JSON: %s (%v)", data, err)
	}

	page, err := os.ReadFile("../../docs/ratings.md")
	if err != nil {
		t.Fatal(err)
	}
	text := strings.Join(strings.Fields(string(page)), " ")
	for _, say := range []string{"`rank_interval` and `tie_group`", "`[lowest, highest]`",
		"best = 1 + the players surely above it, worst = players − the players surely below it",
		"elo(a) − elo(b) > 1.96 × SE(Δ)",
		"A 1–2, B 1–3, C 2–4, D 3–4, all in tie group 1",
		"A and B 1–2 in group 1, C and D 3–4 in group 2"} {
		if !strings.Contains(text, say) {
			t.Errorf("docs/ratings.md does not say %q", say)
		}
	}
	// The page's two examples, from the engine.
	sure := func(pairs ...[2]string) func(a, b string) bool {
		return func(a, b string) bool { return slices.Contains(pairs, [2]string{a, b}) }
	}
	chain := engine.RankIntervalsFrom(ids, sure([2]string{"A", "C"}, [2]string{"A", "D"}, [2]string{"B", "D"}))
	split := engine.RankIntervalsFrom(ids, sure([2]string{"A", "C"}, [2]string{"A", "D"}, [2]string{"B", "C"}, [2]string{"B", "D"}))
	for i, c := range []struct {
		got        []engine.RankInterval
		best, wrst []int
		groups     []int
	}{{chain, []int{1, 1, 2, 3}, []int{2, 3, 4, 4}, []int{1, 1, 1, 1}}, {split, []int{1, 1, 3, 3}, []int{2, 2, 4, 4}, []int{1, 1, 2, 2}}} {
		for k, iv := range c.got {
			if iv.Best != c.best[k] || iv.Worst != c.wrst[k] || iv.TieGroup != c.groups[k] {
				t.Errorf("example %d, %s: %d-%d group %d, the page says %d-%d group %d", i+1, iv.PlayerID, iv.Best, iv.Worst, iv.TieGroup,
					c.best[k], c.wrst[k], c.groups[k])
			}
		}
	}
}

// TestRatingsDocCarriesTheSeatAdvantage: the fit's seat advantage reaches
// the ratings section as docs/ratings.md names it, and the page's formula
// is the one the fit maximises: at the fitted h, the first seats' expected
// score under it is their actual score.
func TestRatingsDocCarriesTheSeatAdvantage(t *testing.T) {
	ids := []string{"A", "B", "C"}
	var results []engine.Result
	for k := range 60 { // the first seat wins 2 in 3, whoever sits there
		for _, p := range [][2]string{{"A", "B"}, {"B", "C"}, {"C", "A"}, {"B", "A"}, {"C", "B"}, {"A", "C"}} {
			winner := p[0]
			if k%3 == 0 {
				winner = p[1]
			}
			results = append(results, engine.Result{PlayerA: p[0], PlayerB: p[1], Status: engine.StatusWin, Winner: winner})
		}
	}
	fit := engine.FitRatings(ids, results, engine.RatingOptions{})
	doc := NewRatingsDoc(fit, len(results), engine.RatingOptions{}, []StandingRow{{PlayerID: "A"}, {PlayerID: "B"}, {PlayerID: "C"}})
	s := doc.SeatAdvantage
	if s == nil || s.Games != len(results) {
		t.Fatalf("seat advantage %+v", s)
	}
	expected, actual := 0.0, 0.0
	for _, r := range results {
		a, _ := fit.Rating(r.PlayerA)
		b, _ := fit.Rating(r.PlayerB)
		expected += 1 / (1 + math.Pow(10, -(a.Elo-b.Elo+fit.Seat.Elo)/400))
		if r.Winner == r.PlayerA {
			actual++
		}
	}
	if math.Abs(expected-actual) > 1e-6*actual || math.Abs(fit.Seat.Elo-400*math.Log10(2)) > 1 {
		t.Errorf("h %.2f Elo: expected score %.4f, actual %.0f (2 in 3 is %.2f Elo)", fit.Seat.Elo, expected, actual, 400*math.Log10(2))
	}
	page, err := os.ReadFile("../../docs/ratings.md")
	if err != nil {
		t.Fatal(err)
	}
	text := strings.Join(strings.Fields(string(page)), " ")
	for _, say := range []string{"P(the first seat wins) = 1 / (1 + 10^(−(elo(a) − elo(b) + h) / 400))",
		"as `seat_advantage` (`elo`, `ci95`, `games`)"} {
		if !strings.Contains(text, say) {
			t.Errorf("docs/ratings.md does not say %q", say)
		}
	}
	data, _ := json.Marshal(doc)
	if !strings.Contains(string(data), `"seat_advantage":{"elo":`) {
		t.Errorf("the document as JSON: %s", data)
	}
}
