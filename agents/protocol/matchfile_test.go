package protocol

import (
	"bytes"
	"encoding/json"
	"math"
	"math/big"
	"os"
	"path/filepath"
	"testing"

	"github.com/leaguetui/leaguetui/agents/protocol/internal/wirejson"
)

// legacyResult is MatchResult encoded by encoding/json, through a map.
type legacyResult MatchResult

func (r legacyResult) MarshalJSON() ([]byte, error) {
	type plain GameResult
	base, err := throughMap(plain(r.GameResult), r.Details)
	if err != nil {
		return nil, err
	}
	var fields map[string]any
	if err := json.Unmarshal(base, &fields); err != nil {
		return nil, err
	}
	fields["score"] = r.Score
	if len(r.Offenders) > 0 {
		fields["offending_players"] = r.Offenders
	}
	return json.Marshal(fields)
}

// legacyMatchFile is MatchFile with that result: the outer field wins
// over the embedded one and stays last, where MatchFile has it.
type legacyMatchFile struct {
	MatchFile
	Result legacyResult `json:"result"`
}

// legacyEncodeMatchFile is EncodeMatchFile made by encoding/json: the
// reference the wire codec's file is held to.
func legacyEncodeMatchFile(f MatchFile, transcript []TranscriptRecord) ([]byte, error) {
	f.Transcript = nil
	head, err := json.MarshalIndent(legacyMatchFile{MatchFile: f, Result: legacyResult(f.Result)}, "", "  ")
	if err != nil {
		return nil, err
	}
	if len(transcript) == 0 {
		return append(head, '\n'), nil
	}
	before, after, err := NullFieldSlot(head, "transcript")
	if err != nil {
		return nil, err
	}
	out := append(append([]byte(nil), before...), '[')
	for i, e := range transcript {
		line, err := json.Marshal(e)
		if err != nil {
			return nil, err
		}
		content := e.Content
		if len(content) == 0 {
			content = json.RawMessage("null")
		}
		out = wirejson.AppendMember(append(out, "\n    "...), line, wirejson.Member{Name: "content", Raw: content})
		if i < len(transcript)-1 {
			out = append(out, ',')
		}
	}
	return append(append(append(out, "\n  ]"...), after...), '\n'), nil
}

// readMatchFile reads a match file back into what its referee encoded it
// from, as AbandonMatchFile does.
func readMatchFile(t *testing.T, data []byte) (MatchFile, []TranscriptRecord) {
	t.Helper()
	var doc struct {
		MatchFile
		Transcript []struct {
			TranscriptHead
			Content json.RawMessage `json:"content"`
		} `json:"transcript"`
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	records := make([]TranscriptRecord, len(doc.Transcript))
	for i, e := range doc.Transcript {
		records[i] = TranscriptRecord{TranscriptHead: e.TranscriptHead, Content: e.Content}
	}
	return doc.MatchFile, records
}

// checkSameFile holds EncodeMatchFile to legacyEncodeMatchFile: the same
// bytes, or an error from both.
func checkSameFile(t *testing.T, f MatchFile, transcript []TranscriptRecord) []byte {
	t.Helper()
	got, err := EncodeMatchFile(f, transcript)
	want, wantErr := legacyEncodeMatchFile(f, transcript)
	if (err != nil) != (wantErr != nil) {
		t.Fatalf("EncodeMatchFile error %v, encoding/json's %v", err, wantErr)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("EncodeMatchFile wrote\n%s\nencoding/json\n%s", got, want)
	}
	if f.Result.Details == nil || len(f.Result.Details) == 0 {
		return got
	}
	gotResult, err := f.Result.MarshalJSON()
	wantResult, wantErr := legacyResult(f.Result).MarshalJSON()
	if (err != nil) != (wantErr != nil) || !bytes.Equal(gotResult, wantResult) {
		t.Fatalf("MarshalJSON gave %s (%v), encoding/json %s (%v)", gotResult, err, wantResult, wantErr)
	}
	return got
}

// TestRealMatchFilesAsWritten: match files a league wrote with
// encoding/json come out again byte for byte from what they hold.
func TestRealMatchFilesAsWritten(t *testing.T) {
	paths, _ := filepath.Glob("testdata/matchfiles/*.json")
	if len(paths) == 0 {
		t.Fatal("no match file in testdata/matchfiles")
	}
	for _, path := range paths {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		f, records := readMatchFile(t, data)
		if _, ok := appendMatchResult(nil, f.Result); !ok {
			t.Errorf("%s: a played match's result is left to encoding/json", path)
		}
		if got := checkSameFile(t, f, records); !bytes.Equal(got, data) {
			t.Errorf("%s: written again as\n%s", path, got)
		}
	}
}

// oddResults are results whose details or fields encoding/json writes
// its own way: numbers beyond float64's integers, exponents, escapes,
// invalid UTF-8, names the result's own fields take, values of types
// a codec could write otherwise.
func oddResults() []MatchResult {
	winner := "P<1>"
	type point struct{ Y, X int }
	return []MatchResult{
		{},
		{GameResult: GameResult{Status: "WIN", WinnerPlayerID: &winner, Choices: map[string]string{}, Details: map[string]any{}}, Score: map[string]int{}},
		{GameResult: GameResult{Status: "TECHNICAL_LOSS", Choices: map[string]string{"P01": "", "P02": "odd"}, Reason: "P02 timed out & lost",
			Details: map[string]any{"player_statuses": map[string]string{"P02": "TIMEOUT", "P01": "OK"}, "drawn_number": 7}},
			Score: map[string]int{"P01": 3, "P02": -1}, Offenders: []string{"P02"}},
		{GameResult: GameResult{Status: "WIN", Details: map[string]any{"big": int64(1<<62 + 1), "huge": 1e21, "tiny": 1e-7, "neg": -0.0,
			"frac": 0.1, "max": math.MaxFloat64, "min": math.SmallestNonzeroFloat64, "i": -12345, "t": true, "n": nil}}},
		{GameResult: GameResult{Status: "DRAW\u2028", Reason: "é ✓ 𝄞 \"q\" \\ \n\t\x01", Choices: map[string]string{"a<b": "x"},
			Details: map[string]any{"s": "<script>&", "u": "\u2029", "bad": "\xff\xfe", "list": []any{1.5, "x", nil, []string{"a"}, map[string]any{"z": 1, "a": 2}}}}},
		{GameResult: GameResult{Status: "WIN", Details: map[string]any{"status": "X", "winner_player_id": "Y", "choices": 1, "reason": 2,
			"score": "S", "offending_players": []string{"P03"}}}, Score: map[string]int{"P01": 1}},
		{GameResult: GameResult{Status: "WIN", Details: map[string]any{"offending_players": "kept", "score": nil}}, Offenders: []string{"P01", "P02"}},
		{GameResult: GameResult{Details: map[string]any{"point": point{Y: 1, X: 2}, "raw": json.RawMessage(`{"b":1,"a":[2]}`),
			"num": json.Number("12345678901234567890"), "f32": float32(0.1), "u": uint8(3), "ptr": &winner}}},
		{GameResult: GameResult{Details: map[string]any{"huge": new(big.Int).Exp(big.NewInt(10), big.NewInt(400), nil)}}},
		{GameResult: GameResult{Details: map[string]any{"nan": math.NaN()}}},
		{GameResult: GameResult{Details: map[string]any{"\xff": 1, "\ufffd": 2, "k<": 3, "": 4}}},
		{GameResult: GameResult{Details: map[string]any{"nested": map[string]any{"b": map[string]any{}, "a": []any{}, "c": []string(nil)}}},
			Score: map[string]int{"b": 1 << 60, "a": 0}},
	}
}

// TestMatchFileAsEncodingJSON: odd results, odd heads and transcripts
// are written as encoding/json wrote them.
func TestMatchFileAsEncodingJSON(t *testing.T) {
	transcript := []TranscriptRecord{
		{TranscriptHead: TranscriptHead{Seq: 1, Timestamp: "2026-11-23T18:00:00Z", MessageType: "GAME_INVITATION", From: "referee:REF01", To: "player:P01"},
			Content: json.RawMessage(`{"message_type":"GAME_INVITATION","a":"\u003cb\u003e"}`)},
		{TranscriptHead: TranscriptHead{Seq: 2, MessageType: "<odd>\xff", From: "player:\"P01\"", To: "é"}},
		{TranscriptHead: TranscriptHead{Seq: -3}, Content: json.RawMessage(`{"raw":"[1, 2]"}`)},
	}
	heads := []MatchFile{
		{SchemaVersion: "1.0.0", MatchID: "R3M1", LeagueID: "league_test", RoundID: 3, GameType: "even_odd",
			Players: map[string]string{"player_B": "P02", "player_A": "P01"}, RefereeID: "REF01",
			Lifecycle: Lifecycle{State: "FINISHED", CreatedAt: "2026-11-23T18:00:00Z", StartedAt: "2026-11-23T18:00:00Z", FinishedAt: "2026-11-23T18:00:01Z"}},
		{Players: map[string]string{}, MatchID: "<&>\u2028\xff", Lifecycle: Lifecycle{State: "\x00"}},
		{RoundID: -1 << 40, Transcript: []TranscriptEntry{{Content: map[string]any{"ignored": true}}}},
	}
	for _, head := range heads {
		for _, result := range oddResults() {
			head.Result = result
			checkSameFile(t, head, nil)
			checkSameFile(t, head, transcript)
			checkSameFile(t, head, transcript[:1])
		}
	}
}

// FuzzMatchFile holds the wire codec's match file to encoding/json's on
// heads and results made of arbitrary strings and numbers.
func FuzzMatchFile(f *testing.F) {
	f.Add("R3M1", "P01", "odd", "drawn_number", int64(7), 0.5, true)
	f.Add("<&>", "\xff", "\u2028", "score", int64(1<<62+1), 1e21, false)
	f.Add("", "", "", "status", int64(-1), -0.0, true)
	f.Add("é\"\\", "a", "b", "offending_players", int64(0), 1e-7, false)
	f.Fuzz(func(t *testing.T, id, player, text, detail string, n int64, x float64, offend bool) {
		winner := player
		r := MatchResult{GameResult: GameResult{Status: text, WinnerPlayerID: &winner, Choices: map[string]string{player: text, id: detail},
			Reason: id, Details: map[string]any{detail: n, text: x, id: map[string]any{player: []any{text, n, x}}}},
			Score: map[string]int{player: int(n), id: 3}}
		if offend {
			r.Offenders = []string{player, text}
			r.WinnerPlayerID = nil
		}
		doc := MatchFile{SchemaVersion: id, MatchID: id, LeagueID: player, RoundID: int(n), GameType: text,
			Players: map[string]string{"player_A": player, text: id}, RefereeID: detail,
			Lifecycle: Lifecycle{State: text, CreatedAt: id, StartedAt: player, FinishedAt: detail}, Result: r}
		records := []TranscriptRecord{{TranscriptHead: TranscriptHead{Seq: int(n), Timestamp: id, MessageType: text, From: player, To: detail},
			Content: json.RawMessage(`{"x":1}`)}}
		checkSameFile(t, doc, records)
	})
}

// BenchmarkMatchResult encodes a match's result as a match file holds
// it.
func BenchmarkMatchResult(b *testing.B) {
	winner := "P01"
	r := MatchResult{GameResult: GameResult{Status: "WIN", WinnerPlayerID: &winner, Choices: map[string]string{"P01": "odd", "P02": "even"},
		Reason:  "P01 (A) vs P02 (B): A chose odd, B chose even, drawn 7 is odd; P01 wins",
		Details: map[string]any{"drawn_number": 7, "number_parity": "odd"}}, Score: map[string]int{"P01": 3, "P02": 0}}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := r.MarshalJSON(); err != nil {
			b.Fatal(err)
		}
	}
}
