package player

import "testing"

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
