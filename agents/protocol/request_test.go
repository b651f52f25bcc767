package protocol

import (
	"encoding/json"
	"math"
	"testing"
)

// TestEncodeRequestIsEncodingJSONs: a request framed by hand, around a
// message encoded before (Encoded) or written now, is the bytes
// json.Marshal writes of the whole frame, for every hot message, for
// methods encoding/json writes as they are or escapes, and for the
// wrapped forms the hand writer leaves to encoding/json.
func TestEncodeRequestIsEncodingJSONs(t *testing.T) {
	for name, msg := range matchMessages() {
		for _, method := range []string{"handle_game_invitation", "tools/call", "x<&>", "é\u2028", "a\"b\\c\x01", "\xff", ""} {
			for _, id := range []int64{1, 0, -7, math.MaxInt64, math.MinInt64} {
				checkRequestAlike(t, name, method, msg, id)
				for _, form := range Forms(msg.Header().MessageType) {
					checkRequestAlike(t, name, method, form.Params(msg), id)
				}
			}
		}
	}
}

// FuzzEncodeRequest holds EncodeRequest to encoding/json's bytes for any
// method and id, and any message decoded from any body.
func FuzzEncodeRequest(f *testing.F) {
	for _, msg := range matchMessages() {
		wire, _ := json.Marshal(msg)
		f.Add(wire, "handle_game_invitation", int64(3))
	}
	for _, body := range hostileSamples {
		f.Add([]byte(body), "<a&b>\xff\u2028\x00\"\\", int64(-1))
	}
	f.Fuzz(func(t *testing.T, body []byte, method string, id int64) {
		for _, spec := range Messages {
			msg := newBody(spec)
			if json.Unmarshal(body, msg) == nil {
				checkRequestAlike(t, "fuzzed", method, msg, id)
			}
		}
	})
}

// checkRequestAlike compares EncodeRequest with json.Marshal of the
// frame, params as they are and encoded before when they are a message.
func checkRequestAlike(t *testing.T, name, method string, params any, id int64) {
	t.Helper()
	want, wantErr := json.Marshal(outgoingRequest{JSONRPC: "2.0", Method: method, Params: params, ID: id})
	got, err := EncodeRequest(method, params, id)
	if string(got) != string(want) || (err == nil) != (wantErr == nil) {
		t.Errorf("%s %q %d: EncodeRequest\n%s (%v)\nencoding/json\n%s (%v)", name, method, id, got, err, want, wantErr)
	}
	msg, ok := params.(Message)
	if !ok || wantErr != nil {
		return
	}
	encoded, err := Encode(msg)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	if got, _ := EncodeRequest(method, encoded, id); string(got) != string(want) {
		t.Errorf("%s %q %d: EncodeRequest of Encoded\n%s\nencoding/json\n%s", name, method, id, got, want)
	}
}

// BenchmarkEncodeRequest frames a match's messages as the referee's
// calls do, encoded once and written now.
func BenchmarkEncodeRequest(b *testing.B) {
	for name, msg := range matchMessages() {
		encoded, err := Encode(msg)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(name+"/encoded", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := EncodeRequest("handle_game_invitation", encoded, 12); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(name+"/message", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := EncodeRequest("handle_game_invitation", msg, 12); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
