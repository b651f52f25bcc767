package protocol

import "testing"

// spellingSamples are a player's messages in other spellings and forms,
// for the codec fuzzers' seeds.
var spellingSamples = []string{
	`{"type":"GAME_INVITATION","game_id":"R1M1","round":"2","token":"t","role":"PLAYER_A","opponent":"P02"}`,
	`{"message_type":"GAME_INVITATION","messageType":"X","match_id":"R1M1","matchId":"R9M9","role_in_match":"PLAYER_B","role":"PLAYER_A"}`,
	`{"round_id":null,"match_id":null,"player_id":"P01","Player_Id":"P02"}`,
	`{"round_id":"","context":{"round_id":"3","your_standings":{"wins":1,"losses":null,"draws":2}},"move_request":null}`,
	`{"context":{"opponent_id":"P02","your_standings":{"wins":1.0}},"deadline":"2026-01-01T00:00:00Z"}`,
	`{"context":null,"move_request":{"move_type":"choose_parity","valid_options":["even",null,"odd"],"turn":1,"context":{"a":[1,2]}}}`,
	`{"move_request":{"valid_options":"even"}}`, `{"move_request":[]}`, `{"context":{"your_standings":null}}`,
	`{"game_result":null}`, `{"game_result":{"status":"WIN","winner":"P01","drawn_number":8},"reason":"8 is even"}`,
	`{"game_result":{"status":"DRAW","winner_player_id":"draw"},"game_result":{"status":"WIN"}}`,
	`{"game_type":"even_odd","game_type":"other"}`,
	`{"player_id":"P01","accept":null}`, `{"accepted":false,"accept":null}`, `{"accepted":true}`, `{"accept":"yes"}`,
	`{"parity_choice":" EVEN "}`, `{"choice":"Odd","move":"even"}`, `{"parity_choice":"","move_data":{"choice":" Ab "}}`,
	`{"move_data":{"move_type":"click","choice":"x"}}`, `{"parity":"odd","model":{"provider":"p","input_tokens":3}}`, `{"model":null,"parity_choice":"even"}`, `{"round_id":7.5}`, `{"round_id":true}`, `{"sender":"\u0070layer:P01"}`,
	`{"player_a_id":"P01","player_A":"P02","player1_id":"P03","player_b":"P04","game":"even_odd"}`,
	`{"league_seed":1e3}`, `{"league_seed":-0,"standings":{"P01":null}}`, `{"league_seed":9223372036854775808}`,
	`{"league_seed":null,"standings":{"P01":{"wins":1},"P01":{"draws":2}}}`, `{"standings":null,"player_a_endpoint":"x"}`,
	`{"standings":{"P\u00301":{"wins":1}}}`, `{"standings":[]}`, `{"Standings":{}}`, `{"player_A_ticket":"t","player_B_ticket":7}`,
}

// BenchmarkMoveExchange is the JSON work of one move, both ends: the
// referee encodes a CHOOSE_PARITY_CALL and frames it as a request; the
// player parses the request, decodes the call and encodes its answer as
// a result; the referee takes the reply's result and decodes the answer.
func BenchmarkMoveExchange(b *testing.B) {
	messages := matchMessages()
	call, answer := messages["parity_call"].(*MoveCall), messages["parity_response"].(*MoveAnswer)
	b.ReportAllocs()
	for b.Loop() {
		encoded, err := Encode(call)
		if err != nil {
			b.Fatal(err)
		}
		body, err := EncodeRequest("choose_parity", encoded, 42)
		if err != nil {
			b.Fatal(err)
		}
		req, rpcErr := ParseRequest(body)
		if rpcErr != nil {
			b.Fatal(rpcErr)
		}
		var got MoveCall
		if err := Decode(req.Params, &got); err != nil {
			b.Fatal(err)
		}
		reply, err := EncodeResult(req.ID, answer)
		if err != nil {
			b.Fatal(err)
		}
		result, err := ParseReply(reply)
		if err != nil {
			b.Fatal(err)
		}
		var move MoveAnswer
		if err := Decode(result, &move); err != nil || move.Choice != "even" {
			b.Fatal(err, move.Choice)
		}
	}
}
