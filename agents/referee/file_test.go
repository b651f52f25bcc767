package referee

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/leaguetui/leaguetui/agents/protocol"
	"github.com/leaguetui/leaguetui/agents/store"
)

const (
	ticketA = "ticket-of-P01-secret"
	ticketB = "ticket-of-P02-secret"
)

// sampleExchanges is a match's transcript as the referee records it: its
// own calls (with the players' tickets as auth_token) and the players'
// answers, among them a hostile player's (tokens at any depth and under any
// name, white space, characters encoding/json escapes or replaces, answers
// that are not objects).
func sampleExchanges() []exchange {
	winner := "P01"
	msgs := []protocol.Message{
		&protocol.GameInvitation{Envelope: ticketed(protocol.TypeGameInvitation, ticketA), GameType: "even_odd",
			RoleInMatch: protocol.RolePlayerA, OpponentID: "P02", PlayerID: "P01"},
		&protocol.MoveCall{Envelope: ticketed(protocol.TypeChooseParityCall, ticketB), PlayerID: "P02", GameType: "even_odd",
			Context:     protocol.MoveContext{OpponentID: "P01", RoundID: 3, YourStandings: protocol.Standing{Wins: 2}},
			MoveRequest: &protocol.MoveRequest{MoveType: "choose_parity", ValidOptions: []string{"even", "odd"}}},
		&protocol.GameOver{Envelope: ticketed(protocol.TypeGameOver, ticketA), GameType: "even_odd", Reason: "sum <7> & odd",
			GameResult: protocol.GameResult{Status: "WIN", WinnerPlayerID: &winner, Choices: map[string]string{"P01": "odd", "P02": "even"},
				Reason: "sum <7> & odd", Details: map[string]any{"drawn_number": 7, "number_parity": "odd"}}},
	}
	var out []exchange
	for _, msg := range msgs {
		raw, _ := json.Marshal(msg)
		out = append(out, exchange{from: "referee:REF01", to: "player:P01", raw: raw, msg: msg})
	}
	for _, reply := range []string{
		`{"protocol":"league.v2","message_type":"GAME_JOIN_ACK","sender":"player:P01","auth_token":"` + ticketA + `","player_id":"P01","accept":true}`,
		"{ \"message_type\" : \"CHOOSE_PARITY_RESPONSE\",\n \"parity_choice\": \"even\", \"authToken\": \"" + ticketB +
			"\", \"notes\": {\"match_ticket\": \"" + ticketB + "\", \"list\": [ {\"token\": \"x\"}, 1.50, -2e3, \"<b>\\u00e9\\n</b>\" ] } }",
		`{"message_type":"A","message_type":"GAME_OVER_ACK","big":12345678901234567890}`,
		`"joined"`, `[1,2]`, `null`, `{"n":1e400}`, "{\"bad\":\"\xff\"}", `{"auth\u005ftoken":"` + ticketA + `"}`,
	} {
		out = append(out, exchange{from: "player:P02", to: "referee:REF01", raw: json.RawMessage(reply)})
	}
	return out
}

type exchange struct {
	from, to string
	raw      json.RawMessage
	msg      protocol.Message // our own message, recorded with add; nil for an answer
}

func ticketed(messageType, ticket string) protocol.Envelope {
	env := protocol.NewEnvelope(messageType, "referee:REF01", "conv-R3M1-league_test")
	env.AuthToken, env.LeagueID, env.RoundID, env.MatchID = ticket, "league_test", 3, "R3M1"
	return env
}

func record(exchanges []exchange) *transcript {
	t := &transcript{}
	for _, e := range exchanges {
		if e.msg != nil {
			t.add(e.from, e.to, e.msg)
		} else {
			t.addRaw(e.from, e.to, e.raw)
		}
	}
	return t
}

func sampleDoc() protocol.MatchFile {
	winner := "P01"
	return protocol.MatchFile{SchemaVersion: "1.0.0", MatchID: "R3M1", LeagueID: "league_test", RoundID: 3, GameType: "even_odd",
		Players: map[string]string{"player_A": "P01", "player_B": "P02"}, RefereeID: "REF01",
		Lifecycle: protocol.Lifecycle{State: "FINISHED", CreatedAt: "2026-11-23T18:00:00Z", StartedAt: "2026-11-23T18:00:00Z",
			FinishedAt: "2026-11-23T18:00:01Z"},
		Result: protocol.MatchResult{GameResult: protocol.GameResult{Status: "WIN", WinnerPlayerID: &winner,
			Choices: map[string]string{"P01": "odd", "P02": "even"}, Reason: "sum 7 is odd",
			Details: map[string]any{"drawn_number": 7}}, Score: map[string]int{"P01": 3, "P02": 0}}}
}

// decodedTranscript is how the match file was made before its transcript
// was kept encoded: each message decoded into a map, its tokens deleted,
// and the whole file encoded with encoding/json. It is the reference the
// file must still read as.
func decodedTranscript(exchanges []exchange, records []protocol.TranscriptRecord) []protocol.TranscriptEntry {
	entries := make([]protocol.TranscriptEntry, len(exchanges))
	for i, e := range exchanges {
		var content map[string]any
		if json.Unmarshal(e.raw, &content) != nil {
			content = map[string]any{"raw": string(e.raw)}
		}
		protocol.DeleteKeys(content, store.SecretKey)
		messageType, _ := content["message_type"].(string)
		entries[i] = protocol.TranscriptEntry{TranscriptHead: protocol.TranscriptHead{Seq: i + 1, Timestamp: records[i].Timestamp,
			MessageType: messageType, From: e.from, To: e.to}, Content: content}
	}
	return entries
}

// TestMatchFileReadsAsBefore: the match file made from the encoded
// transcript reads, for tui/transcript.go, GET /matches/{id} and other
// implementations, exactly as the one made by decoding every message and
// encoding the file again: same fields, same values, no token.
func TestMatchFileReadsAsBefore(t *testing.T) {
	exchanges := sampleExchanges()
	records := record(exchanges).entries
	data, err := protocol.EncodeMatchFile(sampleDoc(), records)
	if err != nil {
		t.Fatal(err)
	}
	before := sampleDoc()
	before.Transcript = decodedTranscript(exchanges, records)
	legacy, err := json.MarshalIndent(before, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	var got, want protocol.MatchFile
	if err := json.Unmarshal(data, &got); err != nil {
		t.Fatalf("the match file does not decode: %v\n%s", err, data)
	}
	if err := json.Unmarshal(legacy, &want); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("the match file reads\n%+v\nwhere it read\n%+v", got, want)
	}
	var generic, genericWant any // the same as plain JSON, for readers without our types
	_ = json.Unmarshal(data, &generic)
	_ = json.Unmarshal(legacy, &genericWant)
	if !reflect.DeepEqual(generic, genericWant) {
		t.Errorf("the match file as JSON\n%v\nwas\n%v", generic, genericWant)
	}
	for _, secret := range []string{ticketA, ticketB, "auth_token", "authToken", "match_ticket", `"token"`} {
		if strings.Contains(string(data), secret) {
			t.Errorf("the match file holds %q:\n%s", secret, data)
		}
	}
	if !utf8.Valid(data) {
		t.Error("the match file is not valid UTF-8")
	}
	if lines := strings.Count(string(data), "\n    {\"seq\":"); lines != len(exchanges) {
		t.Errorf("%d transcript lines, want one per exchange (%d):\n%s", lines, len(exchanges), data)
	}
}

// TestTranscriptRecordsAsBefore: our own messages, recorded from their
// encoding read as valid JSON (protocol.RedactEncoded), are recorded as
// the checking copy (withoutTokens) records them: same content bytes,
// same message type, and most of them without the checking copy's work.
func TestTranscriptRecordsAsBefore(t *testing.T) {
	winner := "P01"
	exchanges := append(sampleExchanges(), evenOddMatch()...)
	hostile := &protocol.GameOver{Envelope: ticketed(protocol.TypeGameOver, ticketB), GameType: "even_odd", Reason: "\xff <&>",
		GameResult: protocol.GameResult{Status: "WIN", WinnerPlayerID: &winner, Reason: "\u2028",
			Details: map[string]any{"player_token": "x", "deep": []any{map[string]any{"Match_Ticket": ticketA, "keep": 1e21}}, "é": "ü"}}}
	exchanges = append(exchanges, exchange{from: "referee:REF01", to: "player:P02", msg: hostile})
	quick := 0
	for _, e := range exchanges {
		if e.msg == nil {
			continue
		}
		encoded, err := protocol.Encode(e.msg)
		if err != nil {
			t.Fatal(err)
		}
		wantContent, wantType := withoutTokens(encoded.JSON)
		if _, _, ok := protocol.RedactEncoded(encoded.JSON, store.SecretKey); ok {
			quick++
		}
		tr := &transcript{}
		tr.add(e.from, e.to, e.msg)
		got := tr.entries[0]
		if string(got.Content) != string(wantContent) || got.MessageType != wantType {
			t.Errorf("%s recorded as\n%s (%q)\nwhere it was\n%s (%q)", wantType, got.Content, got.MessageType, wantContent, wantType)
		}
	}
	if quick < 6 {
		t.Errorf("only %d of our messages read without the checking copy", quick)
	}
}

// TestMatchFileWithoutTranscript: a match file with no exchange yet reads
// as encoding/json writes it, transcript null.
func TestMatchFileWithoutTranscript(t *testing.T) {
	data, err := protocol.EncodeMatchFile(sampleDoc(), nil)
	if err != nil {
		t.Fatal(err)
	}
	want, _ := json.MarshalIndent(sampleDoc(), "", "  ")
	if string(data) != string(want)+"\n" {
		t.Errorf("the match file is\n%s\nwant\n%s", data, want)
	}
}

// BenchmarkMatchFile records a match's transcript and encodes its file,
// as the referee does for every match, against the way it did before
// (each message decoded into a map and the file encoded whole).
func BenchmarkMatchFile(b *testing.B) {
	exchanges := evenOddMatch()
	b.Run("encoded-once", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := protocol.EncodeMatchFile(sampleDoc(), record(exchanges).entries); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("decoded-and-encoded-again", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			raws := make([]exchange, len(exchanges))
			for i, e := range exchanges {
				raws[i] = e
				if e.msg != nil {
					raws[i].raw, _ = json.Marshal(e.msg)
				}
			}
			doc := sampleDoc()
			doc.Transcript = decodedTranscript(raws, make([]protocol.TranscriptRecord, len(raws)))
			if err := store.IndentedJSON(func() any { return doc })(discard{}); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// evenOddMatch is the ten exchanges of an even/odd match: invitation,
// call and GAME_OVER to each player, and their answers.
func evenOddMatch() []exchange {
	own := sampleExchanges()[:3]
	replies := []string{
		`{"protocol":"league.v2","message_type":"GAME_JOIN_ACK","sender":"player:P01","timestamp":"2026-11-23T18:00:00Z","conversation_id":"conv-R3M1-league_test","auth_token":"` + ticketA + `","player_id":"P01","arrival_timestamp":"2026-11-23T18:00:00Z","accept":true}`,
		`{"protocol":"league.v2","message_type":"CHOOSE_PARITY_RESPONSE","sender":"player:P01","timestamp":"2026-11-23T18:00:00Z","conversation_id":"conv-R3M1-league_test","auth_token":"` + ticketA + `","player_id":"P01","parity_choice":"odd"}`,
		`{"status":"ok"}`,
	}
	var out []exchange
	for range 2 {
		for i, e := range own {
			out = append(out, e, exchange{from: "player:P01", to: "referee:REF01", raw: json.RawMessage(replies[i])})
		}
	}
	return out
}

type discard struct{}

func (discard) Write(p []byte) (int, error) { return len(p), nil }
