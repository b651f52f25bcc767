package engine

import (
	"reflect"
	"testing"
)

func TestScoringPoints(t *testing.T) {
	tests := []struct {
		name string
		r    Result
		want map[string]int
	}{
		{"win for A", Result{PlayerA: "P01", PlayerB: "P02", Status: StatusWin, Winner: "P01"},
			map[string]int{"P01": 3, "P02": 0}},
		{"win for B", Result{PlayerA: "P01", PlayerB: "P02", Status: StatusWin, Winner: "P02"},
			map[string]int{"P01": 0, "P02": 3}},
		{"draw", Result{PlayerA: "P01", PlayerB: "P02", Status: StatusDraw},
			map[string]int{"P01": 1, "P02": 1}},
		{"technical loss of A", Result{PlayerA: "P01", PlayerB: "P02", Status: StatusTechnicalLoss, Winner: "P02", Offenders: []string{"P01"}},
			map[string]int{"P01": 0, "P02": 3}},
		{"technical loss, offenders only", Result{PlayerA: "P01", PlayerB: "P02", Status: StatusTechnicalLoss, Offenders: []string{"P02"}},
			map[string]int{"P01": 3, "P02": 0}},
		{"technical loss, winner only", Result{PlayerA: "P01", PlayerB: "P02", Status: StatusTechnicalLoss, Winner: "P01"},
			map[string]int{"P01": 3, "P02": 0}},
		{"double technical loss", Result{PlayerA: "P01", PlayerB: "P02", Status: StatusTechnicalLoss, Offenders: []string{"P01", "P02"}},
			map[string]int{"P01": 0, "P02": 0}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := DefaultScoring().Points(tt.r); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("Points = %v, want %v", got, tt.want)
			}
		})
	}
}

func TestScoringPointsCustomTable(t *testing.T) {
	s := Scoring{Win: 5, Draw: 2, Loss: 1, TechnicalLoss: -1}
	tests := []struct {
		name string
		r    Result
		want map[string]int
	}{
		{"win", Result{PlayerA: "A", PlayerB: "B", Status: StatusWin, Winner: "B"}, map[string]int{"A": 1, "B": 5}},
		{"draw", Result{PlayerA: "A", PlayerB: "B", Status: StatusDraw}, map[string]int{"A": 2, "B": 2}},
		{"technical loss", Result{PlayerA: "A", PlayerB: "B", Status: StatusTechnicalLoss, Winner: "A", Offenders: []string{"B"}}, map[string]int{"A": 5, "B": -1}},
		{"double technical loss", Result{PlayerA: "A", PlayerB: "B", Status: StatusTechnicalLoss, Offenders: []string{"A", "B"}}, map[string]int{"A": -1, "B": -1}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := s.Points(tt.r); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("Points = %v, want %v", got, tt.want)
			}
		})
	}
}

func TestDefaultScoring(t *testing.T) {
	if got, want := DefaultScoring(), (Scoring{Win: 3, Draw: 1, Loss: 0, TechnicalLoss: 0}); got != want {
		t.Errorf("DefaultScoring() = %+v, want %+v", got, want)
	}
}

// win, draw and tl build results for the standings tests.
func win(id, a, b, winner string) Result {
	return Result{MatchID: id, PlayerA: a, PlayerB: b, Status: StatusWin, Winner: winner}
}

func draw(id, a, b string) Result {
	return Result{MatchID: id, PlayerA: a, PlayerB: b, Status: StatusDraw}
}

func tl(id, a, b string, offenders ...string) Result {
	r := Result{MatchID: id, PlayerA: a, PlayerB: b, Status: StatusTechnicalLoss, Offenders: offenders}
	if len(offenders) == 1 {
		r.Winner = a
		if offenders[0] == a {
			r.Winner = b
		}
	}
	return r
}

// order returns the player ids of rows, in order.
func order(rows []Row) []string {
	ids := make([]string, len(rows))
	for i, r := range rows {
		ids[i] = r.PlayerID
	}
	return ids
}

func TestStandingsOrder(t *testing.T) {
	tests := []struct {
		name    string
		scoring Scoring // zero means DefaultScoring
		players []string
		results []Result
		want    []string
	}{
		{
			name:    "points decide",
			players: []string{"A", "B", "C"},
			results: []Result{win("1", "A", "B", "B"), draw("2", "A", "C")},
			want:    []string{"B", "A", "C"}, // 3, 1, 1 (A before C by id)
		},
		{
			name:    "equal points, wins decide",
			players: []string{"A", "B"},
			// A: 3 draws = 3 points, 0 wins. B: 1 win + 2 losses = 3 points, 1 win.
			results: []Result{
				draw("1", "A", "X"), draw("2", "A", "Y"), draw("3", "A", "Z"),
				win("4", "B", "X", "B"), win("5", "B", "Y", "Y"), win("6", "B", "Z", "Z"),
			},
			want: []string{"Y", "Z", "B", "A", "X"},
		},
		{
			// With the default table equal points and wins imply equal
			// draws, so this case gives losses a point.
			name:    "equal points and wins, draws decide",
			scoring: Scoring{Win: 3, Draw: 1, Loss: 1},
			players: []string{"A", "B"},
			// A: win + loss = 4 points, 1 win, 0 draws.
			// B: win + draw = 4 points, 1 win, 1 draw.
			// X, Y, Z: 1 point each; only Y drew.
			results: []Result{
				win("1", "A", "Z", "A"), win("2", "A", "W", "W"),
				win("3", "B", "X", "B"), draw("4", "B", "Y"),
			},
			want: []string{"B", "A", "W", "Y", "X", "Z"},
		},
		{
			name:    "everything equal, id decides",
			players: []string{"D", "C", "B", "A"},
			results: []Result{draw("1", "D", "C"), draw("2", "B", "A")},
			want:    []string{"A", "B", "C", "D"},
		},
		{
			name:    "players without results appear",
			players: []string{"P03", "P01", "P02"},
			results: nil,
			want:    []string{"P01", "P02", "P03"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := tt.scoring
			if s == (Scoring{}) {
				s = DefaultScoring()
			}
			rows := Standings(s, tt.players, tt.results)
			if got := order(rows); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("order = %v, want %v\n%+v", got, tt.want, rows)
			}
			for i, r := range rows {
				if r.Rank != i+1 {
					t.Errorf("row %d has rank %d", i, r.Rank)
				}
			}
		})
	}
}

func TestTableCountsEveryOutcome(t *testing.T) {
	tb := NewTable(DefaultScoring())
	tb.AddPlayer("P01", "Alice")
	tb.AddPlayer("P04", "")
	for _, r := range []Result{
		win("R1M1", "P01", "P02", "P01"),
		draw("R1M2", "P01", "P03"),
		tl("R2M1", "P01", "P02", "P02"),
		tl("R2M2", "P01", "P03", "P01", "P03"),
	} {
		tb.Record(r)
	}
	want := map[string]Row{
		"P01": {PlayerID: "P01", DisplayName: "Alice", Played: 4, Wins: 2, Draws: 1, Losses: 1, TechnicalLosses: 1, Points: 7},
		"P02": {PlayerID: "P02", DisplayName: "P02", Played: 2, Wins: 0, Draws: 0, Losses: 2, TechnicalLosses: 1, Points: 0},
		"P03": {PlayerID: "P03", DisplayName: "P03", Played: 2, Wins: 0, Draws: 1, Losses: 1, TechnicalLosses: 1, Points: 1},
		"P04": {PlayerID: "P04", DisplayName: "P04"},
	}
	for id, w := range want {
		got, ok := tb.Row(id)
		if !ok || got != w {
			t.Errorf("Row(%s) = %+v, %v; want %+v (unranked)", id, got, ok, w)
		}
	}
	if _, ok := tb.Row("P99"); ok {
		t.Error("Row found an unknown player")
	}
	if got, want := order(tb.Rows()), []string{"P01", "P03", "P02", "P04"}; !reflect.DeepEqual(got, want) {
		t.Errorf("Rows order = %v, want %v", got, want)
	}
}

func TestTableAddPlayerIsIdempotent(t *testing.T) {
	tb := NewTable(DefaultScoring())
	tb.AddPlayer("P01", "Alice")
	tb.Record(win("R1M1", "P01", "P02", "P01"))
	tb.AddPlayer("P01", "")
	tb.AddPlayer("P01", "Alice")
	row, _ := tb.Row("P01")
	if row.DisplayName != "Alice" || row.Points != 3 || row.Played != 1 {
		t.Errorf("Row(P01) = %+v, want Alice with 3 points in 1 match", row)
	}
	if n := len(tb.Rows()); n != 2 {
		t.Errorf("%d rows, want 2", n)
	}
	tb.AddPlayer("P01", "Alice B.")
	if row, _ := tb.Row("P01"); row.DisplayName != "Alice B." {
		t.Errorf("DisplayName = %q, want the new name", row.DisplayName)
	}
}

func TestTableRecordIgnoresRepeatedMatchID(t *testing.T) {
	tb := NewTable(DefaultScoring())
	r := win("R1M1", "P01", "P02", "P01")
	tb.Record(r)
	tb.Record(r)
	if row, _ := tb.Row("P01"); row.Played != 1 || row.Points != 3 {
		t.Errorf("Row(P01) = %+v after a repeated report, want 1 match, 3 points", row)
	}
}

// TestTableIsIncremental checks that after every Record the table's rows
// equal a full recomputation, i.e. Record keeps running totals correct
// without replaying history.
func TestTableIsIncremental(t *testing.T) {
	ids := players(6)
	rounds, err := RoundRobin(ids)
	if err != nil {
		t.Fatal(err)
	}
	tb := NewTable(DefaultScoring())
	var results []Result
	for i, p := range allPairings(rounds) {
		r := syntheticResult(i, p)
		tb.Record(r)
		results = append(results, r)
		got := tb.Rows()
		want := Standings(DefaultScoring(), nil, results)
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("after %d results: table %+v, recomputed %+v", i+1, got, want)
		}
	}
}

// allPairings flattens a schedule.
func allPairings(rounds []Round) []Pairing {
	var out []Pairing
	for _, r := range rounds {
		out = append(out, r.Matches...)
	}
	return out
}

// syntheticResult gives pairing p a result that cycles through the statuses.
func syntheticResult(i int, p Pairing) Result {
	switch i % 5 {
	case 0:
		return win(p.MatchID, p.PlayerA, p.PlayerB, p.PlayerA)
	case 1:
		return win(p.MatchID, p.PlayerA, p.PlayerB, p.PlayerB)
	case 2:
		return draw(p.MatchID, p.PlayerA, p.PlayerB)
	case 3:
		return tl(p.MatchID, p.PlayerA, p.PlayerB, p.PlayerB)
	default:
		return tl(p.MatchID, p.PlayerA, p.PlayerB, p.PlayerA, p.PlayerB)
	}
}
