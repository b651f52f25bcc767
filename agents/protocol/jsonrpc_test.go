package protocol

import (
	"encoding/json"
	"testing"
)

// TestEncodeResultIsEncodingJSONs: a response framed by hand is byte for
// byte what encoding/json makes of it, whatever the id and the result.
func TestEncodeResultIsEncodingJSONs(t *testing.T) {
	ack := &Ack{Envelope: NewEnvelope(TypeGameOver+"_ACK", "player:P01", "conv <&> \u2028"), Status: "ok"}
	encoded, err := Encode(ack)
	if err != nil {
		t.Fatal(err)
	}
	ids := []string{"", "1", "-12.5e3", "null", `"abc"`, `"a b\"c\\d"`, `"<&>"`, `"é"`, "\"\u2028\"", `"\u003c"`}
	for _, id := range ids {
		for _, result := range []any{ack, encoded, nil, map[string]string{"status": "ok"}, "ok"} {
			got, err := EncodeResult(json.RawMessage(id), result)
			if err != nil {
				t.Fatal(err)
			}
			raw, _ := json.Marshal(result)
			want, _ := json.Marshal(Response{JSONRPC: "2.0", Result: raw, ID: nullID(json.RawMessage(id))})
			if string(got) != string(want) {
				t.Errorf("id %s, result %T:\n got %s\nwant %s", id, result, got, want)
			}
		}
	}
}

// BenchmarkEncodeResult frames a player's CHOOSE_PARITY_RESPONSE, by hand
// (EncodeResult) and wholly by encoding/json as before.
func BenchmarkEncodeResult(b *testing.B) {
	resp := &ChooseParityResponse{Envelope: NewEnvelope(TypeChooseParityResponse, "player:P17", "conv-R12M7-league_2025_even_odd"),
		PlayerID: "P17", ParityChoice: "even"}
	resp.MatchID, resp.RoundID = "R12M7", 12
	id := json.RawMessage("123456")
	b.Run("by hand", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			_, _ = EncodeResult(id, resp)
		}
	})
	b.Run("encoding/json", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			raw, _ := json.Marshal(resp)
			_, _ = json.Marshal(Response{JSONRPC: "2.0", Result: raw, ID: id})
		}
	})
}
