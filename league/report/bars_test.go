package report

import (
	"bufio"
	"strings"
	"testing"

	"github.com/leaguetui/leaguetui/agents/protocol"
)

// The ratings chart labels each bar with the player's id and display
// name (shortened when long, whole in the bar's title), escaped.
func TestRatingBarsShowNames(t *testing.T) {
	l := &League{LeagueID: "L", Names: map[string]string{"P01": "alice", "P02": "a-name-far-too-long-for-a-bar", "P03": "<b>x</b>"},
		Ratings: []protocol.RatingRow{{PlayerID: "P01", Rated: true, Elo: 40, CI95: 80}, {PlayerID: "P02", Rated: true, Elo: -10, CI95: 90},
			{PlayerID: "P03", Rated: true, Elo: -30, CI95: 70}, {PlayerID: "P04", Rated: true, Elo: 0, CI95: 60}}}
	var b strings.Builder
	w := bufio.NewWriter(&b)
	p := page{w}
	p.ratings(view{League: l, Bars: l.bars()})
	w.Flush()
	page := b.String()
	for _, want := range []string{">P01 alice &#43;40±80</text>", ">P02 a-name-far-to… -10±90</text>", "<title>P02 a-name-far-too-long-for-a-bar: -10 ±90</title>",
		">P03 &lt;b&gt;x&lt;/b&gt; -30±70</text>", ">P04 &#43;0±60</text>"} {
		if !strings.Contains(page, want) {
			t.Errorf("the ratings chart lacks %q:\n%s", want, page)
		}
	}
	if strings.Contains(page, "<b>") {
		t.Error("a display name reached the chart as markup")
	}
}
