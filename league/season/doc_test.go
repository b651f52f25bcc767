package season_test

import (
	"math"
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/leaguetui/leaguetui/engine"
	"github.com/leaguetui/leaguetui/league/noui"
	"github.com/leaguetui/leaguetui/league/season"
)

// TestSeasonsPageIsTheCode holds docs/seasons.md to the code: the CSV
// headers, the journal's and --no-ui's lines, and the separation formula.
func TestSeasonsPageIsTheCode(t *testing.T) {
	data, err := os.ReadFile("../../docs/seasons.md")
	if err != nil {
		t.Fatal(err)
	}
	page := string(data)
	for _, want := range []string{
		"`season_standings.csv`: " + strings.Join(season.StandingsHead, ","),
		"up\n  to each one: " + strings.Join(season.HistoryHead, ","),
		engine.AdjacentPair{Above: "P03", Below: "P05", Rank: 4, Overlap: 38.2, Width: 100}.Why(3, 7),
		noui.DescribeSeparation(engine.SeparationStatus{Limit: 40, Played: 12, Known: true, Unsure: 0, Pairs: 7}),
		"overlap = 1.96 × SE(Δ) − Δ,  Δ = elo(a) − elo(b) ≥ 0,  separated when overlap ≤ 0",
		season.JointLine(engine.JointFit{Known: true, Games: 30, Seat: engine.SeatAdvantage{Elo: 82.09, CI95: 194.62, Known: true},
			Draw: engine.DrawParameter{Nu: 2.0681, Low: 0.9086, High: 4.7074, EqualDraw: 0.5084, Known: true}}),
		"`leaguetui season --json` gives it as `joint_fit`: " + jointFields(),
	} {
		flat := func(s string) string { return strings.Join(strings.Fields(s), " ") } // a sentence wraps where the page's lines do
		if !strings.Contains(page, want) && !strings.Contains(flat(page), flat(want)) {
			t.Errorf("docs/seasons.md does not say %q", want)
		}
	}
	// The formula as the page states it is the engine's: over a fit of
	// real results, each adjacent pair's overlap is 1.96 × SE(Δ) − Δ, and
	// separated means a likelihood of superiority of at least 97.5 %.
	var results []engine.Result
	names := []string{"a", "b", "c", "d", "e"}
	for i := range names {
		for j := i + 1; j < len(names); j++ {
			for g := range 20 {
				winner := names[i]
				if g%(5+i) == 0 {
					winner = names[j]
				}
				results = append(results, engine.Result{PlayerA: names[i], PlayerB: names[j], Status: engine.StatusWin, Winner: winner})
			}
		}
	}
	fit := engine.FitRatings(names, results, engine.RatingOptions{})
	separated := 0
	for _, p := range engine.AdjacentPairs(fit) {
		a, _ := fit.Rating(p.Above)
		b, _ := fit.Rating(p.Below)
		want := 1.96*fit.DifferenceSE(p.Above, p.Below) - (a.Elo - b.Elo)
		if math.Abs(p.Overlap-want) > 0.01*fit.DifferenceSE(p.Above, p.Below) {
			t.Errorf("%s-%s: overlap %.3f, the page's formula %.3f", p.Above, p.Below, p.Overlap, want)
		}
		if los := fit.LOS(p.Above, p.Below); p.Unsure() == (los >= 0.975) {
			t.Errorf("%s-%s: unsure %v with LOS %.4f", p.Above, p.Below, p.Unsure(), los)
		}
		if !p.Unsure() {
			separated++
		}
	}
	if separated == 0 {
		t.Errorf("the example separates no pair: it checks only one side of the formula")
	}
}

// jointFields are season.JointDoc's JSON names as the page lists them:
// "`seat_elo`, `seat_ci95`, ...", the last two joined by the page's
// "(absent without a draw) and".
func jointFields() string {
	typ := reflect.TypeFor[season.JointDoc]()
	var names []string
	for i := range typ.NumField() {
		names = append(names, "`"+strings.Split(typ.Field(i).Tag.Get("json"), ",")[0]+"`")
	}
	last := len(names) - 1
	return strings.Join(names[:last], ", ") + " (absent without a draw) and " + names[last]
}
