package engine

import (
	"math"
	"math/rand/v2"
	"testing"
)

// The notes' worked example and fastchess's logistic regression vector.
func TestSPRTCheckValues(t *testing.T) {
	test, err := ParseSPRT("elo0=0,elo1=10,alpha=0.05,beta=0.05")
	if err != nil {
		t.Fatal(err)
	}
	lower, upper := test.Bounds()
	near(t, "lower", lower, -math.Log(19), 1e-9)
	near(t, "upper", upper, math.Log(19), 1e-9)
	near(t, "LLR 60/30/40", test.LLR(60, 30, 40), 0.6789, 1e-4)
	near(t, "LLR fastchess", SPRT{Elo0: 0.5, Elo1: 2.5, Alpha: 0.05, Beta: 0.05}.LLR(21404, 40708, 21184), -1.5719, 1e-3)
	lo, up := SPRT{Elo0: 0, Elo1: 10, Alpha: 0.05, Beta: 0.10}.Bounds()
	near(t, "lower 0.05/0.10", lo, -2.251, 1e-3)
	near(t, "upper 0.05/0.10", up, 2.890, 1e-3)
	if st := test.Status(60, 30, 40); st.Verdict != VerdictContinue {
		t.Errorf("60/30/40: %s", st.Verdict)
	}
	if st := test.Status(0, 0, 0); st.LLR != 0 || st.Verdict != VerdictContinue {
		t.Errorf("no games: %+v", st)
	}
	for _, bad := range []string{"", "elo0=10,elo1=0", "elo0=0", "elo0=0,elo1=5,alpha=0.7", "elo0=0,elo1=5,x=1", "elo0=a,elo1=5"} {
		if _, err := ParseSPRT(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}

// runSPRT plays games of a challenger trueElo stronger (draws a third of
// the time at equal strength) until the test decides or max games.
func runSPRT(test SPRT, trueElo float64, rng *rand.Rand, max int) string {
	expected := EloExpected(trueElo)
	draw := 0.3
	win := expected - draw/2 // mean score = win + draw/2 = expected
	var w, d, l int
	for range max {
		switch x := rng.Float64(); {
		case x < win:
			w++
		case x < win+draw:
			d++
		default:
			l++
		}
		if st := test.Status(w, d, l); st.Verdict != VerdictContinue {
			return st.Verdict
		}
	}
	return VerdictContinue
}

// TestSPRTErrorRates runs the test on synthetic streams of known strength
// over many seeds: a clearly stronger challenger is accepted as H1 nearly
// always; at exactly elo0 H1 is accepted about alpha of the time, and at
// exactly elo1 H0 about beta of the time, each within three standard
// errors of the sampling.
func TestSPRTErrorRates(t *testing.T) {
	test := SPRT{Elo0: 0, Elo1: 40, Alpha: 0.05, Beta: 0.05}
	const runs = 300
	rate := func(trueElo float64, verdict string) float64 {
		n := 0
		for seed := range runs {
			if runSPRT(test, trueElo, rand.New(rand.NewPCG(uint64(seed), uint64(trueElo*100+7))), 100000) == verdict {
				n++
			}
		}
		t.Logf("true Elo %+.0f: %s in %.3f of %d runs", trueElo, verdict, float64(n)/runs, runs)
		return float64(n) / runs
	}
	margin := 3 * math.Sqrt(0.05*0.95/runs)
	if r := rate(0, VerdictH1); r > test.Alpha+margin {
		t.Errorf("equal players: H1 accepted %.3f of the time, want about alpha %.2f", r, test.Alpha)
	}
	if r := rate(40, VerdictH0); r > test.Beta+margin {
		t.Errorf("challenger at elo1: H0 accepted %.3f of the time, want about beta %.2f", r, test.Beta)
	}
	if r := rate(120, VerdictH1); r < 0.99 {
		t.Errorf("a clearly stronger challenger: H1 accepted only %.3f of the time", r)
	}
	if r := rate(-80, VerdictH0); r < 0.99 {
		t.Errorf("a clearly weaker challenger: H0 accepted only %.3f of the time", r)
	}
}

// TestSPRTLeague: an SPRT gauntlet plays one game a round, seats
// alternating, counts the challenger's results, stops pairing once a
// hypothesis is accepted and may then complete; it refuses any other
// shape of league.
func TestSPRTLeague(t *testing.T) {
	test := SPRT{Elo0: 0, Elo1: 100, Alpha: 0.05, Beta: 0.05}
	spec := FormatSpec{Format: FormatGauntlet, Challengers: []string{"P02"}, SPRT: &test, MaxGames: 50}
	pair := []string{"P01", "P02"}
	for _, bad := range []FormatSpec{{Format: FormatSwiss, Rounds: 1, SPRT: &test}, {Format: FormatGauntlet, Challengers: []string{"P01", "P02"}, SPRT: &test}} {
		if _, _, err := Schedule(bad, pair, 1); err == nil {
			t.Errorf("%+v accepted", bad)
		}
	}
	if _, _, err := Schedule(spec, players(3), 1); err == nil {
		t.Errorf("an SPRT of 3 players accepted")
	}
	rounds, planned, err := Schedule(spec, pair, 1)
	if err != nil || planned != 50 || len(rounds) != 1 {
		t.Fatalf("%d rounds, planned %d, %v", len(rounds), planned, err)
	}
	l := NewLeague("l", DefaultScoring())
	for _, p := range pair {
		mustApply(t, l, Event{Kind: EventAgentRegistered, Agent: &AgentInfo{ID: p, Role: RolePlayer, Endpoint: p}})
	}
	mustApply(t, l, Event{Kind: EventLeagueStarted, Start: &StartInfo{Seed: 1, Players: pair, LegacyRounds: rounds, Format: &spec, RoundsPlanned: planned}})
	for n := 1; ; n++ {
		p := l.Round(n).Matches[0]
		if first := [2]string{"P02", "P01"}[(n+1)%2]; p.PlayerA != first {
			t.Errorf("game %d: %s sits first, want %s", n, p.PlayerA, first)
		}
		mustApply(t, l, Event{Kind: EventMatchResult, Result: &Result{MatchID: p.MatchID, Round: n, PlayerA: p.PlayerA, PlayerB: p.PlayerB, Status: StatusWin, Winner: "P02"}})
		st, _ := l.SPRT()
		if st.Wins != n || st.Losses != 0 {
			t.Fatalf("after %d wins: %+v", n, st)
		}
		next, due, err := l.NextRound()
		if st.Verdict == VerdictH1 {
			if due || n >= 50 {
				t.Errorf("decided after %d games but round %d is due", n, next.Number)
			}
			break
		}
		if !due || err != nil {
			t.Fatalf("game %d: no next round (%v)", n+1, err)
		}
		mustApply(t, l, Event{Kind: EventRoundScheduled, Schedule: &next})
	}
	mustApply(t, l, Event{Kind: EventLeagueCompleted})
}
