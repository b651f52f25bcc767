package protocol

import (
	"bytes"
	"encoding/json"
	"testing"
)

// TestAbandonMatchFile: a match file rewritten as abandoned says so in its
// lifecycle and its result (no winner, no moves, no points, a reason),
// keeps its players and its transcript, each exchange on its own line with
// its members in their order, and is recognised as abandoned; the file as
// played is not.
func TestAbandonMatchFile(t *testing.T) {
	winner := "P01"
	played := MatchFile{SchemaVersion: FileSchemaVersion, MatchID: "R1M1", LeagueID: "L", RoundID: 1, GameType: "even_odd",
		Players: map[string]string{"player_A": "P01", "player_B": "P02"}, RefereeID: "REF01",
		Lifecycle: Lifecycle{State: "FINISHED", CreatedAt: "t0", StartedAt: "t0", FinishedAt: "t1"},
		Result: MatchResult{GameResult: GameResult{Status: "WIN", WinnerPlayerID: &winner,
			Choices: map[string]string{"P01": "even", "P02": "odd"}, Details: map[string]any{"drawn_number": 4.0}},
			Score: map[string]int{"P01": 3, "P02": 0}}}
	transcript := []TranscriptRecord{
		{TranscriptHead: TranscriptHead{Seq: 1, MessageType: "GAME_INVITATION", From: "REF01", To: "P01"},
			Content: json.RawMessage(`{"zeta":1,"alpha":{"b":2,"a":1}}`)},
		{TranscriptHead: TranscriptHead{Seq: 2, MessageType: "GAME_JOIN_ACK", From: "P01", To: "REF01"},
			Content: json.RawMessage(`{"message_type":"GAME_JOIN_ACK"}`)},
	}
	data, err := EncodeMatchFile(played, transcript)
	if err != nil {
		t.Fatal(err)
	}
	if IsAbandonedMatchFile(data) {
		t.Fatal("a file of a match played is taken for abandoned")
	}
	out, err := AbandonMatchFile(data, "the league was stopped")
	if err != nil {
		t.Fatal(err)
	}
	if !IsAbandonedMatchFile(out) {
		t.Errorf("the abandoned file is not recognised as abandoned:\n%s", out)
	}
	for _, r := range transcript {
		if !bytes.Contains(out, append([]byte(`"content":`), r.Content...)) {
			t.Errorf("exchange %d's content %s is not kept as it was:\n%s", r.Seq, r.Content, out)
		}
	}
	var got MatchFile
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatal(err)
	}
	r := got.Result
	if got.Lifecycle.State != MatchAbandoned || r.Status != MatchAbandoned || r.WinnerPlayerID != nil || len(r.Choices) != 0 ||
		len(r.Score) != 0 || len(r.Details) != 0 || r.Reason != "the league was stopped" {
		t.Errorf("abandoned: state %q, result %+v", got.Lifecycle.State, r)
	}
	if got.MatchID != "R1M1" || got.Players["player_B"] != "P02" || got.RefereeID != "REF01" || len(got.Transcript) != 2 ||
		got.Lifecycle.FinishedAt != "t1" {
		t.Errorf("abandoned file lost what it had: %+v", got)
	}
	if again, err := AbandonMatchFile(out, "the league was stopped"); err != nil || !bytes.Equal(again, out) {
		t.Errorf("abandoning an abandoned file changes it (%v)", err)
	}
}
