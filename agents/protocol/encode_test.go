package protocol

import (
	"encoding/binary"
	"encoding/json"
	"math"
	"reflect"
	"strings"
	"testing"
)

// A match's messages as leaguetui's agents send them, for the codec's
// benchmarks and the seeds of its fuzzers.
func matchMessages() map[string]Message {
	env := func(messageType string) Envelope {
		return Envelope{Protocol: Version, MessageType: messageType, Sender: RefereeSender("REF03"),
			Timestamp: "2026-11-23T20:21:10Z", ConversationID: "conv-R3M12", AuthToken: "mt-" + strings.Repeat("9f", 32),
			LeagueID: "league_2025_even_odd", RoundID: 3, MatchID: "R3M12"}
	}
	player := func(messageType string) Envelope {
		e := env(messageType)
		e.Sender, e.AuthToken = PlayerSender("P05"), ""
		return e
	}
	manager := func(messageType string) Envelope {
		e := env(messageType)
		e.Sender, e.AuthToken = SenderManager, "tok-"+strings.Repeat("4e", 16)
		return e
	}
	winner := "P05"
	moves := map[string]string{"P05": "even", "P17": "odd"}
	facts := map[string]any{"drawn_number": 8, "number_parity": "even"}
	move := ParityMoveRequest()
	return map[string]Message{
		"invitation": &GameInvitation{Envelope: env(TypeGameInvitation), GameType: "even_odd",
			RoleInMatch: RolePlayerA, OpponentID: "P17", PlayerID: "P05"},
		"parity_call": &MoveCall{Envelope: env(TypeChooseParityCall), PlayerID: "P05", GameType: "even_odd",
			Context:  MoveContext{OpponentID: "P17", RoundID: 3, YourStandings: Standing{Wins: 1, Losses: 1}},
			Deadline: "2026-11-23T20:21:40Z", MoveRequest: &move},
		"game_over": &GameOver{Envelope: env(TypeGameOver), GameType: "even_odd",
			GameResult: GameResult{Status: "WIN", WinnerPlayerID: &winner, Choices: moves,
				Reason: "P05 chose even, P17 chose odd, 8 is even", Details: facts},
			Reason: "P05 chose even, P17 chose odd, 8 is even"}, // both places, as the referee sends it
		"join_ack": &GameJoinAck{Envelope: player(TypeGameJoinAck), PlayerID: "P05",
			ArrivalTimestamp: "2026-11-23T20:21:10Z", Accept: true},
		"parity_response": &MoveAnswer{Envelope: player(TypeChooseParityResponse), PlayerID: "P05", Choice: "even"},
		"ack":             &Ack{Envelope: player(TypeGameOver), Status: "ok"},
		"report": &MatchResultReport{Envelope: env(TypeMatchResultReport), GameType: "even_odd",
			Result: ReportResult{Winner: &winner, Score: map[string]int{"P05": 3, "P17": 0}, Status: "WIN",
				Details: ReportDetails{Choices: moves, Game: facts, Reason: "P05 chose even, P17 chose odd, 8 is even"}},
			Steps: []StepEntry{{RoundID: 3, MatchID: "R3M7", Step: "choosing"}, {RoundID: 3, MatchID: "R3M7", Step: "P05 wins", Detail: "8 is even"}}},
		"start_match": &StartMatch{Envelope: manager(TypeStartMatch), GameType: "even_odd", RefereeID: "REF03",
			PlayerAID: "P05", PlayerBID: "P17", PlayerAEndpoint: "http://127.0.0.1:41234/mcp", PlayerBEndpoint: "http://127.0.0.1:40817/mcp",
			LeagueSeed: 1, Standings: map[string]Standing{"P05": {Wins: 1, Losses: 1}, "P17": {Draws: 2}}},
		"steps": &MatchStep{Envelope: env(TypeMatchStep), Step: "P05 wins", Detail: "8 is even",
			Steps: []StepEntry{{RoundID: 3, MatchID: "R3M7", Step: "choosing"}, {RoundID: 3, MatchID: "R3M7", Step: "P05 wins", Detail: "8 is even"}}},
	}
}

// BenchmarkDecode decodes each message as its receiver does (Decode: a
// player's invitation, move call and result, the referee's answers, the
// manager's report).
func BenchmarkDecode(b *testing.B) {
	for name, msg := range matchMessages() {
		wire, err := json.Marshal(msg)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if err := Decode(wire, newOfSameType(msg)); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkEncode encodes each message as its sender does (EncodeResult:
// a player's replies; the referee's messages go out alike, through Encode).
func BenchmarkEncode(b *testing.B) {
	for name, msg := range matchMessages() {
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := EncodeResult(json.RawMessage("7"), msg); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// newOfSameType is a zero message of msg's type.
func newOfSameType(msg Message) Message {
	return reflect.New(reflect.TypeOf(msg).Elem()).Interface().(Message)
}

var hostileSamples = []string{
	"{\"player_id\":\"a\xffb\",\"accept\":false}", "{\"player_\u212aid\":\"x\",\"ſtatus\":\"ok\"}", `{"PLAYER_ID":"x","Accept":false}`,
	`{"player_id":"a","player_id":"b","game_result":{"status":"WIN","status":"DRAW","drawn_number":1e400}}`,
	`{"player_id":"\ud800x","reason":"\u003c\u2028"}`, `{"round_id":99999999999999999999}`, `{"round_id":"7"}`,
	`{"context":{"round_id":"","your_standings":{"wins":1.5}}}`, `{"player_id":"a"} x`, `{"player_id":"a"`,
	"{\"player_id\":\"a\x01\"}", `{"accept":tru}`, `{"accept":null,"game_result":null}`, `null`, `[]`, `"s"`,
	`{"result":{"winner":"DRAW","score":{"P01":1e3},"details":{"choices":{"P01":7},"extra":[1,{"a":null}]}}}`,
	`{"game_result":{"winner":"P01","choices":{"P01":"even"},"drawn_number":-0.0,"number_parity":"odd","x":{"y":[true]}}}`,
	`{"matches":[{"player_a":"P1","player_B_id":"P2"}],"standings":[{"rank":"1"}]}`, `{"steps":[{"round_id":"x"}]}`,
	`{"move_data":{"choice":" Even "},"move_request":{"context":{"k":1}}}`, `{"next_round_id":3.0}`, `{"model":{}}`,
}

// FuzzEncode: Encode, EncodeResult and EncodeRequest, which frame by hand
// and splice a result's facts beside its fields, write each message of
// the table
// as encoding/json writes it through a map and whole frames, byte for
// byte: messages decoded from any body, and a match's messages with any
// string (invalid UTF-8, HTML, control characters) in their text fields
// and keys.
func FuzzEncode(f *testing.F) {
	for _, msg := range matchMessages() {
		wire, _ := json.Marshal(msg)
		f.Add(wire, "P05")
	}
	for _, body := range hostileSamples {
		f.Add([]byte(body), "<a&b>\xff\u2028\x00\"\\")
	}
	for _, text := range []string{"zzzzzzzz", "00000000", "P1", "R3M12.x", "abcd"} { // plain texts, numbers of every size in the facts
		f.Add([]byte(`{}`), text)
	}
	f.Fuzz(func(t *testing.T, body []byte, text string) {
		for _, spec := range Messages {
			msg := newBody(spec)
			if json.Unmarshal(body, msg) == nil {
				checkEncodedAlike(t, msg, text)
			}
		}
		for _, msg := range matchMessages() {
			checkEncodedAlike(t, withText(msg, text), text)
		}
	})
}

// withText puts text in msg's text fields and the keys of its maps.
func withText(msg Message, text string) Message {
	msg.Header().Sender, msg.Header().ConversationID = text, text+text
	switch m := msg.(type) {
	case *GameInvitation:
		m.OpponentID = text
	case *MoveCall:
		m.Context.OpponentID, m.MoveRequest.ValidOptions = text, []string{text}
		m.MoveRequest.Context = map[string]any{text: text, "n": len(text)}
	case *GameOver:
		m.GameResult.Reason, m.GameResult.WinnerPlayerID = text, &text
		m.GameResult.Choices = map[string]string{text: text, "P17": "odd"}
		m.GameResult.Details = gameFacts(text, map[string]any{"status": text})
		m.Reason = text
	case *MoveAnswer:
		m.Choice = text
	case *MatchResultReport:
		m.Result.Winner, m.Result.Score = &text, map[string]int{text: 3}
		m.Result.Details.Game = gameFacts(text, map[string]any{text: []any{text, nil, true}, "choices": 1})
		m.Result.Details.Offenders = []string{text}
		m.Result.Details.TechnicalLoss, m.Result.Details.OffendingPlayer = len(text)%2 == 0, text
		m.Result.Details.Reason = text
		m.Steps = textSteps(text)
	case *MatchStep:
		m.Step, m.Detail, m.Steps = text, text, textSteps(text)
	}
	return msg
}

// textSteps are steps with text in their strings, none for some texts.
func textSteps(text string) []StepEntry {
	if len(text)%4 == 3 {
		return nil
	}
	return []StepEntry{{MatchID: text, Step: text, Detail: text}, {RoundID: RoundID(len(text)), MatchID: "R1M1", Step: "x"}}
}

// gameFacts are facts of every kind a game gives (even/odd's numbers,
// link race's paths and statuses), named and filled from text, beside
// extra; none at all for some texts, as on a technical loss.
func gameFacts(text string, extra map[string]any) map[string]any {
	if len(text)%5 == 4 {
		return nil
	}
	n, x := numbersOf(text)
	facts := map[string]any{text: text, "drawn_number": len(text), "ratio": float64(len(text)) / 3, "n": n, "x": x,
		"big": int(n), "path_A": []string{text, "B"}, "player_statuses": map[string]string{text: text},
		"nested": map[string]any{text: []any{x, n, nil, map[string]any{}}, "m": map[string]int{text: int(n)}},
		"errors": []map[string]any{{"step": len(text), text: text}}, "no_errors": []map[string]any{}}
	for k, v := range extra {
		facts[k] = v
	}
	return facts
}

// numbersOf reads an int64 and a float64 (any: huge, tiny, NaN) from
// text's first bytes.
func numbersOf(text string) (int64, float64) {
	var b [8]byte
	copy(b[:], text)
	bits := binary.LittleEndian.Uint64(b[:])
	return int64(bits), math.Float64frombits(bits)
}

// checkEncodedAlike frames msg every way the hot paths do, by hand, and
// wants the bytes encoding/json makes of the whole frame; and a result's
// facts spliced beside its fields (wirejson.Flatten) as encoding/json
// writes them merged through a map. id is the frames' id, as a string.
func checkEncodedAlike(t *testing.T, msg Message, id string) {
	encoded, err := Encode(msg)
	want, wantErr := json.Marshal(msg)
	if (err == nil) != (wantErr == nil) {
		t.Fatalf("%+v: %v; encoding/json: %v", msg, err, wantErr)
	}
	if err != nil { // a fact encoding/json refuses, a NaN
		checkFlattened(t, msg)
		return
	}
	quotedID, _ := json.Marshal(id)
	framed, err := EncodeResult(quotedID, msg)
	request, err2 := EncodeRequest("x<"+id, encoded, 7)
	if err != nil || err2 != nil {
		t.Fatalf("%+v: %v, %v", msg, err, err2)
	}
	wantFramed, _ := json.Marshal(Response{JSONRPC: "2.0", Result: want, ID: quotedID})
	wantRequest, _ := json.Marshal(outgoingRequest{JSONRPC: "2.0", Method: "x<" + id, Params: msg, ID: 7})
	if string(encoded.JSON) != string(want) || string(framed) != string(wantFramed) || string(request) != string(wantRequest) {
		t.Errorf("%T %+v: framed\n%s\n%s\n%s\nencoding/json:\n%s\n%s\n%s", msg, msg, encoded.JSON, framed, request, want, wantFramed, wantRequest)
	}
	checkFlattened(t, msg)
}

// checkFlattened: a result's facts are written beside its fields as
// encoding/json writes them merged through a map[string]any.
func checkFlattened(t *testing.T, msg Message) {
	type plainResult GameResult
	type plainDetails ReportDetails
	var result, v any
	var extra map[string]any
	switch m := msg.(type) {
	case *GameOver:
		result, v, extra = m.GameResult, plainResult(m.GameResult), m.GameResult.Details
	case *MatchResultReport:
		result, v, extra = m.Result.Details, plainDetails(m.Result.Details), m.Result.Details.Game
	default:
		return
	}
	got, err := json.Marshal(result)
	want, wantErr := throughMap(v, extra)
	if string(got) != string(want) || (err == nil) != (wantErr == nil) {
		t.Errorf("%+v with %v: %s, %v; through a map: %s, %v", v, extra, got, err, want, wantErr)
	}
}

// throughMap is v encoded with extra's keys merged beside its fields,
// without overwriting them, through a map[string]any.
func throughMap(v any, extra map[string]any) ([]byte, error) {
	base, err := json.Marshal(v)
	if err != nil || len(extra) == 0 {
		return base, err
	}
	var fields map[string]any
	if err := json.Unmarshal(base, &fields); err != nil {
		return nil, err
	}
	for k, val := range extra {
		if _, taken := fields[k]; !taken {
			fields[k] = val
		}
	}
	return json.Marshal(fields)
}
