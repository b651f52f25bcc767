package engine

import (
	"slices"
	"testing"
)

// checkRounds checks a schedule's shape: rounds numbered 1.., match ids
// R<r>M<k>, nobody twice in a round. It returns how often each ordered
// pair (first seat, second seat) plays.
func checkRounds(t *testing.T, rounds []Round) map[[2]string]int {
	t.Helper()
	seats := map[[2]string]int{}
	for i, r := range rounds {
		if r.Number != i+1 {
			t.Errorf("round %d numbered %d", i+1, r.Number)
		}
		in := map[string]bool{}
		for k, p := range r.Matches {
			if p.MatchID != MatchID(r.Number, k+1) || p.Round != r.Number {
				t.Errorf("round %d match %d: %+v", r.Number, k+1, p)
			}
			if in[p.PlayerA] || in[p.PlayerB] || p.PlayerA == p.PlayerB {
				t.Errorf("round %d: %s or %s plays twice", r.Number, p.PlayerA, p.PlayerB)
			}
			in[p.PlayerA], in[p.PlayerB] = true, true
			seats[[2]string{p.PlayerA, p.PlayerB}]++
		}
	}
	return seats
}

// TestDoubleRoundRobin: every pair twice, once in each seat; 8 players
// make 56 matches in 14 rounds, 7 players 42 in 14.
func TestDoubleRoundRobin(t *testing.T) {
	for _, tc := range []struct{ n, matches, rounds int }{{8, 56, 14}, {7, 42, 14}, {2, 2, 2}} {
		field := players(tc.n)
		rounds, planned, err := Schedule(FormatSpec{Format: FormatDoubleRoundRobin}, field, 1)
		if err != nil {
			t.Fatal(err)
		}
		seats := checkRounds(t, rounds)
		if planned != tc.rounds || len(rounds) != tc.rounds || countMatches(rounds) != tc.matches {
			t.Errorf("n=%d: %d matches in %d rounds (planned %d), want %d in %d", tc.n, countMatches(rounds), len(rounds), planned, tc.matches, tc.rounds)
		}
		for i, a := range field {
			for _, b := range field[i+1:] {
				if seats[[2]string{a, b}] != 1 || seats[[2]string{b, a}] != 1 {
					t.Errorf("n=%d: %s-%s %d times, %s-%s %d times; want once each", tc.n, a, b, seats[[2]string{a, b}], b, a, seats[[2]string{b, a}])
				}
			}
		}
	}
}

// TestGauntlet: k challengers among n players make k·n - k(k+1)/2 pairs
// (6 players: 5 for one challenger, 9 for two), each played games times
// with seats alternating; the others never meet.
func TestGauntlet(t *testing.T) {
	field := players(6)
	for _, tc := range []struct {
		challengers []string
		games       int
		pairs       int
	}{{[]string{"P01"}, 1, 5}, {[]string{"P02", "P05"}, 1, 9}, {[]string{"P03"}, 4, 5}} {
		rounds, _, err := Schedule(FormatSpec{Format: FormatGauntlet, Challengers: tc.challengers, GamesPerPair: tc.games}, field, 1)
		if err != nil {
			t.Fatal(err)
		}
		seats := checkRounds(t, rounds)
		if got := countMatches(rounds); got != tc.pairs*tc.games {
			t.Errorf("%v x%d: %d matches, want %d", tc.challengers, tc.games, got, tc.pairs*tc.games)
		}
		for pair, n := range seats {
			if !slices.Contains(tc.challengers, pair[0]) && !slices.Contains(tc.challengers, pair[1]) {
				t.Errorf("%v: non-challengers %s and %s meet", tc.challengers, pair[0], pair[1])
			}
			if back := seats[[2]string{pair[1], pair[0]}]; n+back != tc.games || n < tc.games/2 {
				t.Errorf("%v x%d: %s-%s %d and %d times, want %d seats alternating", tc.challengers, tc.games, pair[0], pair[1], n, back, tc.games)
			}
		}
	}
	for _, bad := range [][]string{nil, {"P09"}, {"P01", "P01"}} {
		if _, _, err := Schedule(FormatSpec{Format: FormatGauntlet, Challengers: bad}, field, 1); err == nil {
			t.Errorf("challengers %v accepted", bad)
		}
	}
}

// TestSwissScheduleAndLeague: a Swiss league starts with its first round
// only; NextRound pairs the next when a round is done, the league takes it
// as round_scheduled, refuses a round out of turn, and completes only with
// every planned round played.
func TestSwissScheduleAndLeague(t *testing.T) {
	field := players(5)
	if _, _, err := Schedule(FormatSpec{Format: FormatSwiss, Rounds: 6}, field, 1); err == nil {
		t.Errorf("6 rounds of 5 players accepted")
	}
	spec := FormatSpec{Format: FormatSwiss, Rounds: 3}
	rounds, planned, err := Schedule(spec, field, 9)
	if err != nil || len(rounds) != 1 || planned != 3 {
		t.Fatalf("swiss schedule: %d rounds, planned %d, %v", len(rounds), planned, err)
	}
	l := NewLeague("l", DefaultScoring())
	for _, p := range field {
		mustApply(t, l, Event{Kind: EventAgentRegistered, Agent: &AgentInfo{ID: p, Role: RolePlayer, Endpoint: p}})
	}
	mustApply(t, l, Event{Kind: EventLeagueStarted, Start: &StartInfo{Seed: 9, Players: field, LegacyRounds: rounds, Format: &spec, RoundsPlanned: planned}})
	if _, due, _ := l.NextRound(); due {
		t.Fatal("a round is due before round 1 is played")
	}
	for n := 1; n <= 3; n++ {
		for _, p := range l.Round(n).Matches {
			mustApply(t, l, Event{Kind: EventMatchResult, Result: &Result{MatchID: p.MatchID, Round: n, PlayerA: p.PlayerA, PlayerB: p.PlayerB, Status: StatusWin, Winner: p.PlayerA}})
		}
		if n == 3 {
			break
		}
		if err := l.Apply(Event{Kind: EventLeagueCompleted}); err == nil {
			t.Fatalf("completed after round %d of 3", n)
		}
		next, due, err := l.NextRound()
		if !due || err != nil || next.Number != n+1 {
			t.Fatalf("round %d: due %v, %+v, %v", n+1, due, next, err)
		}
		wrong := next
		wrong.Number = n + 2
		if err := l.Apply(Event{Kind: EventRoundScheduled, Schedule: &wrong}); err == nil {
			t.Errorf("round %d accepted as round %d", n+1, n+2)
		}
		mustApply(t, l, Event{Kind: EventRoundScheduled, Round: n + 1, Schedule: &next})
	}
	if _, due, _ := l.NextRound(); due || l.PlannedRounds() != 3 {
		t.Errorf("a round is due after the last, or planned %d", l.PlannedRounds())
	}
	mustApply(t, l, Event{Kind: EventLeagueCompleted})
}
