package season_test

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/leaguetui/leaguetui/engine"
	"github.com/leaguetui/leaguetui/league/noui"
)

// decidedExample is the status docs/seasons.md shows for --until-decided.
var decidedExample = engine.SeparationStatus{Rule: "until-decided", Limit: 2160, Played: 761, Known: true, Pairs: 15,
	Separated: 4, Equivalent: 11, Margin: engine.DefaultEquivalenceMargin}

// TestSeasonsPageSaysUntilDecided holds the page's --until-decided
// section to the code: the journal's sentences for an extra match and for
// the stop, --no-ui's lines, the default margin and the rule's formula,
// checked on hand-made intervals.
func TestSeasonsPageSaysUntilDecided(t *testing.T) {
	data, err := os.ReadFile("../../docs/seasons.md")
	if err != nil {
		t.Fatal(err)
	}
	page := strings.Join(strings.Fields(string(data)), " ") // the page's line breaks are not the code's
	limited := decidedExample
	limited.Played, limited.Limit, limited.Separated, limited.Equivalent, limited.Unsure = 40, 40, 3, 9, 3
	diff, ci := 25.0, 95.0
	limited.Verdicts = []engine.PairVerdict{{Above: "P03", Below: "P05", Rank: 4, Verdict: engine.VerdictUnsure, Difference: &diff, CI95: &ci}}
	for _, want := range []string{
		engine.AdjacentPair{Above: "P03", Below: "P05", Rank: 4, Overlap: 70, Width: 95, Margin: 100}.Why(3, 15),
		decidedExample.StopWhy(),
		limited.StopWhy(),
		noui.DescribeSeparation(decidedExample),
		noui.DescribePairs(limited)[0],
		"equivalent when Δ + 1.96 × SE(Δ) < margin",
		fmt.Sprintf("`--equivalence-margin` (default %d Elo, an expected score of %.0f %%)", engine.DefaultEquivalenceMargin,
			100*engine.EloExpected(engine.DefaultEquivalenceMargin)),
	} {
		if !strings.Contains(page, strings.Join(strings.Fields(want), " ")) {
			t.Errorf("docs/seasons.md does not say %q", want)
		}
	}
	// The formula: Δ = 25, 1.96·SE(Δ) = 70 is within 100 (equivalent),
	// 80 is not (25 + 80 > 100), and Δ = 0 with 99.9 is.
	for _, c := range []struct {
		diff, width float64
		equivalent  bool
	}{{25, 70, true}, {25, 80, false}, {0, 99.9, true}} {
		p := engine.AdjacentPair{Overlap: c.width - c.diff, Width: c.width, Margin: 100}
		if p.Equivalent() != c.equivalent {
			t.Errorf("Δ %g ± %g: equivalent %v, the page's formula %v", c.diff, c.width, p.Equivalent(), c.equivalent)
		}
	}
}
