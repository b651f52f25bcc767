package protocol

import (
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/leaguetui/leaguetui/agents/protocol/internal/wirejson"
)

// BenchmarkResultDecode decodes a result as its receivers do: GAME_OVER
// (a player) and MATCH_RESULT_REPORT (the manager), with the bodies the
// referee sends; and GAME_JOIN_ACK (the referee), whose aliases Decode
// once checked twice.
func BenchmarkResultDecode(b *testing.B) {
	messages := matchMessages()
	for _, name := range []string{"game_over", "report", "join_ack"} {
		msg := messages[name]
		wire, err := json.Marshal(msg)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			start := cpuTime()
			for b.Loop() {
				if err := Decode(wire, newOfSameType(msg)); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(cpuTime()-start)/float64(b.N), "cpu-ns/op")
		})
	}
}

// resultSamples are results as leaguetui's referee and other
// implementations write them, and bodies that must leave the one pass.
var resultSamples = []string{
	`{"status":"DRAW","winner":"DRAW","choices":{"P01":"odd","P02":"odd"},"reason":"r","drawn_number":3,"number_parity":"odd"}`,
	`{"status":"WIN","winner_id":"P01","winner":null,"path_A":["A","B"],"errors":[{"metadata":{"k":1}}],"big":1e400}`,
	`{"winner_player_id":"P01","winner_id":"P02","winner":"P03","reason":"nested"}`,
	`{"winner_id":"P01","winner_id":"P02","winner_player_id":"DRAW"}`,
	`{"Status":"WIN","status":"DRAW","WINNER":"P01"}`, `{"choices":{"a":"x"},"choices":{"b":null}}`,
	`{"choices":{"a":7}}`, `{"choices":{}, "drawn_number":-0.0, "x":true, "y":false, "z":null, "z":"last"}`,
	`{"winner":"P01","score":{"P01":3,"P02":0},"status":"WIN","details":{"choices":{"P01":"even"},"drawn_number":8}}`,
	`{"winner":null,"winner_id":"P02","score":{"P01":1.0},"details":{"technical_loss":true,"offending_players":["P02",null]}}`,
	`{"winner_player_id":"P01","score":{"P01":null,"P02":-0},"details":null}`,
	`{"score":{"P01":99999999999999999999},"details":{"offending_player":"P02","offending_players":[1]}}`,
	`{"details":{"technical_loss":"yes"}}`, `{"details":{"reason":"é","choices":{"P\u00e9":"odd"}}}`,
	`{"status":"\u0057IN","reason":"a\u2028b","note":"\ud800"}`, `{"reason":5}`, `{"status":null,"reason":null}`,
	`null`, `[]`, `{}`, `"WIN"`, `{"status":"WIN"} x`, `{"status":"WIN"`, `{"a":[[[[[[[[[[1]]]]]]]]]]}`,
}

// FuzzResultOnePass: GameResult, ReportResult and ReportDetails decode
// any body to the same value and error as their decoding through a map
// (decodeThroughMap, how they all decoded before the one pass,
// wirejson.ReadObject).
func FuzzResultOnePass(f *testing.F) {
	for _, msg := range matchMessages() {
		wire, _ := json.Marshal(msg)
		f.Add(wire)
		switch m := msg.(type) {
		case *GameOver:
			part, _ := json.Marshal(m.GameResult)
			f.Add(part)
		case *MatchResultReport:
			part, _ := json.Marshal(m.Result)
			f.Add(part)
		}
	}
	for _, body := range slices.Concat(resultSamples, hostileSamples) {
		f.Add([]byte(body))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		checkOnePass(t, body, (*GameResult).UnmarshalJSON, (*GameResult).decodeThroughMap)
		checkOnePass(t, body, (*ReportResult).UnmarshalJSON, (*ReportResult).decodeThroughMap)
		checkOnePass(t, body, (*ReportDetails).UnmarshalJSON, (*ReportDetails).decodeThroughMap)
	})
}

// checkOnePass decodes body into a fresh T with decode, and again with
// oracle, and wants the same value and error.
func checkOnePass[T any](t *testing.T, body []byte, decode, oracle func(*T, []byte) error) {
	var got, want T
	gotErr, wantErr := decode(&got, body), oracle(&want, body)
	if fmt.Sprint(gotErr) != fmt.Sprint(wantErr) || !reflect.DeepEqual(got, want) {
		t.Errorf("%.200q into %T: %+v, %v; through a map: %+v, %v", body, got, got, gotErr, want, wantErr)
	}
}

// The referee's own results, and the liberal spellings of other
// implementations, take the one pass, with the values the map gave.
func TestResultsTakeOnePass(t *testing.T) {
	messages := matchMessages()
	over, report := messages["game_over"].(*GameOver), messages["report"].(*MatchResultReport)
	overWire, _ := json.Marshal(over.GameResult)
	reportWire, _ := json.Marshal(report.Result)
	tests := []struct {
		name, body string
		into       any
		want       any
	}{
		{"referee's game result", string(overWire), &GameResult{}, &GameResult{Status: "WIN", WinnerPlayerID: over.GameResult.WinnerPlayerID,
			Choices: over.GameResult.Choices, Reason: over.GameResult.Reason, Details: map[string]any{"drawn_number": 8.0, "number_parity": "even"}}},
		{"referee's report", string(reportWire), &ReportResult{}, &ReportResult{Winner: report.Result.Winner, Score: report.Result.Score,
			Status: "WIN", Details: ReportDetails{Choices: report.Result.Details.Choices, Reason: report.Result.Details.Reason,
				Game: map[string]any{"drawn_number": 8.0, "number_parity": "even"}}}},
		{"winner_id, DRAW", `{"status":"DRAW","winner_id":"DRAW","choices":{"P01":"odd"},"drawn_number":2}`, &GameResult{},
			&GameResult{Status: "DRAW", Choices: map[string]string{"P01": "odd"}, Details: map[string]any{"drawn_number": 2.0}}},
		{"winner before winner_id", `{"winner_id":"P02","winner":"P01"}`, &GameResult{}, &GameResult{WinnerPlayerID: ptr("P01")}},
		{"field before alias", `{"winner_player_id":null,"winner":"P01","x":[1,"a",null]}`, &GameResult{},
			&GameResult{Details: map[string]any{"x": []any{1.0, "a", nil}}}},
		{"report's winner_player_id", `{"winner_player_id":"P01","score":{"P01":3},"details":{"technical_loss":true,"offending_players":["P02"]}}`,
			&ReportResult{}, &ReportResult{Winner: ptr("P01"), Score: map[string]int{"P01": 3},
				Details: ReportDetails{TechnicalLoss: true, Offenders: []string{"P02"}}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var ok bool
			switch into := tt.into.(type) {
			case *GameResult:
				if ok = wirejson.ReadObject([]byte(tt.body), into, &gameResultShape); ok {
					into.WinnerPlayerID = winnerOrNil(into.WinnerPlayerID)
				}
			case *ReportResult:
				ok = wirejson.ReadObject([]byte(tt.body), into, &reportResultShape)
			}
			if !ok || !reflect.DeepEqual(tt.into, tt.want) {
				t.Errorf("one pass of %s: %v, %+v; want %+v", tt.body, ok, tt.into, tt.want)
			}
		})
	}
}

func ptr(s string) *string { return &s }

// Bodies the one pass could read otherwise than the map are left to it.
func TestResultsLeftToTheMap(t *testing.T) {
	for _, body := range []string{
		`{"Status":"WIN"}`, `{"choices":{"a":"x"},"choices":{"b":"y"}}`, `{"reason":5}`, `{"drawn_number":1e400}`,
		`{"choices":{"P\u00e9":"odd"}}`, `null`, `{"status":"WIN"} x`, `{"a":` + strings.Repeat("[", 300) + strings.Repeat("]", 300) + `}`,
	} {
		if wirejson.ReadObject([]byte(body), &GameResult{}, &gameResultShape) {
			t.Errorf("one pass read %s", body)
		}
	}
	held := GameResult{Status: "WIN"}
	if wirejson.ReadObject([]byte(`{"reason":"r"}`), &held, &gameResultShape) {
		t.Errorf("one pass read into a result that held %+v", held)
	}
}

// Each shape reads every field its struct decodes: a field added to the
// struct and not to its shape would be dropped on the one pass.
func TestResultShapesKnowEveryField(t *testing.T) {
	check := func(typ reflect.Type, names []string) {
		var tags []string
		for f := range typ.Fields() {
			if tag, _, _ := strings.Cut(f.Tag.Get("json"), ","); tag != "-" {
				tags = append(tags, tag)
			}
		}
		if slices.Sort(tags); !slices.Equal(tags, slices.Sorted(slices.Values(names))) {
			t.Errorf("%v decodes %v, its shape reads %v", typ, tags, names)
		}
	}
	check(reflect.TypeFor[GameResult](), shapeNames(gameResultShape))
	check(reflect.TypeFor[ReportResult](), shapeNames(reportResultShape))
	check(reflect.TypeFor[ReportDetails](), shapeNames(reportDetailShape))
}

func shapeNames[T any](shape wirejson.Shape[T]) (names []string) {
	for _, f := range shape.Fields {
		names = append(names, f.Name)
	}
	return names
}
