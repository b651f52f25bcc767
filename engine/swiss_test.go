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

// TestSwissProperties pairs many leagues (sizes 2 to 41 and a few large
// ones, odd and even, many seeds, random results) and checks every round:
// each player at most once, no rematch, exactly one bye for an odd count
// and never a second one, pairing within score groups (at most one player
// floats down out of each group), the seat rules (first minus second seats
// within ±2, never three games in a row in one seat) wherever a pairing
// can keep them, and the same pairings from the same inputs.
func TestSwissProperties(t *testing.T) {
	var rounds, relaxed int
	check := func(n, length int, seed int64) {
		players, past, results := playSwiss(t, n, length, seed, rand.New(rand.NewPCG(uint64(seed), uint64(n))))
		rounds += len(past)
		relaxed += checkSwiss(t, n, seed, players, past, results)
	}
	for n := 2; n <= 41; n++ {
		for seed := int64(1); seed <= 12; seed++ {
			// A Swiss league's usual length, ceil(log2 n) + 2, within the
			// n/2 rounds up to which a pairing without rematch always exists.
			check(n, max(min(bits.Len(uint(n-1))+2, n/2), 1), seed)
		}
	}
	for _, n := range []int{64, 101, 256, 1000} {
		for seed := int64(1); seed <= 2; seed++ {
			check(n, 11, seed)
		}
	}
	// At these lengths every round keeps the seat rules (checkSwiss fails
	// a league of more than 5 players that had to drop them).
	t.Logf("%d rounds paired, %d of them without the seat rules", rounds, relaxed)
}

// checkSwiss checks every round of a played Swiss league and returns how
// many were paired with a rule dropped.
func checkSwiss(t *testing.T, n int, seed int64, players []string, past []Round, results []Result) (relaxed int) {
	t.Helper()
	met := map[[2]string]bool{}
	byes := map[string]int{}
	for i, round := range past {
		entrants := swissStandings(players, past[:i], results[:countMatches(past[:i])])
		rules := swissLevelOf(entrants)
		if rules != swissLevels[0] {
			relaxed++
			if n > 5 {
				t.Errorf("n=%d seed=%d round %d: paired with %+v", n, seed, i+1, rules)
			}
		}
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
			if met[key] && !rules.rematches {
				t.Errorf("n=%d seed=%d round %d: rematch %s-%s", n, seed, i+1, p.PlayerA, p.PlayerB)
			}
			met[key] = true
			checkSeats(t, fmt.Sprintf("n=%d seed=%d round %d", n, seed, i+1), byID[p.PlayerA], byID[p.PlayerB], rules)
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
		checkScoreGroups(t, n, seed, i+1, round, entrants, seen, rules)
	}
	again, err := SwissRound(len(past), players, past[:len(past)-1], results[:countMatches(past[:len(past)-1])], seed)
	if err != nil || !reflect.DeepEqual(again, past[len(past)-1]) {
		t.Errorf("n=%d seed=%d: pairing the last round again gave %+v, first %+v (%v)", n, seed, again, past[len(past)-1], err)
	}
	return relaxed
}

// swissLevelOf is the strictest rules under which the entrants can be
// paired: the rules their round must keep.
func swissLevelOf(entrants []*swissEntrant) swissRules {
	order := slices.Clone(entrants)
	slices.SortStableFunc(order, func(a, b *swissEntrant) int {
		return cmp.Or(cmp.Compare(b.score, a.score), cmp.Compare(a.number, b.number))
	})
	for _, rules := range swissLevels {
		if _, ok := pairWithBye(order, rules); ok {
			return rules
		}
	}
	return swissLevels[len(swissLevels)-1]
}

// checkSeats checks the seats of one board, a seated first and b second,
// given their records before it: under the seat rules each ends within ±2
// first-minus-second seats and with at most two games in a row in one
// seat; a player due no seat by the rules gets its preference (fewer first
// seats, else the seat it did not have last) unless its opponent's due
// seat or its own preference decided otherwise.
func checkSeats(t *testing.T, where string, a, b *swissEntrant, rules swissRules) {
	t.Helper()
	if !rules.freeSeats {
		for _, s := range []struct {
			e    *swissEntrant
			seat int
		}{{a, 1}, {b, -1}} {
			balance, run := s.e.balance+s.seat, s.seat
			if s.e.run*s.seat > 0 {
				run = s.e.run + s.seat
			}
			if balance < -maxSeatBalance || balance > maxSeatBalance || run < -maxSeatRun || run > maxSeatRun {
				t.Errorf("%s: %s seated %+d from balance %d, run %d: now %d, %d", where, s.e.id, s.seat, s.e.balance, s.e.run, balance, run)
			}
		}
	}
	if a.seatDue() == 0 && b.seatDue() == 0 && a.balance > b.balance {
		t.Errorf("%s: %s (seat balance %d) sits first against %s (%d)", where, a.id, a.balance, b.id, b.balance)
	}
}

// checkScoreGroups checks that boards were paired top down within score
// groups: each board holds the best-ranked player still unpaired, and its
// opponent comes from a lower score group only when that player could meet
// nobody left in its own group under the rules, or meeting any of them
// would have left the rest impossible to pair under them.
func checkScoreGroups(t *testing.T, n int, seed int64, round int, r Round, entrants []*swissEntrant, paired map[string]bool, rules swissRules) {
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
				if !mayMeet(top, rest[j], rules) {
					continue
				}
				left := slices.Delete(slices.Clone(rest[1:]), j-1, j)
				budget := swissSearchBound
				if _, ok := pairSwiss(left, rules, &budget); ok {
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
// and nobody gets a second bye, even where rematches cannot be avoided,
// and the seat rules hold in every round that could keep them.
func TestSwissBeyondSafeRounds(t *testing.T) {
	for n := 2; n <= 12; n++ {
		limit := n - 1 + n%2
		for seed := int64(1); seed <= 5; seed++ {
			players, past, results := playSwiss(t, n, limit, seed, rand.New(rand.NewPCG(uint64(seed), 99)))
			byes := map[string]int{}
			for i, round := range past {
				entrants := swissStandings(players, past[:i], results[:countMatches(past[:i])])
				rules := swissLevelOf(entrants)
				byID := map[string]*swissEntrant{}
				for _, e := range entrants {
					byID[e.id] = e
				}
				seen := map[string]bool{}
				for _, p := range round.Matches {
					if seen[p.PlayerA] || seen[p.PlayerB] || p.PlayerA == p.PlayerB {
						t.Fatalf("n=%d round %d: a player twice", n, i+1)
					}
					checkSeats(t, fmt.Sprintf("n=%d seed=%d round %d", n, seed, i+1), byID[p.PlayerA], byID[p.PlayerB], rules)
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

// TestSwissSeatRules: the seat a player is due decides over preferences
// and over the lot, and two players due the same seat do not meet.
func TestSwissSeatRules(t *testing.T) {
	entrant := func(id string, balance, run int) *swissEntrant {
		return &swissEntrant{id: id, balance: balance, run: run, opponents: map[string]bool{}}
	}
	for _, tc := range []struct {
		name  string
		a, b  *swissEntrant
		first string // "" : they may not meet
	}{
		{"second twice in a row sits first", entrant("A", -1, -2), entrant("B", -1, -1), "A"},
		{"first twice in a row sits second", entrant("A", 0, 2), entrant("B", 1, 1), "B"},
		{"two ahead sits second though it sat second last", entrant("A", 2, -1), entrant("B", 1, 1), "B"},
		{"two behind sits first", entrant("A", 0, 1), entrant("B", -2, -1), "B"},
		{"preference: fewer first seats sits first", entrant("A", 1, 1), entrant("B", 0, -1), "B"},
		{"preference: the one second last time sits first", entrant("A", 0, 1), entrant("B", 0, -1), "B"},
		{"both due first", entrant("A", -2, -1), entrant("B", 0, -2), ""},
		{"both due second", entrant("A", 2, 1), entrant("B", 1, 2), ""},
	} {
		if meet := mayMeet(tc.a, tc.b, swissRules{}); meet != (tc.first != "") {
			t.Errorf("%s: may meet %v", tc.name, meet)
			continue
		}
		if !mayMeet(tc.a, tc.b, swissRules{freeSeats: true}) {
			t.Errorf("%s: may not meet without the seat rules", tc.name)
		}
		if tc.first == "" {
			continue
		}
		for _, lot := range []bool{true, false} {
			if got := seat(tc.a, tc.b, lot); got[0] != tc.first {
				t.Errorf("%s (lot %v): %s sits first, want %s", tc.name, lot, got[0], tc.first)
			}
		}
	}
}
