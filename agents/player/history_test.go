package player

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"testing"

	"github.com/leaguetui/leaguetui/agents/protocol"
)

// TestHistoryRewritesCostO1PerMatch: over a 999-match history, the entries
// written by all the rewrites due() asks for add up to a small multiple of
// the final history, and a short history is rewritten after every match.
func TestHistoryRewritesCostO1PerMatch(t *testing.T) {
	var h History
	written, rewrites := 0, 0
	for i := 1; i <= 999; i++ {
		h.Matches = append(h.Matches, HistoryEntry{})
		if h.due() {
			written += len(h.Matches)
			rewrites++
		} else if i <= unsavedShare {
			t.Errorf("match %d was not written at once", i)
		}
	}
	if written > 10*len(h.Matches) {
		t.Errorf("%d rewrites wrote %d entries for %d matches, want at most 10 per match", rewrites, written, len(h.Matches))
	}
	if missing := len(h.Matches) - h.saved; missing > len(h.Matches)/unsavedShare {
		t.Errorf("%d of %d matches not written, want at most an eighth", missing, len(h.Matches))
	}
	t.Logf("%d rewrites, %d entries written for %d matches", rewrites, written, len(h.Matches))
}

// TestHistoryFileIsWhatMarshalIndentWrites: history.json, written again
// and again as matches come in, is byte for byte what json.MarshalIndent
// makes of the whole history, from the first write (no matches, null) to a
// history of matches with model costs, game facts and text to escape.
func TestHistoryFileIsWhatMarshalIndentWrites(t *testing.T) {
	h := History{SchemaVersion: "1.0.0", PlayerID: "P01", Strategy: "random <&>"}
	var file historyJSON
	check := func(when string) {
		t.Helper()
		head, null, from, fresh := h.since(file.count)
		var got bytes.Buffer
		if err := file.write(&got, head, null, from, fresh); err != nil {
			t.Fatal(err)
		}
		want, err := json.MarshalIndent(h.clone(), "", "  ")
		if err != nil {
			t.Fatal(err)
		}
		if want = append(want, '\n'); !bytes.Equal(got.Bytes(), want) {
			t.Fatalf("%s: wrote\n%s\nwant\n%s", when, got.Bytes(), want)
		}
		var back History
		if err := json.Unmarshal(got.Bytes(), &back); err != nil || len(back.Matches) != len(h.Matches) {
			t.Fatalf("%s: read back %d matches (%v), want %d", when, len(back.Matches), err, len(h.Matches))
		}
	}
	check("no matches")
	h.Matches = []HistoryEntry{}
	check("an empty list")
	for i := 1; i <= 12; i++ {
		winner := "P01"
		over := protocol.GameOver{GameResult: protocol.GameResult{Status: "WIN", WinnerPlayerID: &winner,
			Choices: map[string]string{"P01": "even", "P02": "odd"}, Reason: fmt.Sprintf("drew %d \"quoted\"\n", i),
			Details: map[string]any{"drawn_number": i, "number_parity": "even", "z": []any{1.5, "x"}}}}
		over.LeagueID, over.MatchID = "L1", fmt.Sprintf("R%dM1", i)
		entry, fresh := h.record("P01", "P02", over)
		if !fresh {
			t.Fatalf("match %d recorded twice", i)
		}
		if i%3 == 0 {
			h.setModelCost(entry, &protocol.ModelCost{Provider: "fake", Model: "m", Moves: 1, InputTokens: int64(i)})
		}
		if i%4 != 1 { // some writes hold several new matches
			check(fmt.Sprintf("after match %d", i))
		}
	}
	// A history loaded anew, shorter than what was written, is written whole.
	h.Matches = h.Matches[:2]
	check("a shorter history")
}

// BenchmarkHistoryRewrite: a 63-match history (a player's share of the
// bench's league) written after each of its matches, encoded whole by
// encoding/json each time as before, and by historyJSON, which encodes
// each match once.
func BenchmarkHistoryRewrite(b *testing.B) {
	h := History{SchemaVersion: "1.0.0", PlayerID: "P01", Strategy: "random"}
	for i := 1; i <= 63; i++ {
		winner := "P01"
		over := protocol.GameOver{GameResult: protocol.GameResult{Status: "WIN", WinnerPlayerID: &winner,
			Choices: map[string]string{"P01": "even", "P02": "odd"}, Reason: "the drawn number is even",
			Details: map[string]any{"drawn_number": 4, "number_parity": "even"}}}
		over.LeagueID, over.MatchID = "L1", fmt.Sprintf("R%dM1", i)
		h.record("P01", "P02", over)
	}
	all := h.Matches
	b.Run("encoding/json whole", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			for n := 1; n <= len(all); n++ {
				h.Matches = all[:n]
				data, _ := json.MarshalIndent(h.clone(), "", "  ")
				_, _ = io.Discard.Write(data)
			}
		}
	})
	b.Run("new matches only", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			var file historyJSON
			for n := 1; n <= len(all); n++ {
				h.Matches = all[:n]
				head, null, from, fresh := h.since(file.count)
				_ = file.write(io.Discard, head, null, from, fresh)
			}
		}
	})
}
