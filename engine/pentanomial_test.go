package engine

import (
	"math"
	"strings"
	"testing"
)

// playSequence plays an SPRT gauntlet of P01 against P02 with the
// challenger's results given in order ('W', 'D', 'L', 'T' for a technical
// loss of both), one game a round as the league pairs them.
func playSequence(t *testing.T, test SPRT, results string) *League {
	t.Helper()
	l := NewLeague("sprt", DefaultScoring())
	apply := func(ev Event) {
		t.Helper()
		if err := l.Apply(ev); err != nil {
			t.Fatal(err)
		}
	}
	for _, id := range []string{"P01", "P02"} {
		apply(Event{Kind: EventAgentRegistered, Agent: &AgentInfo{ID: id, Role: RolePlayer, Endpoint: id}})
	}
	apply(Event{Kind: EventAgentRegistered, Agent: &AgentInfo{ID: "R1", Role: RoleReferee, Endpoint: "R1"}})
	start, err := NewStartInfo(FormatSpec{Format: FormatGauntlet, Challengers: []string{"P01"}, SPRT: &test, MaxGames: 100}, "even_odd", []string{"P01", "P02"}, 1)
	if err != nil {
		t.Fatal(err)
	}
	apply(Event{Kind: EventLeagueStarted, Start: start})
	for i, c := range results {
		if l.CurrentRound() == 0 {
			next, _, due, err := l.NextRoundWhy()
			if err != nil || !due {
				t.Fatalf("game %d: no round due (%v)", i+1, err)
			}
			apply(Event{Kind: EventRoundScheduled, Round: next.Number, Schedule: &next})
		}
		p := l.Round(l.CurrentRound()).Matches[0]
		other := p.PlayerB
		if other == "P01" {
			other = p.PlayerA
		}
		r := Result{MatchID: p.MatchID, Round: p.Round, PlayerA: p.PlayerA, PlayerB: p.PlayerB}
		switch c {
		case 'W':
			r.Status, r.Winner = StatusWin, "P01"
		case 'L':
			r.Status, r.Winner = StatusWin, other
		case 'D':
			r.Status = StatusDraw
		case 'T':
			r.Status, r.Offenders = StatusTechnicalLoss, []string{"P01", other}
		}
		apply(Event{Kind: EventMatchResult, Result: &r})
	}
	return l
}

// TestPentanomialCountsByHand: the challenger's games counted in their
// seat-swapped pairs, against a hand count. Pairs WL, DW, WW, LL, then TD
// (a technical loss of both leaves its pair out) and D (no pair yet):
// one pair each scoring 0 (LL), 1 (WL), 1½ (DW) and 2 (WW).
func TestPentanomialCountsByHand(t *testing.T) {
	test, err := ParseSPRT("elo0=0,elo1=10,model=pentanomial")
	if err != nil || test.Model != SPRTPentanomial || test.String() != "elo0=0,elo1=10,alpha=0.05,beta=0.05,model=pentanomial" {
		t.Fatalf("parsed %+v (%v)", test, err)
	}
	l := playSequence(t, test, "WLDWWWLLTDD")
	st, _ := l.SPRT()
	if st.Pentanomial == nil || *st.Pentanomial != [5]int{1, 0, 1, 1, 1} || st.Wins != 4 || st.Draws != 3 || st.Losses != 3 {
		t.Fatalf("status %+v, pairs %v", st, st.Pentanomial)
	}
	if want := test.PentanomialLLR([5]int{1, 0, 1, 1, 1}); st.LLR != want || st.LLR == test.LLR(4, 3, 3) {
		t.Errorf("llr %v, the pairs' %v, the games' %v", st.LLR, want, test.LLR(4, 3, 3))
	}
	trinomial := test
	trinomial.Model = ""
	if st, _ := playSequence(t, trinomial, "WLDWWWLLTDD").SPRT(); st.LLR != trinomial.LLR(4, 3, 3) || *st.Pentanomial != [5]int{1, 0, 1, 1, 1} {
		t.Errorf("trinomial: %+v", st)
	}
	for spec, model := range map[string]string{"elo0=0,elo1=10": SPRTPentanomial, "elo0=0,elo1=10,model=trinomial": SPRTTrinomial} {
		if parsed, err := ParseSPRT(spec); err != nil || parsed.Model != model || !strings.HasSuffix(parsed.String(), ",model="+model) {
			t.Errorf("%q parsed as %+v (%v), want model %s", spec, parsed, err, model)
		}
	}
	for _, bad := range []string{"elo0=0,elo1=10,model=hexanomial", "elo0=0,elo1=10,model="} {
		if _, err := ParseSPRT(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}

// TestPentanomialLLRIsTheGamesWhenPairsAreIndependent: pairs of two
// independent games (no seat advantage) carry what the games carry, so the
// pentanomial LLR of many pairs is near the trinomial LLR of their games;
// and pairs that cancel out (a win and a loss, one in each seat) count for
// a smaller variance, so a test leans harder the same way on the same
// score.
func TestPentanomialLLRIsTheGamesWhenPairsAreIndependent(t *testing.T) {
	test := SPRT{Elo0: 0, Elo1: 10, Alpha: 0.05, Beta: 0.05}
	w, d, l := 0.3, 0.4, 0.3 // per game; pairs by the product law
	p := [5]float64{l * l, 2 * l * d, d*d + 2*w*l, 2 * w * d, w * w}
	pairs := [5]int{}
	for i, q := range p {
		pairs[i] = int(math.Round(q * 100000))
	}
	games := [3]int{int(2 * 100000 * w), int(2 * 100000 * d), int(2 * 100000 * l)} // the games of those pairs
	tri, penta := test.LLR(games[0], games[1], games[2]), test.PentanomialLLR(pairs)
	if math.Abs(tri-penta) > 0.02*math.Abs(tri)+1 {
		t.Errorf("independent pairs: pentanomial llr %.2f, trinomial %.2f", penta, tri)
	}
	// 60 pairs each of one win and one loss and 40 of two wins, against
	// the same 140 wins, 60 losses as independent games.
	if pairs, games := test.PentanomialLLR([5]int{0, 0, 60, 0, 40}), test.LLR(140, 0, 60); pairs <= games {
		t.Errorf("pairs of a small variance: llr %.2f, as games %.2f", pairs, games)
	}
}
