package engine

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// win, draw and techLoss are hand-built results for the tables below.
func tbWin(winner, loser string) Result {
	return Result{PlayerA: winner, PlayerB: loser, Status: StatusWin, Winner: winner}
}

func tbDraw(a, b string) Result { return Result{PlayerA: a, PlayerB: b, Status: StatusDraw} }

func tbTechLoss(winner, offender string) Result {
	return Result{PlayerA: winner, PlayerB: offender, Status: StatusTechnicalLoss, Winner: winner, Offenders: []string{offender}}
}

func mustTiebreakers(t *testing.T, names ...string) Tiebreakers {
	t.Helper()
	tb, err := ParseTiebreakers(names)
	if err != nil {
		t.Fatal(err)
	}
	return tb
}

// tableOrder is the table's player ids, best first.
func tableOrder(s Scoring, results []Result) []string {
	var ids []string
	for i, r := range Standings(s, nil, results) {
		if r.Rank != i+1 {
			return []string{fmt.Sprintf("rank %d at line %d", r.Rank, i+1)}
		}
		ids = append(ids, r.PlayerID)
	}
	return ids
}

func checkOrder(t *testing.T, what string, s Scoring, results []Result, want ...string) {
	t.Helper()
	if got := tableOrder(s, results); !slices.Equal(got, want) {
		t.Errorf("%s (tiebreakers %q): order %v, want %v", what, s.Tiebreakers, got, want)
	}
}

func withTiebreakers(t *testing.T, names ...string) Scoring {
	s := DefaultScoring()
	s.Tiebreakers = mustTiebreakers(t, names...)
	return s
}

func TestParseTiebreakers(t *testing.T) {
	for _, tt := range []struct {
		names []string
		want  Tiebreakers
	}{
		{nil, ""},
		{[]string{"points", "wins", "draws"}, ""}, // the specification's list is the default
		{[]string{"WINS", "Draws"}, ""},
		{[]string{"head_to_head"}, "head_to_head"},
		{[]string{"Head-to-Head", "h2h", "points", "Sonneborn-Berger", "SB", "Buchholz"}, "head_to_head,sonneborn_berger,buchholz"},
		{[]string{"direct encounter", "draws", "wins"}, "head_to_head,draws,wins"},
		{[]string{"draws", "wins"}, "draws,wins"},
		{[]string{"wins"}, "wins"},
	} {
		got, err := ParseTiebreakers(tt.names)
		if err != nil || got != tt.want {
			t.Errorf("ParseTiebreakers(%q) = %q, %v; want %q", tt.names, got, err, tt.want)
		}
	}
	_, err := ParseTiebreakers([]string{"points", "goal_difference"})
	if err == nil || !strings.Contains(err.Error(), `"goal_difference"`) ||
		!strings.Contains(err.Error(), "points, wins, draws, head_to_head, sonneborn_berger, buchholz") {
		t.Errorf("an unknown name: error %v, want one naming it and the known ones", err)
	}
}

func TestTiebreakersLegend(t *testing.T) {
	if got, want := Tiebreakers("").Legend(), "points, wins, draws, then player id"; got != want {
		t.Errorf("default legend %q, want %q", got, want)
	}
	if got, want := mustTiebreakers(t, "head_to_head", "sb", "buchholz").Legend(),
		"points, head-to-head, Sonneborn-Berger, Buchholz, then player id"; got != want {
		t.Errorf("legend %q, want %q", got, want)
	}
}

// TestTiebreakersJSON: the default scoring is written as before (no
// tiebreakers key: a league_started journaled by this version is the one an
// older one wrote), others as a list that reads back the same.
func TestTiebreakersJSON(t *testing.T) {
	raw, err := json.Marshal(DefaultScoring())
	if err != nil || string(raw) != `{"win":3,"draw":1,"loss":0,"technical_loss":0}` {
		t.Errorf("default scoring in JSON: %s, %v", raw, err)
	}
	s := withTiebreakers(t, "Head-To-Head", "wins")
	if raw, err = json.Marshal(s); err != nil || string(raw) != `{"win":3,"draw":1,"loss":0,"technical_loss":0,"tiebreakers":["head_to_head","wins"]}` {
		t.Errorf("scoring in JSON: %s, %v", raw, err)
	}
	var back Scoring
	if err := json.Unmarshal(raw, &back); err != nil || back != s {
		t.Errorf("read back %+v, %v; want %+v", back, err, s)
	}
	if err := json.Unmarshal([]byte(`{"tiebreakers":["coin_toss"]}`), &back); err == nil {
		t.Error("an unknown tie-breaker in JSON was read")
	}
}

// TestTiebreakWinsAndDraws: X (a win) and Y (three draws) tie on 3 points;
// wins, the default's first key, puts X first, draws puts Y first.
func TestTiebreakWinsAndDraws(t *testing.T) {
	results := []Result{tbWin("X", "L1"), tbDraw("Y", "D1"), tbDraw("Y", "D2"), tbDraw("Y", "D3")}
	checkOrder(t, "default", DefaultScoring(), results, "X", "Y", "D1", "D2", "D3", "L1")
	checkOrder(t, "wins", withTiebreakers(t, "wins"), results, "X", "Y", "D1", "D2", "D3", "L1")
	checkOrder(t, "draws", withTiebreakers(t, "draws"), results, "Y", "X", "D1", "D2", "D3", "L1")
}

// roundRobinExample is the specification's (ratings §5): A–B 1–0, A–C
// ½–½, A–D 0–1, B–C 1–0, B–D 1–0, C–D ½–½. With 3/1/0 points: B 6, A 4,
// D 4, C 2; A and D have a win and a draw each. Sonneborn-Berger: A beat B
// (6) and drew C (2): 7; D beat A (4) and drew C: 5. D beat A.
var roundRobinExample = []Result{
	tbWin("A", "B"), tbDraw("A", "C"), tbWin("D", "A"), tbWin("B", "C"), tbWin("B", "D"), tbDraw("C", "D"),
}

func TestTiebreakHeadToHead(t *testing.T) {
	checkOrder(t, "default", DefaultScoring(), roundRobinExample, "B", "A", "D", "C")
	checkOrder(t, "head-to-head", withTiebreakers(t, "head_to_head"), roundRobinExample, "B", "D", "A", "C")
	checkOrder(t, "head-to-head first", withTiebreakers(t, "head_to_head", "sonneborn_berger"), roundRobinExample, "B", "D", "A", "C")
}

func TestTiebreakSonnebornBerger(t *testing.T) {
	checkOrder(t, "Sonneborn-Berger", withTiebreakers(t, "sonneborn_berger"), roundRobinExample, "B", "A", "D", "C")
	checkOrder(t, "Sonneborn-Berger first", withTiebreakers(t, "sonneborn_berger", "head_to_head"), roundRobinExample, "B", "A", "D", "C")
	// The values, in half points: a win counts the opponent's points, a
	// draw half of them, a loss and a technical loss nothing.
	tb := NewTable(withTiebreakers(t, "sonneborn_berger"))
	for _, r := range append(slices.Clone(roundRobinExample), tbTechLoss("C", "E")) {
		tb.Record(r)
	}
	rows := tb.Rows()
	got := tb.keyValues(rows, TiebreakSonnebornBerger)
	// C now has 5 points; A: B 6 + ½ C 5 = 8.5; D: A 4 + ½ C = 6.5;
	// B: C 5 + D 4 = 9; C: ½ A + ½ D + E 0 = 4.
	want := map[string]int64{"A": 17, "B": 18, "C": 8, "D": 13, "E": 0}
	for id, v := range want {
		if got[id] != v {
			t.Errorf("Sonneborn-Berger of %s = %d half points, want %d", id, got[id], v)
		}
	}
}

// TestTiebreakBuchholz: a Swiss-like table where A, B and Y tie on a win
// each. A beat X (0 points), B beat Y (3), Y beat Z (0) and lost to B
// (3): Buchholz B 3, Y 3, A 0; the default order is by id.
func TestTiebreakBuchholz(t *testing.T) {
	results := []Result{tbWin("A", "X"), tbWin("B", "Y"), tbWin("Y", "Z")}
	checkOrder(t, "default", DefaultScoring(), results, "A", "B", "Y", "X", "Z")
	checkOrder(t, "Buchholz", withTiebreakers(t, "buchholz"), results, "B", "Y", "A", "X", "Z")
	// An opponent met twice counts twice: M beat N twice, N beat O.
	tb := NewTable(withTiebreakers(t, "buchholz"))
	for _, r := range []Result{tbWin("M", "N"), tbWin("M", "N"), tbWin("N", "O")} {
		tb.Record(r)
	}
	got := tb.keyValues(tb.Rows(), TiebreakBuchholz)
	if want := (map[string]int64{"M": 6, "N": 12, "O": 3}); got["M"] != want["M"] || got["N"] != want["N"] || got["O"] != want["O"] {
		t.Errorf("Buchholz %v, want %v", got, want)
	}
}

// TestTiebreakHeadToHeadCycle: X1 beat X2, X2 beat X3, X3 beat X1, and all
// three end on 6 points (X1 and X2 beat someone else, X3 drew three
// times). Head-to-head gives each 3, so they stay tied and the next key
// decides: draws puts X3 first; with no next key the player id does.
// Points against H and I, outside the tie, do not count.
func TestTiebreakHeadToHeadCycle(t *testing.T) {
	results := []Result{
		tbWin("X1", "X2"), tbWin("X2", "X3"), tbWin("X3", "X1"),
		tbWin("X1", "H"), tbWin("X2", "I"), tbDraw("X3", "E"), tbDraw("X3", "F"), tbDraw("X3", "G"),
	}
	rest := []string{"E", "F", "G", "H", "I"}
	checkOrder(t, "head-to-head alone", withTiebreakers(t, "head_to_head"), results, append([]string{"X1", "X2", "X3"}, rest...)...)
	checkOrder(t, "head-to-head then draws", withTiebreakers(t, "head_to_head", "draws"), results, append([]string{"X3", "X1", "X2"}, rest...)...)
	checkOrder(t, "default", DefaultScoring(), results, append([]string{"X1", "X2", "X3"}, rest...)...)
	tb := NewTable(withTiebreakers(t, "head_to_head"))
	for _, r := range results {
		tb.Record(r)
	}
	rows := tb.Rows()
	if got := tb.keyValues(rows[:3], TiebreakHeadToHead); got["X1"] != 3 || got["X2"] != 3 || got["X3"] != 3 {
		t.Errorf("head-to-head in the cycle %v, want 3 each", got)
	}
}

// TestTiebreakHeadToHeadAmongTiedOnly: head-to-head counts only the games
// among the players tied when it applies, after the keys before it.
func TestTiebreakHeadToHeadAmongTiedOnly(t *testing.T) {
	// A, D tie on 4 points (roundRobinExample); with wins first they still
	// tie (a win each), then head-to-head: D beat A.
	checkOrder(t, "wins then head-to-head", withTiebreakers(t, "wins", "head_to_head"), roundRobinExample, "B", "D", "A", "C")
}

// TestTiebreakDefaultUnchanged: the default order (no tiebreakers, or the
// specification's ["points", "wins", "draws"]) is the one compareRows
// gives, and the general sort with the keys wins, draws agrees with it on
// random tables.
func TestTiebreakDefaultUnchanged(t *testing.T) {
	rng := rand.New(rand.NewPCG(47, 4))
	ids := []string{"P01", "P02", "P03", "P04", "P05", "P06", "P07"}
	for range 200 {
		var results []Result
		for range rng.IntN(30) {
			a, b := ids[rng.IntN(len(ids))], ids[rng.IntN(len(ids))]
			if a == b {
				continue
			}
			switch rng.IntN(4) {
			case 0:
				results = append(results, tbDraw(a, b))
			case 1:
				results = append(results, tbTechLoss(a, b))
			default:
				results = append(results, tbWin(a, b))
			}
		}
		want := Standings(DefaultScoring(), ids, results)
		if got := Standings(withTiebreakers(t, "points", "wins", "draws"), ids, results); !slices.Equal(got, want) {
			t.Fatalf("the specification's list: %v, want %v", got, want)
		}
		tb := NewTable(DefaultScoring())
		for _, id := range ids {
			tb.AddPlayer(id, "")
		}
		for _, r := range results {
			tb.Record(r)
		}
		general := tb.Rows()
		tb.sortByTiebreakers(general, defaultTiebreakers)
		for i := range general {
			general[i].Rank = i + 1
		}
		if !slices.Equal(general, want) {
			t.Fatalf("the general sort with wins, draws: %v, want %v", general, want)
		}
		if tb.games != nil {
			t.Fatal("the default table keeps who played whom")
		}
	}
}
