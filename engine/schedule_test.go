package engine

import (
	"fmt"
	"reflect"
	"testing"
)

// players returns n ids "P01", "P02", ...
func players(n int) []string {
	ids := make([]string, n)
	for i := range ids {
		ids[i] = fmt.Sprintf("P%02d", i+1)
	}
	return ids
}

func TestRoundRobinFourPlayersMatchesReferenceTable(t *testing.T) {
	rounds, err := RoundRobin(players(4))
	if err != nil {
		t.Fatal(err)
	}
	want := []Round{
		{Number: 1, Matches: []Pairing{{"R1M1", 1, "P01", "P02"}, {"R1M2", 1, "P03", "P04"}}},
		{Number: 2, Matches: []Pairing{{"R2M1", 2, "P01", "P03"}, {"R2M2", 2, "P02", "P04"}}},
		{Number: 3, Matches: []Pairing{{"R3M1", 3, "P01", "P04"}, {"R3M2", 3, "P02", "P03"}}},
	}
	if !reflect.DeepEqual(rounds, want) {
		t.Errorf("RoundRobin(P01..P04) =\n%v\nwant\n%v", rounds, want)
	}
}

func TestRoundRobinProperties(t *testing.T) {
	for n := 2; n <= 12; n++ {
		t.Run(fmt.Sprintf("n=%d", n), func(t *testing.T) {
			ids := players(n)
			rounds, err := RoundRobin(ids)
			if err != nil {
				t.Fatal(err)
			}
			checkRoundRobin(t, ids, rounds)
		})
	}
}

// checkRoundRobin checks the shape of a schedule over ids.
func checkRoundRobin(t *testing.T, ids []string, rounds []Round) {
	t.Helper()
	n := len(ids)
	wantRounds := n - 1
	if n%2 == 1 {
		wantRounds = n
	}
	if len(rounds) != wantRounds {
		t.Fatalf("got %d rounds, want %d", len(rounds), wantRounds)
	}
	seed := map[string]int{}
	for i, id := range ids {
		seed[id] = i
	}
	pairs := map[[2]string]int{}
	matchIDs := map[string]bool{}
	for r, round := range rounds {
		if round.Number != r+1 {
			t.Errorf("round %d numbered %d", r+1, round.Number)
		}
		if len(round.Matches) != n/2 {
			t.Errorf("round %d has %d matches, want %d", round.Number, len(round.Matches), n/2)
		}
		inRound := map[string]bool{}
		for k, m := range round.Matches {
			if want := fmt.Sprintf("R%dM%d", round.Number, k+1); m.MatchID != want {
				t.Errorf("match id %q, want %q", m.MatchID, want)
			}
			if matchIDs[m.MatchID] {
				t.Errorf("duplicate match id %q", m.MatchID)
			}
			matchIDs[m.MatchID] = true
			if m.Round != round.Number {
				t.Errorf("%s: Round %d, want %d", m.MatchID, m.Round, round.Number)
			}
			if seed[m.PlayerA] >= seed[m.PlayerB] {
				t.Errorf("%s: PlayerA %s is not seeded before PlayerB %s", m.MatchID, m.PlayerA, m.PlayerB)
			}
			for _, p := range []string{m.PlayerA, m.PlayerB} {
				if inRound[p] {
					t.Errorf("round %d: %s plays twice", round.Number, p)
				}
				inRound[p] = true
			}
			pairs[[2]string{m.PlayerA, m.PlayerB}]++
		}
	}
	if want := n * (n - 1) / 2; len(pairs) != want || len(matchIDs) != want {
		t.Errorf("got %d distinct pairs in %d matches, want %d", len(pairs), len(matchIDs), want)
	}
	for p, c := range pairs {
		if c != 1 {
			t.Errorf("pair %v meets %d times", p, c)
		}
	}
}

func TestRoundRobinOddPlayerSitsOutOncePerRound(t *testing.T) {
	ids := players(5)
	rounds, err := RoundRobin(ids)
	if err != nil {
		t.Fatal(err)
	}
	satOut := map[string]int{}
	for _, r := range rounds {
		playing := map[string]bool{}
		for _, m := range r.Matches {
			playing[m.PlayerA], playing[m.PlayerB] = true, true
		}
		for _, id := range ids {
			if !playing[id] {
				satOut[id]++
			}
		}
	}
	for _, id := range ids {
		if satOut[id] != 1 {
			t.Errorf("%s sits out %d rounds, want 1", id, satOut[id])
		}
	}
}

func TestRoundRobinErrors(t *testing.T) {
	tests := []struct {
		name    string
		players []string
	}{
		{"nil", nil},
		{"no players", []string{}},
		{"one player", []string{"P01"}},
		{"duplicate", []string{"P01", "P02", "P01"}},
		{"empty id", []string{"P01", ""}},
		{"empty id first", []string{"", "P02", "P03"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rounds, err := RoundRobin(tt.players)
			if err == nil {
				t.Errorf("RoundRobin(%q) = %v, want an error", tt.players, rounds)
			}
		})
	}
}

func TestRoundRobinDoesNotModifyInput(t *testing.T) {
	ids := players(7)
	before := append([]string(nil), ids...)
	if _, err := RoundRobin(ids); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(ids, before) {
		t.Errorf("input changed to %v", ids)
	}
}
