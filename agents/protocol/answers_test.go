package protocol

import "testing"

// FuzzHoldsJoin holds HoldsJoin's one pass to its reading through a map
// on any answer: joins, acknowledgements, escaped and repeated keys,
// message types of every kind, invalid JSON.
func FuzzHoldsJoin(f *testing.F) {
	for _, body := range []string{
		`{"protocol":"league.v2","message_type":"GAME_JOIN_ACK","player_id":"P01","accept":true}`,
		`{"status":"joined"}`, `{"accepted":false}`, `{"message_type":"GAME_JOIN_ACK","message_type":"ACK"}`,
		`{"message_type":"ACK","message_type":"GAME_JOIN_ACK"}`, `{"message_type":"GAME_JOIN\u005fACK"}`,
		`{"acc\u0065pt":1}`, `{"message_type":null}`, `{"message_type":7}`, `{"accept":true} x`, `null`, `[]`,
		`{"message_type":"GAME_JOIN_ACK","message_type":null}`, "{\"message_type\":\"GAME_JOIN_ACK\xff\"}", `{"a":{"accept":1}}`,
	} {
		f.Add([]byte(body))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		if got, want := HoldsJoin(body), holdsJoinThroughMap(body); got != want {
			t.Errorf("HoldsJoin(%q) = %v, through a map %v", body, got, want)
		}
	})
}

// BenchmarkHoldsJoin reads a player's inline join as the referee does,
// in one pass and through a map.
func BenchmarkHoldsJoin(b *testing.B) {
	join := []byte(`{"protocol":"league.v2","message_type":"GAME_JOIN_ACK","sender":"player:P01","timestamp":"2026-11-23T18:00:00Z",` +
		`"conversation_id":"conv-R3M1-league_test","player_id":"P01","arrival_timestamp":"2026-11-23T18:00:00Z","accept":true}`)
	for name, holds := range map[string]func([]byte) bool{"one-pass": func(b []byte) bool { return HoldsJoin(b) },
		"through-a-map": func(b []byte) bool { return holdsJoinThroughMap(b) }} {
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if !holds(join) {
					b.Fatal("no join")
				}
			}
		})
	}
}
