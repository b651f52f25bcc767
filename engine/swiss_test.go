package engine

import (
	"cmp"
	"fmt"
	"math/bits"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"
)

// playSwiss pairs and plays a whole Swiss league of n players: each round
// paired by SwissRound from the rounds and results so far, each result
// drawn from rng (wins, draws and technical losses).
func playSwiss(t *testing.T, n, rounds int, seed int64, rng *rand.Rand) ([]string, []Round, []Result) {
	t.Helper()
	players := make([]string, n)
	for i := range players {
		players[i] = fmt.Sprintf("P%03d", i+1)
	}
	var past []Round
	var results []Result
	for r := 1; r <= rounds; r++ {
		round, err := SwissRound(r, players, past, results, seed)
		if err != nil {
			t.Fatalf("n=%d seed=%d round %d: %v", n, seed, r, err)
		}
		past = append(past, round)
		for _, p := range round.Matches {
			res := Result{MatchID: p.MatchID, Round: r, PlayerA: p.PlayerA, PlayerB: p.PlayerB, Status: StatusWin, Winner: p.PlayerA}
			switch x := rng.IntN(10); {
			case x < 4:
				res.Winner = p.PlayerB
			case x < 6:
				res.Status, res.Winner = StatusDraw, ""
			case x == 6:
				res.Status, res.Offenders = StatusTechnicalLoss, []string{p.PlayerB}
			}
			results = append(results, res)
		}
	}
	return players, past, results
}

// TestSwissProperties pairs many leagues (sizes 2 to 41, odd and even,
// many seeds, random results) and checks every round: each player at most
// once, no rematch, exactly one bye for an odd count and never a second
// one, pairing within score groups (at most one player floats down out of
// each group), the seat rule, and the same pairings from the same inputs.
func TestSwissProperties(t *testing.T) {
	for n := 2; n <= 41; n++ {
		for seed := int64(1); seed <= 12; seed++ {
			// A Swiss league's usual length, ceil(log2 n) + 2, within the
			// n/2 rounds up to which a pairing without rematch always exists.
			rounds := max(min(bits.Len(uint(n-1))+2, n/2), 1)
			players, past, results := playSwiss(t, n, rounds, seed, rand.New(rand.NewPCG(uint64(seed), uint64(n))))
			checkSwiss(t, n, seed, players, past, results)
		}
	}
}

func checkSwiss(t *testing.T, n int, seed int64, players []string, past []Round, results []Result) {
	t.Helper()
	met := map[[2]string]bool{}
	byes := map[string]int{}
	for i, round := range past {
		entrants := swissStandings(players, past[:i], results[:countMatches(past[:i])])
		byID := map[string]*swissEntrant{}
		for _, e := range entrants {
			byID[e.id] = e
		}
		seen := map[string]bool{}
		for _, p := range round.Matches {
			for _, id := range []string{p.PlayerA, p.PlayerB} {
				if seen[id] {
					t.Fatalf("n=%d seed=%d round %d: %s plays twice", n, seed, i+1, id)
				}
				seen[id] = true
			}
			key := [2]string{min(p.PlayerA, p.PlayerB), max(p.PlayerA, p.PlayerB)}
			if met[key] {
				t.Errorf("n=%d seed=%d round %d: rematch %s-%s", n, seed, i+1, p.PlayerA, p.PlayerB)
			}
			met[key] = true
			a, b := byID[p.PlayerA], byID[p.PlayerB]
			if a.balance > b.balance {
				t.Errorf("n=%d seed=%d round %d: %s (seat balance %d) sits first against %s (%d)", n, seed, i+1, a.id, a.balance, b.id, b.balance)
			}
		}
		if want := n - n%2; len(seen) != want {
			t.Errorf("n=%d seed=%d round %d: %d players paired, want %d", n, seed, i+1, len(seen), want)
		}
		for _, id := range players {
			if !seen[id] {
				byes[id]++
				if byes[id] > 1 {
					t.Errorf("n=%d seed=%d round %d: second bye for %s", n, seed, i+1, id)
				}
			}
		}
		checkScoreGroups(t, n, seed, i+1, round, entrants, seen)
	}
	again, err := SwissRound(len(past), players, past[:len(past)-1], results[:countMatches(past[:len(past)-1])], seed)
	if err != nil || !reflect.DeepEqual(again, past[len(past)-1]) {
		t.Errorf("n=%d seed=%d: pairing the last round again gave %+v, first %+v (%v)", n, seed, again, past[len(past)-1], err)
	}
}

// checkScoreGroups checks that boards were paired top down within score
// groups: each board holds the best-ranked player still unpaired, and its
// opponent comes from a lower score group only when that player had met
// everyone left in its own group, or meeting any of them would have left
// the rest impossible to pair without a rematch.
func checkScoreGroups(t *testing.T, n int, seed int64, round int, r Round, entrants []*swissEntrant, paired map[string]bool) {
	t.Helper()
	var rest []*swissEntrant
	for _, e := range entrants {
		if paired[e.id] {
			rest = append(rest, e)
		}
	}
	slices.SortStableFunc(rest, func(a, b *swissEntrant) int {
		return cmp.Or(cmp.Compare(b.score, a.score), cmp.Compare(a.number, b.number))
	})
	for _, p := range r.Matches {
		top := rest[0]
		other := p.PlayerA
		if other == top.id {
			other = p.PlayerB
		} else if p.PlayerB != top.id {
			t.Fatalf("n=%d seed=%d round %d: board %s is %s-%s, but %s is the best-ranked unpaired player", n, seed, round, p.MatchID, p.PlayerA, p.PlayerB, top.id)
		}
		k := slices.IndexFunc(rest, func(e *swissEntrant) bool { return e.id == other })
		if rest[k].score != top.score {
			for j := 1; j < len(rest) && rest[j].score == top.score; j++ {
				if top.opponents[rest[j].id] {
					continue
				}
				left := slices.Delete(slices.Clone(rest[1:]), j-1, j)
				if _, ok := pairSwiss(left, false); ok {
					t.Errorf("n=%d seed=%d round %d: %s (score %.1f) meets %s (%.1f) though %s of its own group was free",
						n, seed, round, top.id, top.score, other, rest[k].score, rest[j].id)
				}
			}
		}
		rest = slices.Delete(rest, k, k+1)[1:]
	}
}

func countMatches(rounds []Round) int {
	n := 0
	for _, r := range rounds {
		n += len(r.Matches)
	}
	return n
}

// TestSwissFirstRound: round 1 pairs the top half against the bottom half
// (1-5, 2-6, 3-7, 4-8), seats alternating down the boards.
func TestSwissFirstRound(t *testing.T) {
	players := []string{"P1", "P2", "P3", "P4", "P5", "P6", "P7", "P8"}
	r, err := SwissRound(1, players, nil, nil, 2)
	if err != nil {
		t.Fatal(err)
	}
	want := [][2]string{{"P1", "P5"}, {"P6", "P2"}, {"P3", "P7"}, {"P8", "P4"}}
	for k, p := range r.Matches {
		if got := [2]string{p.PlayerA, p.PlayerB}; got != want[k] || p.MatchID != MatchID(1, k+1) {
			t.Errorf("board %d: %s %v, want %v", k+1, p.MatchID, got, want[k])
		}
	}
}

// TestSwissBeyondSafeRounds plays as many rounds as a league can have (n-1,
// or n for odd n): the pairing never fails, nobody plays twice in a round
// and nobody gets a second bye, even where rematches cannot be avoided.
func TestSwissBeyondSafeRounds(t *testing.T) {
	for n := 2; n <= 12; n++ {
		limit := n - 1 + n%2
		for seed := int64(1); seed <= 5; seed++ {
			players, past, _ := playSwiss(t, n, limit, seed, rand.New(rand.NewPCG(uint64(seed), 99)))
			byes := map[string]int{}
			for i, round := range past {
				seen := map[string]bool{}
				for _, p := range round.Matches {
					if seen[p.PlayerA] || seen[p.PlayerB] || p.PlayerA == p.PlayerB {
						t.Fatalf("n=%d round %d: a player twice", n, i+1)
					}
					seen[p.PlayerA], seen[p.PlayerB] = true, true
				}
				for _, id := range players {
					if !seen[id] {
						if byes[id]++; byes[id] > 1 {
							t.Errorf("n=%d seed=%d round %d: second bye for %s", n, seed, i+1, id)
						}
					}
				}
			}
		}
	}
}
