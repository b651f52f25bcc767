package wirejson

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

// scanSamples are bodies the scanner must walk as encoding/json reads
// them, or leave to it: valid and invalid JSON, keys it leaves to
// encoding/json, repeated keys, deep nesting.
var scanSamples = []string{
	`{}`, ` { } `, `[]`, `"x"`, `null`, `7`, ``, `{`, `{"message_type":"GAME_INVITATION"}`,
	`{"message_type":"GAME_INVITATION","conversation_id":"c1","protocol":"league.v2","type":"x"}`,
	`{"MESSAGE_TYPE":"game_over","Conversation_ID":"c2"}`,
	`{"message_type":"A","MESSAGE_TYPE":"B"}`, `{"message_type":"A","message_type":null}`,
	`{"message_type":5,"conversation_id":"c"}`, `{"protocol":{"v":2},"message_type":"A"}`,
	`{"standings":[{"rank":1,"player_id":"P01","points":3.5e2},{"rank":2,"x":[true,false,null,-0.5,"\u00e9\n"]}],"message_type":"LEAGUE_STANDINGS_UPDATE"}`,
	`{"message\u005ftype":"GAME_OVER"}`, `{"méssage_type":"GAME_OVER","message_type":"A"}`, `{"message_type":"GAME\u005fOVER"}`,
	`{"message_type":"A",}`, `{"message_type":"A"} x`, `{"message_type":"A" "b":1}`,
	`{"a":01,"message_type":"A"}`, `{"a":1.,"message_type":"A"}`, `{"a":tru,"message_type":"A"}`,
	`{"a":"\q","message_type":"A"}`, `{"a":"\u12G4","message_type":"A"}`, "{\"a\":\"\x01\",\"message_type\":\"A\"}",
	"{\"a\":\"\xff\xfe\",\"message_type\":\"A\"}", `{"message_type":"A\"B"}`,
	"{\"message_type\":\"caf\xc3\xa9\",\"conversation_id\":\"\xff\"}", "{\"message_type\":\"A\x7f~ \",\"protocol\":\"\"}",
	`{"a":` + strings.Repeat("[", 300) + strings.Repeat("]", 300) + `,"message_type":"A"}`,
	`{"a":` + strings.Repeat("[", 20000) + strings.Repeat("]", 20000) + `,"message_type":"A"}`,
}

func TestScanObjectReadsAsEncodingJSON(t *testing.T) {
	for _, body := range scanSamples {
		checkScanned(t, []byte(body))
	}
	if !ScanObject([]byte(`{"message_type":"A","b":{"c":[1,2,{"d":"e"}]}}`), func(_, _ []byte) bool { return true }) {
		t.Error("a plain object should not need encoding/json")
	}
}

// FuzzScanObject: where ScanObject walks an object, encoding/json reads
// the same members with the same values (the last of a repeated key
// winning), and RawValueMembers hands over the same; a string's plain
// bytes run (PlainRun) as far as the byte-by-byte walk takes them.
func FuzzScanObject(f *testing.F) {
	for _, body := range scanSamples {
		f.Add([]byte(body))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		checkScanned(t, body)
		if got, want := PlainRun(body), plainRunByByte(body); got != want {
			t.Errorf("%q: PlainRun %d, byte by byte %d", body, got, want)
		}
	})
}

// checkScanned compares what ScanObject and RawValueMembers hand over of
// body with what encoding/json reads into a map of raw values.
func checkScanned(t *testing.T, body []byte) {
	scanned := map[string]string{}
	ok := ScanObject(body, func(key, raw []byte) bool {
		scanned[string(key)] = string(raw)
		return true
	})
	s := NewScanner(body)
	members := map[string]string{}
	raw, plainObject, valueOK := s.RawValueMembers(func(key, raw []byte) { members[string(key)] = string(raw) })
	if end := s.End(); (plainObject && end) != ok || ok && (!valueOK || string(raw) != string(bytes.TrimSpace(body))) {
		t.Errorf("%.80q: ScanObject %v, RawValueMembers %q, %v, %v", body, ok, raw, plainObject, valueOK)
	}
	if !ok {
		return // left to encoding/json
	}
	var want map[string]json.RawMessage
	if err := json.Unmarshal(body, &want); err != nil || want == nil {
		t.Fatalf("%.80q: scanned, but encoding/json reads no object: %v", body, err)
	}
	if len(want) != len(scanned) || len(members) != len(scanned) {
		t.Errorf("%.80q: scanned %v, encoding/json reads %v", body, scanned, want)
	}
	for key, raw := range want {
		if scanned[key] != string(raw) || members[key] != string(raw) {
			t.Errorf("%.80q: %q scanned as %q and %q, encoding/json reads %s", body, key, scanned[key], members[key], raw)
		}
	}
}

// plainRunByByte is PlainRun as str walked a string before, a byte at a time.
func plainRunByByte(b []byte) int {
	n := 0
	for n < len(b) && b[n] >= 0x20 && b[n] != '"' && b[n] != '\\' {
		n++
	}
	return n
}

// TestPlainRunEveryPair: PlainRun stops where the byte-by-byte walk stops,
// for every pair of byte values at every pair of places in a word and
// across two words, the cases where one byte's borrow could hide another.
func TestPlainRunEveryPair(t *testing.T) {
	buf := make([]byte, 19)
	for p := 0; p < 10; p++ {
		for q := p + 1; q < 11; q += 3 {
			for c1 := range 256 {
				for c2 := range 256 {
					for i := range buf {
						buf[i] = 'a'
					}
					buf[p], buf[q] = byte(c1), byte(c2)
					for _, b := range [][]byte{buf, buf[1:], buf[:q+1]} {
						if got, want := PlainRun(b), plainRunByByte(b); got != want {
							t.Fatalf("%q: PlainRun %d, byte by byte %d", b, got, want)
						}
					}
				}
			}
		}
	}
}

// BenchmarkPlainRun skips a long string of plain ASCII, eight bytes at a
// time (PlainRun), beside the byte-by-byte walk it replaced and the
// standard library's assembly search for the closing quote alone.
func BenchmarkPlainRun(b *testing.B) {
	text := []byte(strings.Repeat("player P17 chose even; ", 180) + `"`)
	for name, run := range map[string]func([]byte) int{"PlainRun": PlainRun, "byte by byte": plainRunByByte,
		"bytes.IndexByte quote only": func(b []byte) int { return bytes.IndexByte(b, '"') }} {
		b.Run(name, func(b *testing.B) {
			b.SetBytes(int64(len(text)))
			for b.Loop() {
				if run(text) != len(text)-1 {
					b.Fatal("stopped early")
				}
			}
		})
	}
}
