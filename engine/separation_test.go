package engine

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"
)

// simulated plays a league in the engine alone, each game won by the
// stronger player with the Bradley–Terry probability of their strengths
// (Elo), drawn from the seed and the match id: the same seed gives the
// same games. After each result, stop may end it (for the figures); the
// league's own end otherwise. It returns the league and the journal's
// round_scheduled details.
type simulated struct {
	l       *League
	details []string
	matches int
}

func simulate(t testing.TB, spec FormatSpec, strengths map[string]float64, seed int64, stop func(*League) bool) simulated {
	t.Helper()
	ids := make([]string, 0, len(strengths))
	for id := range strengths {
		ids = append(ids, id)
	}
	SortIDs(ids)
	apply := func(l *League, ev Event) {
		t.Helper()
		if err := l.Apply(ev); err != nil {
			t.Fatal(err)
		}
	}
	l := NewLeague("sim", DefaultScoring())
	for _, id := range ids {
		apply(l, Event{Kind: EventAgentRegistered, Agent: &AgentInfo{ID: id, Role: RolePlayer, DisplayName: "name " + id, Endpoint: id}})
	}
	apply(l, Event{Kind: EventAgentRegistered, Agent: &AgentInfo{ID: "R1", Role: RoleReferee, Endpoint: "R1"}})
	start, err := NewStartInfo(spec, "even_odd", ids, seed)
	if err != nil {
		t.Fatal(err)
	}
	apply(l, Event{Kind: EventLeagueStarted, Start: start})
	sim := simulated{l: l}
	for {
		round := l.CurrentRound()
		if round == 0 {
			next, why, due, err := l.NextRoundWhy()
			if err != nil {
				t.Fatal(err)
			}
			if !due {
				apply(l, Event{Kind: EventLeagueCompleted})
				return sim
			}
			sim.details = append(sim.details, why)
			apply(l, Event{Kind: EventRoundScheduled, Round: next.Number, Schedule: &next, Detail: why})
			continue
		}
		for _, p := range l.Round(round).Matches {
			winner := p.PlayerB
			if MatchRand(seed, p.MatchID, "sim").Float64() < EloExpected(strengths[p.PlayerA]-strengths[p.PlayerB]) {
				winner = p.PlayerA
			}
			apply(l, Event{Kind: EventMatchResult, Result: &Result{MatchID: p.MatchID, Round: round,
				PlayerA: p.PlayerA, PlayerB: p.PlayerB, Status: StatusWin, Winner: winner}})
			sim.matches++
			if stop != nil && stop(l) {
				return sim
			}
		}
	}
}

// spaced is n players 200 Elo apart, P01 the strongest.
func spaced(n int) map[string]float64 {
	s := map[string]float64{}
	for i, id := range players(n) {
		s[id] = float64(n-i) * 200
	}
	return s
}

func unsureAtEnd(l *League) int {
	return CountUnsure(AdjacentPairs(FitRecorded(l.PlayerIDs(), l.RecordedResults(), RatingOptions{})))
}

func TestUntilSeparatedSeparatesMoreThanThePlainSchedule(t *testing.T) {
	strengths := spaced(8)
	for seed := int64(1); seed <= 5; seed++ {
		// At most the same number of matches: a double round robin
		// played 4 times (224), or twice (112) and up to 112 separating
		// matches.
		plain := simulate(t, FormatSpec{Format: FormatDoubleRoundRobin, GamesPerPair: 4}, strengths, seed, nil)
		sep := simulate(t, FormatSpec{Format: FormatDoubleRoundRobin, GamesPerPair: 2, UntilSeparated: 112}, strengths, seed, nil)
		if plain.matches != 224 || sep.matches > 224 {
			t.Fatalf("seed %d: %d and %d matches", seed, plain.matches, sep.matches)
		}
		p, s := unsureAtEnd(plain.l), unsureAtEnd(sep.l)
		t.Logf("seed %d: the plain schedule leaves %d of 7 adjacent pairs unsure after 224 matches; until-separated %d after %d",
			seed, p, s, sep.matches)
		if s >= p {
			t.Errorf("seed %d: until-separated leaves %d pairs unsure, the plain schedule %d", seed, s, p)
		}
		if st, _ := sep.l.SeparationStatus(); st.Unsure != s || st.Played != sep.matches-112 || !st.Known {
			t.Errorf("seed %d: status %+v, want %d unsure after %d separating matches", seed, st, s, sep.matches-112)
		}
		if sep.l.State != LeagueCompleted {
			t.Errorf("seed %d: league %s", seed, sep.l.State)
		}
	}
}

func TestUntilSeparatedIsTheSeedsSchedule(t *testing.T) {
	strengths := spaced(6)
	spec := FormatSpec{Format: FormatRoundRobin, UntilSeparated: 20}
	a := simulate(t, spec, strengths, 7, nil)
	b := simulate(t, spec, strengths, 7, nil)
	if !slices.EqualFunc(a.l.Rounds(), b.l.Rounds(), func(x, y Round) bool { return fmt.Sprint(x) == fmt.Sprint(y) }) {
		t.Errorf("the same seed gave two schedules")
	}
	if !slices.Equal(a.details, b.details) || len(a.details) == 0 {
		t.Errorf("journal details differ or are missing: %q vs %q", a.details, b.details)
	}
	for i, why := range a.details {
		round := a.l.Round(5 + i + 1)
		if len(round.Matches) != 1 {
			t.Fatalf("separating round %d has %d matches", round.Number, len(round.Matches))
		}
		m := round.Matches[0]
		if !strings.Contains(why, m.PlayerA) || !strings.Contains(why, m.PlayerB) || !strings.Contains(why, "adjacent pairs unsure") {
			t.Errorf("round %d (%s vs %s) journaled %q", round.Number, m.PlayerA, m.PlayerB, why)
		}
	}
}

// TestMostUnsureIsTheWidestInterval checks the choice against the fit
// itself: each pair's overlap and width are its difference's interval,
// unsure is a likelihood of superiority under 97.5 %, and no unsure pair's
// interval is wider than the chosen one's.
func TestMostUnsureIsTheWidestInterval(t *testing.T) {
	sim := simulate(t, FormatSpec{Format: FormatRoundRobin}, spaced(8), 3, nil)
	fit := FitRecorded(sim.l.PlayerIDs(), sim.l.RecordedResults(), RatingOptions{})
	ranked := RankByRating(fit)
	pairs := AdjacentPairs(fit)
	best, ok := MostUnsure(pairs, "", 3, 29)
	if !ok {
		t.Fatal("a round robin of 8 left no pair unsure")
	}
	for i := 0; i+1 < len(ranked); i++ {
		a, b := ranked[i], ranked[i+1]
		if a.Elo < b.Elo {
			t.Fatalf("ranked %s (%.1f) above %s (%.1f)", a.PlayerID, a.Elo, b.PlayerID, b.Elo)
		}
		// The difference's interval, Δ ± 1.96·SE(Δ), past 0.
		overlap := -((a.Elo - b.Elo) - z95*fit.DifferenceSE(a.PlayerID, b.PlayerID))
		if los := fit.LOS(a.PlayerID, b.PlayerID); (overlap > 0) != (los < 0.975) {
			t.Errorf("%s-%s: overlap %.2f but LOS %.4f", a.PlayerID, b.PlayerID, overlap, los)
		}
		if math.Abs(overlap-pairs[i].Overlap) > 1e-9 {
			t.Errorf("pair %d: overlap %v, intervals give %v", i, pairs[i].Overlap, overlap)
		}
		width := z95 * fit.DifferenceSE(a.PlayerID, b.PlayerID)
		if math.Abs(width-pairs[i].Width) > 1e-9 {
			t.Errorf("pair %d: width %v, the fit gives %v", i, pairs[i].Width, width)
		}
		if overlap > 0 && width > best.Width+1e-9 {
			t.Errorf("%s-%s is unsure and its interval ±%.1f is wider than the chosen %s-%s's ±%.1f", a.PlayerID, b.PlayerID, width,
				best.Above, best.Below, best.Width)
		}
	}
}

func TestMostUnsureBreaksTiesBySeed(t *testing.T) {
	inf := math.Inf(1)
	pairs := []AdjacentPair{{Above: "A", Below: "B", Rank: 1, Overlap: inf, Width: inf}, {Above: "B", Below: "C", Rank: 2, Overlap: inf, Width: inf},
		{Above: "C", Below: "D", Rank: 3, Overlap: inf, Width: inf}, {Above: "D", Below: "E", Rank: 4, Overlap: -3, Width: inf}}
	chosen := map[string]bool{}
	for seed := range int64(40) {
		p, ok := MostUnsure(pairs, "", seed, 1)
		again, _ := MostUnsure(pairs, "", seed, 1)
		if !ok || p != again || p.Below == "E" {
			t.Fatalf("seed %d: %+v then %+v", seed, p, again)
		}
		chosen[p.Above] = true
	}
	if len(chosen) != 3 {
		t.Errorf("40 seeds chose among %v only", chosen)
	}
	if p, ok := MostUnsure(pairs, "D", 1, 1); !ok || p.Above != "C" {
		t.Errorf("placing D chose %+v", p)
	}
	if _, ok := MostUnsure(pairs[3:], "", 1, 1); ok {
		t.Errorf("a separated pair was chosen")
	}
}

func TestPlacePlaysOnlyTheNewcomer(t *testing.T) {
	strengths := spaced(6)
	var prior []PriorGames // the others' season: every pair, 4 games, the stronger winning 3
	ids := players(6)
	for i, a := range ids[:5] {
		for _, b := range ids[i+1 : 5] {
			prior = append(prior, PriorGames{A: a, B: b, AWins: 3, BWins: 1})
		}
	}
	spec := FormatSpec{UntilSeparated: 12, Place: "P06", Prior: prior}
	sim := simulate(t, spec, strengths, 5, nil)
	if sim.matches == 0 {
		t.Fatal("no match placed P06")
	}
	for _, r := range sim.l.Rounds() {
		for _, m := range r.Matches {
			if m.PlayerA != "P06" && m.PlayerB != "P06" {
				t.Errorf("round %d: %s vs %s does not involve the newcomer", r.Number, m.PlayerA, m.PlayerB)
			}
		}
	}
	for _, bad := range []FormatSpec{{Place: "P06"}, {Place: "P09", UntilSeparated: 3}, {Format: FormatSwiss, Rounds: 2, Place: "P06", UntilSeparated: 3}} {
		if _, err := NewStartInfo(bad, "even_odd", ids, 1); err == nil {
			t.Errorf("%+v accepted", bad)
		}
	}
}
