package engine

import (
	"fmt"
	"math"
	"testing"
)

// playSPRT plays an SPRT gauntlet of P01 (the challenger, strength elo
// over P02) in the engine alone: each game is won, drawn or lost from the
// seat's view with the Elo expectation of the strength difference plus
// bias for the first seat, draws a fixed share (draws) of the games, drawn
// from the seed and the match id. It returns the league once the test
// decides (or at its bound).
func playSPRT(tb testing.TB, test SPRT, elo, bias, draws float64, seed int64) *League {
	tb.Helper()
	l := NewLeague("sprt", DefaultScoring())
	apply := func(ev Event) {
		if err := l.Apply(ev); err != nil {
			tb.Fatal(err)
		}
	}
	for _, id := range []string{"P01", "P02"} {
		apply(Event{Kind: EventAgentRegistered, Agent: &AgentInfo{ID: id, Role: RolePlayer, Endpoint: id}})
	}
	apply(Event{Kind: EventAgentRegistered, Agent: &AgentInfo{ID: "R1", Role: RoleReferee, Endpoint: "R1"}})
	start, err := NewStartInfo(FormatSpec{Format: FormatGauntlet, Challengers: []string{"P01"}, SPRT: &test, MaxGames: 40000}, "even_odd", []string{"P01", "P02"}, seed)
	if err != nil {
		tb.Fatal(err)
	}
	apply(Event{Kind: EventLeagueStarted, Start: start})
	for {
		if l.CurrentRound() == 0 {
			next, _, due, err := l.NextRoundWhy()
			if err != nil {
				tb.Fatal(err)
			}
			if !due {
				return l
			}
			apply(Event{Kind: EventRoundScheduled, Round: next.Number, Schedule: &next})
		}
		round := l.CurrentRound()
		for _, p := range l.Round(round).Matches {
			first := elo + bias // the first seat's advantage, from P01's side
			if p.PlayerA != "P01" {
				first = -elo + bias
			}
			e := EloExpected(first)
			r := Result{MatchID: p.MatchID, Round: round, PlayerA: p.PlayerA, PlayerB: p.PlayerB, Status: StatusWin, Winner: p.PlayerA}
			switch x := MatchRand(seed, p.MatchID, "sprt").Float64(); {
			case x >= e+draws/2:
				r.Winner = p.PlayerB
			case x >= e-draws/2:
				r.Status, r.Winner = StatusDraw, ""
			}
			apply(Event{Kind: EventMatchResult, Result: &r})
		}
	}
}

// BenchmarkPentanomialSPRT measures the games an SPRT (elo0=0, elo1=20,
// alpha=beta=0.05) plays before it decides, counted as games (trinomial)
// and as seat-swapped pairs (pentanomial), with 40 % draws and a first
// seat 30 Elo or 150 Elo stronger, over 100 seeds with the challenger 0
// and 20 Elo stronger; both models see the same games. It reports, per
// bias, the mean games of each (games_trinomial, games_pentanomial), the
// saving (saving_pct) and the share of tests that accepted the wrong
// hypothesis (wrong_pct_trinomial, wrong_pct_pentanomial).
//
//	go test ./engine -run '^$' -bench PentanomialSPRT -benchtime 1x
func BenchmarkPentanomialSPRT(b *testing.B) {
	const seeds, draws = 100, 0.4
	for _, bias := range []float64{30, 150} {
		b.Run(fmt.Sprintf("bias%.0f", bias), func(b *testing.B) {
			for range b.N {
				games, wrong := map[string]int{}, map[string]int{}
				for _, model := range []string{SPRTTrinomial, SPRTPentanomial} {
					test := SPRT{Elo0: 0, Elo1: 20, Alpha: 0.05, Beta: 0.05, Model: model}
					for _, elo := range []float64{0, 20} {
						for seed := int64(1); seed <= seeds; seed++ {
							st, _ := playSPRT(b, test, elo, bias, draws, seed).SPRT()
							games[model] += st.Wins + st.Draws + st.Losses
							if elo == 0 && st.Verdict == VerdictH1 || elo == 20 && st.Verdict == VerdictH0 {
								wrong[model]++
								wrong[fmt.Sprintf("%s at %.0f", model, elo)]++
							}
						}
					}
				}
				reportSPRTSaving(b, bias, games, wrong, 2*seeds)
			}
		})
	}
}

func reportSPRTSaving(b *testing.B, bias float64, games, wrong map[string]int, runs int) {
	tri, penta := float64(games[SPRTTrinomial])/float64(runs), float64(games[SPRTPentanomial])/float64(runs)
	fmt.Printf("first seat +%.0f Elo: mean games to a decision trinomial %.0f, pentanomial %.0f (%.1f %% fewer); wrong %d and %d of %d\n",
		bias, tri, penta, 100*(1-penta/tri), wrong[SPRTTrinomial], wrong[SPRTPentanomial], runs)
	// With a seat advantage the challenger 20 Elo stronger scores less than
	// 20 Elo's expectation over a pair (the logistic curve flattens away
	// from 0), so H0 accepted there is not wholly an error; at 0 Elo it is.
	pair := (EloExpected(20+bias) + 1 - EloExpected(bias-20)) / 2
	fmt.Printf("  wrong at 0 Elo (H1 accepted): trinomial %d, pentanomial %d of %d; at 20 Elo (H0 accepted): %d and %d of %d, where a pair scores %.3f (%.1f Elo)\n",
		wrong[SPRTTrinomial+" at 0"], wrong[SPRTPentanomial+" at 0"], runs/2, wrong[SPRTTrinomial+" at 20"], wrong[SPRTPentanomial+" at 20"], runs/2,
		pair, -400*math.Log10(1/pair-1))
	b.ReportMetric(tri, "games_trinomial")
	b.ReportMetric(penta, "games_pentanomial")
	b.ReportMetric(100*(1-penta/tri), "saving_pct")
	b.ReportMetric(100*float64(wrong[SPRTTrinomial])/float64(runs), "wrong_pct_trinomial")
	b.ReportMetric(100*float64(wrong[SPRTPentanomial])/float64(runs), "wrong_pct_pentanomial")
}
