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
		"LLR = (Δ × margin − margin² / 2) / SE(Δ)²",
		fmt.Sprintf("**separated** when LLR ≥ %.2f (ln(0.975/0.025))", engine.DecidedUpper),
		fmt.Sprintf("**equivalent** when LLR ≤ %.2f", engine.DecidedLower),
		fmt.Sprintf("`--equivalence-margin` (default %d Elo, an expected score of %.0f %%)", engine.DefaultEquivalenceMargin,
			100*engine.EloExpected(engine.DefaultEquivalenceMargin)),
	} {
		if !strings.Contains(page, strings.Join(strings.Fields(want), " ")) {
			t.Errorf("docs/seasons.md does not say %q", want)
		}
	}
	// The formula: Δ = 0 with SE(Δ) = 30 gives −5000/900 = −5.6
	// (equivalent), Δ = 25 with SE = 48.5 (the example's ± 95) −1.06
	// (unsure), Δ = 200 with SE = 60 15000/3600 = 4.2 (separated).
	for _, c := range []struct {
		diff, se float64
		verdict  string
	}{{0, 30, engine.VerdictEquivalent}, {25, 95 / 1.959963984540054, engine.VerdictUnsure}, {200, 60, engine.VerdictSeparated}} {
		width := 1.959963984540054 * c.se
		p := engine.AdjacentPair{Overlap: width - c.diff, Width: width, Margin: 100}
		if p.Verdict() != c.verdict {
			t.Errorf("Δ %g, SE %g: %s, the page's formula %s", c.diff, c.se, p.Verdict(), c.verdict)
		}
	}
}
