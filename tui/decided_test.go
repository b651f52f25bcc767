package tui

import (
	"testing"

	"github.com/leaguetui/leaguetui/agents/protocol"
	"github.com/leaguetui/leaguetui/engine"
)

// TestDecidedLineJudgesEveryPair: the standings pane's last line under
// --until-decided counts each verdict and marks every adjacent pair of the
// ranking by rating, best first: > separated, = equivalent, ? unsure.
func TestDecidedLineJudgesEveryPair(t *testing.T) {
	st := engine.SeparationStatus{Rule: "until-decided", Limit: 40, Played: 12, Known: true, Pairs: 3, Margin: 100,
		Separated: 1, Equivalent: 1, Unsure: 1, Verdicts: []engine.PairVerdict{
			{Above: "P04", Below: "P01", Rank: 1, Verdict: engine.VerdictSeparated},
			{Above: "P01", Below: "P02", Rank: 2, Verdict: engine.VerdictEquivalent},
			{Above: "P02", Below: "P03", Rank: 3, Verdict: engine.VerdictUnsure}}}
	want := " until-decided 12/40 · 1 separated, 1 equivalent (±100 Elo), 1 unsure · P04>P01 P01=P02 P02?P03"
	if got := separationLine(st); got != want {
		t.Errorf("got  %q\nwant %q", got, want)
	}
	st.Known = false
	if got := separationLine(st); got != " until-decided 12/40 · pairs judged after the schedule" {
		t.Errorf("before the schedule ends: %q", got)
	}
}

// TestRankCellShowsTheIntervalAndGroup: a player's ranks as "best-worst"
// (one number when sure) and its tie group, blank without them.
func TestRankCellShowsTheIntervalAndGroup(t *testing.T) {
	for _, c := range []struct {
		row  protocol.RatingRow
		want string
	}{
		{protocol.RatingRow{RankInterval: &[2]int{2, 4}, TieGroup: 1}, "    2-4   1"},
		{protocol.RatingRow{RankInterval: &[2]int{5, 5}, TieGroup: 3}, "      5   3"},
		{protocol.RatingRow{}, "           "},
	} {
		if got := rankCell(c.row, true); got != c.want || visibleWidth(got) != visibleWidth(rankHead) {
			t.Errorf("%+v: %q, want %q as wide as %q", c.row, got, c.want, rankHead)
		}
	}
}
