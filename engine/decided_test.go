package engine

import (
	"math"
	"strings"
	"testing"
)

// TestDecidedVerdictsAreTheSequentialTest checks --until-decided's
// verdicts against log-likelihood ratios computed by hand, LLR = (Δ·M −
// M²/2)/SE², bounds ±ln(0.975/0.025) = ±3.66, and --until-separated's
// (no margin) against the 95 % interval.
func TestDecidedVerdictsAreTheSequentialTest(t *testing.T) {
	pair := func(diff, se, margin float64) AdjacentPair {
		width := z95 * se
		return AdjacentPair{Above: "A", Below: "B", Rank: 1, Overlap: width - diff, Width: width, Margin: margin}
	}
	inf := math.Inf(1)
	for _, c := range []struct {
		p    AdjacentPair
		llr  float64
		want string
	}{
		{pair(0, 30, 100), -5000.0 / 900, VerdictEquivalent},
		{pair(10, 40, 100), -4000.0 / 1600, VerdictUnsure},
		{pair(200, 60, 100), 15000.0 / 3600, VerdictSeparated},
		{pair(60, 20, 100), 1000.0 / 400, VerdictUnsure},      // the 95 % interval [20.8, 99.2] excludes 0: not enough here
		{pair(80, 20, 100), 3000.0 / 400, VerdictSeparated},   //
		{pair(30, 20, 100), -2000.0 / 400, VerdictEquivalent}, // the order is sure too, but within the margin
		{pair(25, 10, 50), 0, VerdictUnsure},                  // Δ halfway to the margin: the ratio is 0
		{pair(60, 25, 0), math.NaN(), VerdictSeparated},       // --until-separated: [11, 109] excludes 0
		{pair(10, 25, 0), math.NaN(), VerdictUnsure},
		{AdjacentPair{Overlap: inf, Width: inf, Margin: 100}, math.NaN(), VerdictUnsure}, // unrated
	} {
		if got := c.p.LLR(); math.IsNaN(c.llr) != math.IsNaN(got) || math.Abs(got-c.llr) > 1e-9 {
			t.Errorf("Δ %.2f ± %.2f, margin %g: LLR %v, want %v", c.p.Difference(), c.p.Width, c.p.Margin, got, c.llr)
		}
		if got := c.p.Verdict(); got != c.want {
			t.Errorf("Δ %.2f ± %.2f, margin %g: %s, want %s", c.p.Difference(), c.p.Width, c.p.Margin, got, c.want)
		}
		if c.p.Unsure() != (c.want == VerdictUnsure) {
			t.Errorf("Δ %.2f ± %.2f, margin %g: Unsure %v with verdict %s", c.p.Difference(), c.p.Width, c.p.Margin, c.p.Unsure(), c.want)
		}
	}
	if math.Abs(DecidedUpper-3.6635616461296463) > 1e-12 || DecidedLower != -DecidedUpper {
		t.Errorf("bounds %v, %v", DecidedLower, DecidedUpper)
	}
}

// twoPairs is 4 players in two groups of two equal ones, 400 Elo apart:
// the adjacent pairs within a group should end equivalent, the one across
// separated.
func twoPairs() map[string]float64 {
	return map[string]float64{"P01": 400, "P02": 400, "P03": 0, "P04": 0}
}

// TestUntilDecidedStopsWithTheRightVerdicts plays, after a double round
// robin, until every adjacent pair is decided, in 20 seeds: it stops by
// itself before its limit, the pair across the groups separated, the
// journal saying why each extra match and why the stop. The pairs within
// a group end equivalent, or rarely falsely separated: the sequential
// test errs so at most 5.1 % of the time however often it is looked at
// (TestDecidedErrorTableIsThePages measures it); of these 40 pairs at
// most 3 may be (the uncorrected 95 % interval separated 9).
func TestUntilDecidedStopsWithTheRightVerdicts(t *testing.T) {
	const limit, seeds = 1000, 20
	strengths := twoPairs()
	equivalent, falselySeparated := 0, 0
	for seed := int64(1); seed <= seeds; seed++ {
		sim := simulate(t, FormatSpec{Format: FormatDoubleRoundRobin, UntilDecided: limit}, strengths, seed, nil)
		st, ok := sim.l.SeparationStatus()
		if !ok || !st.Known || sim.l.State != LeagueCompleted || st.Rule != "until-decided" || st.Margin != DefaultEquivalenceMargin {
			t.Fatalf("seed %d: status %+v, league %s", seed, st, sim.l.State)
		}
		if st.Played >= limit || st.Unsure != 0 || st.Played != len(sim.details) {
			t.Errorf("seed %d: %d of %d extra matches (%d journaled), %d pairs unsure", seed, st.Played, limit, len(sim.details), st.Unsure)
		}
		for _, v := range st.Verdicts {
			switch equal := strengths[v.Above] == strengths[v.Below]; {
			case !equal && v.Verdict != VerdictSeparated:
				t.Errorf("seed %d: %s-%s, 400 Elo apart, %s", seed, v.Above, v.Below, v.Verdict)
			case equal && v.Verdict == VerdictEquivalent:
				equivalent++
			case equal:
				falselySeparated++
			}
		}
		for _, why := range sim.details {
			if !strings.HasPrefix(why, "until-decided: ") || !strings.Contains(why, "gives Δ = 100 Elo against Δ = 0 a log-likelihood ratio of") {
				t.Errorf("seed %d: journaled %q", seed, why)
			}
		}
		if why := sim.l.StopWhy(); !strings.Contains(why, "stopped with every adjacent pair decided") {
			t.Errorf("seed %d: stopped %q", seed, why)
		}
		t.Logf("seed %d: decided after %d extra matches: %s", seed, st.Played, sim.l.StopWhy())
	}
	t.Logf("pairs of equal players: %d equivalent, %d falsely separated", equivalent, falselySeparated)
	if equivalent+falselySeparated != 2*seeds || falselySeparated > 3 {
		t.Errorf("of %d pairs of equal players %d equivalent, %d falsely separated", 2*seeds, equivalent, falselySeparated)
	}
}

// TestUntilSeparatedRunsOnWhereDecidedStops: the same league with
// --until-separated never separates the equal players and spends its
// limit, which is why --until-decided exists.
func TestUntilSeparatedRunsOnWhereDecidedStops(t *testing.T) {
	sim := simulate(t, FormatSpec{Format: FormatDoubleRoundRobin, UntilSeparated: 150}, twoPairs(), 1, nil)
	st, _ := sim.l.SeparationStatus()
	if st.Played != 150 || st.Unsure == 0 {
		t.Errorf("until-separated: %+v", st)
	}
	if why := sim.l.StopWhy(); !strings.HasPrefix(why, "until-separated: stopped at the limit of 150 extra matches") {
		t.Errorf("stopped %q", why)
	}
}

// TestUntilDecidedStopsAtItsLimit: a limit too small to decide the equal
// pairs ends the league there, saying so.
func TestUntilDecidedStopsAtItsLimit(t *testing.T) {
	sim := simulate(t, FormatSpec{Format: FormatRoundRobin, UntilDecided: 5, EquivalenceMargin: 50}, twoPairs(), 2, nil)
	st, _ := sim.l.SeparationStatus()
	if st.Played != 5 || st.Unsure == 0 || st.Margin != 50 || sim.l.State != LeagueCompleted {
		t.Fatalf("status %+v, league %s", st, sim.l.State)
	}
	if why := sim.l.StopWhy(); !strings.HasPrefix(why, "until-decided: stopped at the limit of 5 extra matches with") {
		t.Errorf("stopped %q", why)
	}
}

func TestUntilDecidedRefusesWhatItDoesNotGoWith(t *testing.T) {
	ids := players(4)
	challenge, _ := ParseSPRT("elo0=0,elo1=10,alpha=0.05,beta=0.05")
	for _, bad := range []FormatSpec{{UntilDecided: 3, UntilSeparated: 3}, {UntilDecided: 3, Place: "P01"},
		{Format: FormatGauntlet, Challengers: []string{"P01"}, SPRT: &challenge, UntilDecided: 3}} {
		if _, err := NewStartInfo(bad, "even_odd", ids, 1); err == nil {
			t.Errorf("%+v accepted", bad)
		}
	}
}
