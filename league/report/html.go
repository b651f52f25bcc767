package report

import (
	"bufio"
	"fmt"
	"math"
	"path/filepath"
	"time"

	"github.com/leaguetui/leaguetui/agents/protocol"
)

// HTMLFile is the report's one file: the league, then each match under
// its own anchor (#match-ID).
const HTMLFile = "index.html"

// WriteHTML writes the report into dir (which must exist).
func (l *League) WriteHTML(dir string) error {
	view := l.view()
	return writeFile(filepath.Join(dir, HTMLFile), func(w *bufio.Writer) error { return writePage(w, view) })
}

// Write writes the HTML report and the exports into dir.
func (l *League) Write(dir string) error {
	if err := l.WriteExports(dir); err != nil {
		return err
	}
	if err := l.writeMoves(dir); err != nil { // failures.go: the page links moves.jsonl
		return err
	}
	return l.WriteHTML(dir)
}

// view is what the page shows (page.go).
type view struct {
	*League
	Generated string
	Rounds    []roundView
	Cross     map[string]map[string][]*Match
	Bars      ratingBars
	Ratings   map[string]protocol.RatingRow
}

type roundView struct {
	Round   int
	Matches []*Match
}

func (l *League) view() view {
	v := view{League: l, Generated: stamp(time.Now()), Cross: l.Crosstable(), Bars: l.bars(), Ratings: l.ratingsByPlayer()}
	for _, m := range l.Matches {
		if n := len(v.Rounds); n == 0 || v.Rounds[n-1].Round != m.Round {
			v.Rounds = append(v.Rounds, roundView{Round: m.Round})
		}
		last := &v.Rounds[len(v.Rounds)-1]
		last.Matches = append(last.Matches, m)
	}
	return v
}

// ratingBars is the ratings drawn as an SVG: a bar per rated player from
// elo-ci95 to elo+ci95, a dot at the rating, a line at 0.
type ratingBars struct {
	Width, Height, Zero float64
	Bars                []ratingBar
}

type ratingBar struct {
	protocol.RatingRow
	Label                string // "P01 alice +12±80": id, display name (shortened, when it is not the id), rating
	Y, X1, X2, CX, TextY float64
}

// barName is how many characters of a display name a bar's label keeps;
// the bar's title holds the whole name.
const barName = 14

// barLabelOf is a bar's label: the player's id, its display name, its
// rating and interval.
func (l *League) barLabelOf(r protocol.RatingRow) string {
	label := r.PlayerID
	if name := l.Name(r.PlayerID); name != r.PlayerID {
		if rs := []rune(name); len(rs) > barName {
			name = string(rs[:barName-1]) + "…"
		}
		label += " " + name
	}
	return fmt.Sprintf("%s %s±%.0f", label, signed(r.Elo), r.CI95)
}

const (
	barLabel  = 250.0 // room for the player's label
	barWidth  = 520.0 // the scale
	barHeight = 24.0
)

func (l *League) bars() ratingBars {
	lo, hi := math.Inf(1), math.Inf(-1)
	var rated []protocol.RatingRow
	for _, r := range l.Ratings {
		if r.Rated {
			rated = append(rated, r)
			lo, hi = min(lo, r.Elo-r.CI95, 0), max(hi, r.Elo+r.CI95, 0)
		}
	}
	b := ratingBars{Width: barLabel + barWidth + 20, Height: barHeight*float64(len(rated)) + 10}
	if len(rated) == 0 || hi <= lo {
		return b
	}
	x := func(elo float64) float64 { return math.Round((barLabel+(elo-lo)/(hi-lo)*barWidth)*10) / 10 }
	b.Zero = x(0)
	for i, r := range rated {
		y := 5 + barHeight*float64(i)
		b.Bars = append(b.Bars, ratingBar{RatingRow: r, Label: l.barLabelOf(r), Y: y + barHeight/2, TextY: y + barHeight/2 + 4,
			X1: x(r.Elo - r.CI95), X2: x(r.Elo + r.CI95), CX: x(r.Elo)})
	}
	return b
}
