package engine

import (
	"fmt"
	"os"
	"strings"
	"testing"
)

// The error rates of --until-decided's verdicts under its repeated looks:
// many seeded leagues of players of known strengths, each played until
// decided, and how often a verdict at the stop is wrong. docs/ratings.md
// carries the table decidedErrorTable writes, and
// TestDecidedErrorTableIsThePages holds the page to it.

// decidedErrorLimit is the extra matches each simulated league may play.
const decidedErrorLimit = 3000

// decidedErrors is one rule's count over seeded leagues of two kinds, each
// a double round robin of 4 players then --until-decided with the default
// margin: 4 equal players (a pair separated is a false separation) and 4
// players the margin apart, 300, 200, 100 and 0 Elo (a pair equivalent is
// a false equivalence, its difference not within the margin).
type decidedErrors struct {
	leagues                      int
	equalPairs, falseSeparations int
	marginPairs, falseEquivalent int
	stopped                      int
	matches                      []int
}

func countDecidedErrors(t testing.TB, leagues int) decidedErrors {
	equal := map[string]float64{"P01": 0, "P02": 0, "P03": 0, "P04": 0}
	apart := map[string]float64{"P01": 300, "P02": 200, "P03": 100, "P04": 0}
	e := decidedErrors{leagues: leagues}
	for seed := int64(1); seed <= int64(leagues); seed++ {
		for _, strengths := range []map[string]float64{equal, apart} {
			sim := simulate(t, FormatSpec{Format: FormatDoubleRoundRobin, UntilDecided: decidedErrorLimit}, strengths, seed, nil)
			st, _ := sim.l.SeparationStatus()
			e.stopped += b2i(st.Unsure == 0)
			e.matches = append(e.matches, sim.matches)
			for _, v := range st.Verdicts {
				if strengths[v.Above] == strengths[v.Below] {
					e.equalPairs++
					e.falseSeparations += b2i(v.Verdict == VerdictSeparated)
				} else {
					e.marginPairs++
					e.falseEquivalent += b2i(v.Verdict == VerdictEquivalent)
				}
			}
		}
	}
	return e
}

func percentOf(n, of int) string {
	return fmt.Sprintf("%d of %d (%.1f %%)", n, of, 100*float64(n)/float64(of))
}

// decidedErrorRow is a rule's row of the table.
func decidedErrorRow(rule string, e decidedErrors) string {
	return fmt.Sprintf("| %s | %s | %s | %d of %d | %d |\n", rule, percentOf(e.falseSeparations, e.equalPairs),
		percentOf(e.falseEquivalent, e.marginPairs), e.stopped, 2*e.leagues, median(e.matches))
}

// decidedErrorTable measures both rules, the sequential test and the 95 %
// interval it replaced, over leagues seeds.
func decidedErrorTable(t testing.TB, leagues int) (string, decidedErrors) {
	sequential := countDecidedErrors(t, leagues)
	decidedSequentially = false
	interval := countDecidedErrors(t, leagues)
	decidedSequentially = true
	return "| verdict at each look | equal players separated | players the margin apart equivalent | leagues stopped by themselves | median matches a league |\n|---|---|---|---|---|\n" +
		decidedErrorRow("sequential test (α = β = 2.5 %)", sequential) +
		decidedErrorRow("the 95 % interval, uncorrected", interval), sequential
}

// TestDecidedErrorTableIsThePages plays 200 seeded leagues of each kind
// with each rule and checks that docs/ratings.md carries the table and
// that the sequential test errs within its stated rates: a pair of equal
// players separated at most 2·α/(1−β) = 5.1 % of the time (either order),
// a pair the margin apart equivalent at most β/(1−α) = 2.6 %.
func TestDecidedErrorTableIsThePages(t *testing.T) {
	if testing.Short() {
		t.Skip("800 simulated leagues")
	}
	table, e := decidedErrorTable(t, 200)
	t.Logf("\n%s", table)
	page, err := os.ReadFile("../docs/ratings.md")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(page), table) {
		t.Errorf("docs/ratings.md does not carry the table of --until-decided's errors; it is now\n%s", table)
	}
	if float64(e.falseSeparations) > 0.051*float64(e.equalPairs) || float64(e.falseEquivalent) > 0.026*float64(e.marginPairs) {
		t.Errorf("sequential test: %d of %d equal pairs separated, %d of %d pairs the margin apart equivalent",
			e.falseSeparations, e.equalPairs, e.falseEquivalent, e.marginPairs)
	}
}
