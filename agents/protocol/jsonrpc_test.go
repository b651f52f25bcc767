package protocol

import (
	"encoding/json"
	"fmt"
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
	resp := &MoveAnswer{Envelope: NewEnvelope(TypeChooseParityResponse, "player:P17", "conv-R12M7-league_2025_even_odd"),
		PlayerID: "P17", Choice: "even"}
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

// broadcastBodies are the request bodies of a round's broadcasts in a
// 64-player league with 8 referees, framed as our manager posts them to a
// player: the 32-match ROUND_ANNOUNCEMENT (a player's copy, with the
// fields league.v2 requires), the 64-row LEAGUE_STANDINGS_UPDATE and
// ROUND_COMPLETED. A player only acknowledges them: their inbound parse is
// all the reading they get.
func broadcastBodies(tb testing.TB) map[string][]byte {
	envelope := func(messageType, conv string) Envelope {
		env := NewEnvelope(messageType, SenderManager, conv)
		env.LeagueID, env.RoundID = "league_2025_even_odd", 12
		return env
	}
	endpoint := func(port int) string { return fmt.Sprintf("http://127.0.0.1:%d/mcp", port) }
	matches := make([]AnnouncedMatch, 32)
	for i := range matches {
		matches[i] = AnnouncedMatch{MatchID: fmt.Sprintf("R12M%d", i+1), GameType: "even_odd",
			PlayerAID: fmt.Sprintf("P%02d", 2*i+1), PlayerBID: fmt.Sprintf("P%02d", 2*i+2), RefereeEndpoint: endpoint(41000 + i%8)}
	}
	rows := make([]StandingRow, 64)
	for i := range rows {
		rows[i] = StandingRow{Rank: i + 1, PlayerID: fmt.Sprintf("P%02d", i+1), DisplayName: fmt.Sprintf("Player %02d", i+1),
			Played: 11, Wins: 11 - i/6, Draws: i % 3, Losses: i / 6, Points: 3*(11-i/6) + i%3}
	}
	next := 13
	messages := map[string]Message{
		"round_announcement_32": &RoundAnnouncement{Envelope: envelope(TypeRoundAnnouncement, "conv-ROUND_ANNOUNCEMENT-r12"), Matches: matches},
		"standings_update_64":   &StandingsUpdate{Envelope: envelope(TypeStandingsUpdate, "conv-LEAGUE_STANDINGS_UPDATE-r12"), Standings: rows},
		"round_completed": &RoundCompleted{Envelope: envelope(TypeRoundCompleted, "conv-ROUND_COMPLETED-r12"),
			MatchesCompleted: 32, MatchesPlayed: 32, NextRoundID: &next, Summary: RoundSummary{TotalMatches: 32, Wins: 20, Draws: 12}},
	}
	bodies := map[string][]byte{}
	for name, msg := range messages {
		body, err := EncodeRequest(SendMethods[msg.Header().MessageType][0], msg, 4242)
		if err != nil {
			tb.Fatal(err)
		}
		bodies[name] = body
	}
	return bodies
}

// BenchmarkInbound is what a server does with a broadcast's body before
// its handler sees it: ParseRequest, then routing on the message's head.
func BenchmarkInbound(b *testing.B) {
	for name, body := range broadcastBodies(b) {
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(body)))
			for b.Loop() {
				req, rpcErr := ParseRequest(body)
				if rpcErr != nil {
					b.Fatal(rpcErr)
				}
				if _, ok := routeRequest(req); !ok {
					b.Fatal("not routed")
				}
			}
		})
	}
}

// routeRequest routes a parsed request as the server does.
func routeRequest(req *Request) (Inbound, bool) { return req.Route() }
