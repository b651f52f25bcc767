package protocol

import (
	"bytes"
	"testing"
)

// TestEncodedGoesOutAsItsMessage: a message encoded once is framed, in
// every form a peer may be sent it, into the bytes the message itself is.
func TestEncodedGoesOutAsItsMessage(t *testing.T) {
	winner := "P01"
	env := NewEnvelope(TypeGameOver, "referee:REF01", "conv-<R1M1>&")
	env.AuthToken, env.RoundID, env.MatchID = "ticket", 1, "R1M1"
	for _, msg := range []Message{
		&GameOver{Envelope: env, GameType: "even_odd", Reason: "sum <7> & odd ✓",
			GameResult: GameResult{Status: "WIN", WinnerPlayerID: &winner, Choices: map[string]string{"P02": "even", "P01": "odd"},
				Details: map[string]any{"drawn_number": 7, "note": "\u2028<x>"}}},
		&MoveCall{Envelope: env, PlayerID: "P01", Context: MoveContext{RoundID: 1}, MoveRequest: &MoveRequest{MoveType: "choose_parity"}},
		&RoundCompleted{Envelope: env},
	} {
		encoded, err := Encode(msg)
		if err != nil {
			t.Fatal(err)
		}
		for _, form := range append(Forms(TypeGameOver), Form{Method: "a\"<b>"}) {
			got, err := EncodeRequest(form.Method, form.Params(encoded), 9)
			if err != nil {
				t.Fatal(err)
			}
			want, err := EncodeRequest(form.Method, form.Params(msg), 9)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("%s by %q:\n%s\nwhere the message itself is\n%s", msg.Header().MessageType, form.Method, got, want)
			}
		}
		if encoded.Header().MessageType != msg.Header().MessageType {
			t.Errorf("the encoded message says it is a %s", encoded.Header().MessageType)
		}
	}
}

// TestWithAuthToken: a signed copy is the same message with the token as
// its auth_token, in its envelope and in its bytes; the original is left
// as it was.
func TestWithAuthToken(t *testing.T) {
	msg := &LeagueCompleted{Envelope: NewEnvelope(TypeLeagueCompleted, SenderManager, "conv-1"), TotalRounds: 3,
		FinalStandings: []StandingRow{{Rank: 1, PlayerID: "P01", Points: 6}}}
	enc, err := Encode(msg)
	if err != nil {
		t.Fatal(err)
	}
	before := string(enc.JSON)
	signed := enc.WithAuthToken(`mk-"quoted"`)
	var got LeagueCompleted
	if err := Decode(signed.JSON, &got); err != nil {
		t.Fatalf("%s: %v", signed.JSON, err)
	}
	want := *msg
	want.AuthToken = `mk-"quoted"`
	if got.AuthToken != want.AuthToken || got.TotalRounds != 3 || len(got.FinalStandings) != 1 || signed.AuthToken != want.AuthToken {
		t.Errorf("signed copy decodes to %+v (envelope token %q), want %+v", got, signed.AuthToken, want)
	}
	if string(enc.JSON) != before || enc.AuthToken != "" {
		t.Errorf("the original changed: %s", enc.JSON)
	}
	empty := (&Encoded{JSON: []byte("{}")}).WithAuthToken("k")
	if string(empty.JSON) != `{"auth_token":"k"}` {
		t.Errorf("signed empty object: %s", empty.JSON)
	}
}
