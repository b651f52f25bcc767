package season

import (
	"fmt"
	"html/template"
	"io"
	"math"
	"os"
	"path/filepath"
	"sort"
	"unicode/utf8"

	"github.com/leaguetui/leaguetui/agents/store"
	"github.com/leaguetui/leaguetui/engine"
	"github.com/leaguetui/leaguetui/league/report"
)

// PageFile is the season page's file in the folder WritePage writes.
const PageFile = "index.html"

// WritePage writes the season into out: the season page (the table, the
// rating history chart, links to every league's report), each league's
// own report under leagues/NNNN/, and the season's CSV files. Names are
// text to the page (html/template escapes them), and the chart is SVG
// drawn here: the page runs no script and loads nothing.
func (s *Season) WritePage(out string) error {
	if err := s.WriteExports(out); err != nil {
		return err
	}
	v := pageView{Season: s, Rows: s.Table(), Chart: s.chart(), Joint: JointLine(s.Joint())}
	labels := s.LeagueLabels()
	for i, l := range s.Leagues {
		link := fmt.Sprintf("leagues/%04d/%s", i+1, report.HTMLFile)
		v.Links = append(v.Links, leagueLink{File: l, Label: labels[i], Href: link, Games: len(l.Results)})
		league, err := report.Load(l.DataDir, l.LeagueID)
		if err != nil {
			v.Links[i].Problem = fmt.Sprintf("its data folder could not be read: %v", err)
			continue
		}
		dir := filepath.Join(out, filepath.Dir(link))
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return err
		}
		if err := league.Write(dir); err != nil {
			return err
		}
	}
	return store.WriteAtomic(filepath.Join(out, PageFile), func(w io.Writer) error { return pageTemplate.Execute(w, v) })
}

type pageView struct {
	*Season
	Rows  []engine.SeasonRow
	Chart chart
	Links []leagueLink
	Joint string // the seat and the draws fitted with the ratings (JointLine)
}

type leagueLink struct {
	File    LeagueFile
	Label   string // the league as the page names it (LeagueLabels)
	Href    string
	Games   int
	Problem string
}

// LeagueLabels names each league of the season for the page: its id and
// its start ("league_2025_even_odd · 2026-12-01 14:05", in the zone the
// start was recorded in). Leagues run with the same id in the same minute
// are told apart by their seed, and then by their place in the season, so
// no two labels are the same.
func (s *Season) LeagueLabels() []string {
	labels := make([]string, len(s.Leagues))
	for i, l := range s.Leagues {
		labels[i] = l.LeagueID
		if !l.Started.IsZero() {
			labels[i] += " · " + l.Started.Format("2006-01-02 15:04")
		}
	}
	dup := func() map[string]int {
		n := map[string]int{}
		for _, l := range labels {
			n[l]++
		}
		return n
	}
	count := dup()
	for i, l := range s.Leagues {
		if count[labels[i]] > 1 {
			labels[i] += fmt.Sprintf(" · seed %d", l.Seed)
		}
	}
	count = dup()
	for i := range labels {
		if count[labels[i]] > 1 {
			labels[i] += fmt.Sprintf(" · #%d", i+1)
		}
	}
	return labels
}

// chart is the rating history drawn as SVG: for each player a line
// through its rating after each league and a band for its 95 % interval.
type chart struct {
	Width, Height float64
	Left, Bottom  float64 // the plot's left edge and its bottom
	Zero          float64 // y of rating 0
	XLabels       []xLabel
	YTicks        []axisLabel // X is the y of the tick
	Series        []series
}

type axisLabel struct {
	X    float64
	Text string
}

// xLabel is a league under the x axis: "league N" and, where there is
// room, the day and time it started; Title is its whole label.
type xLabel struct {
	X           float64
	Text, Start string
	Title       string
}

type series struct {
	Name    string
	Color   string
	Line    string      // polyline points
	Band    string      // polygon points
	Dots    []axisLabel // a point per league: X, and the y as Text's number
	Label   string      // the end label: Name, shortened to fit the margin
	EndX    float64     // the line's last point
	EndY    float64
	LabelX  float64 // the end label's baseline start, nudged off the others
	LabelY  float64
	Leader  bool    // the label was moved off its line's end: a thin line joins them
	LeaderY float64 // where that line meets the label
}

// Y is a dot's y.
func (a axisLabel) Y() string { return a.Text }

var palette = []string{"#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#17becf", "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22"}

// The end labels' metrics, in the chart's units: 11px text, its width
// taken generously as 0.62 em a character, its box from ascent to
// descent, and the least gap between two labels' boxes.
const (
	labelFont    = 11.0
	labelChar    = 0.62 * labelFont
	labelAscent  = 9.0
	labelDescent = 3.0
	labelGap     = 1.0
	labelRunes   = 18 // longer names are shortened (the whole name is the series' title)
)

// LabelBox is an end label's box: x, y of its top left, width, height.
type LabelBox struct{ X, Y, W, H float64 }

func labelBox(x, baseline float64, text string) LabelBox {
	return LabelBox{X: x, Y: baseline - labelAscent, W: float64(utf8.RuneCountInString(text)) * labelChar, H: labelAscent + labelDescent}
}

// Overlaps says whether two boxes share any area.
func (b LabelBox) Overlaps(o LabelBox) bool {
	return b.X < o.X+o.W && o.X < b.X+b.W && b.Y < o.Y+o.H && o.Y < b.Y+b.H
}

// shorten keeps a label within n runes.
func shorten(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	return string([]rune(s)[:n-1]) + "…"
}

// placeLabels nudges the end labels apart vertically: each, in the order
// of its line's end from the top, goes at its line's end or just below
// every label already placed whose box it would overlap. Labels pushed
// past bottom then move up together as far as the top allows. It returns
// how far below bottom the lowest label still reaches (0 when none).
func placeLabels(ss []series, top, bottom float64) float64 {
	var order []int // the series with a line: one never rated has no end
	for i := range ss {
		if ss[i].Line != "" {
			order = append(order, i)
		}
	}
	sort.SliceStable(order, func(a, b int) bool { return ss[order[a]].EndY < ss[order[b]].EndY })
	var placed []int
	for _, i := range order {
		sr := &ss[i]
		sr.LabelY = max(sr.EndY+4, top+labelAscent)
		for moved := true; moved; {
			moved = false
			box := labelBox(sr.LabelX, sr.LabelY, sr.Label)
			for _, j := range placed {
				if o := labelBox(ss[j].LabelX, ss[j].LabelY, ss[j].Label); box.Overlaps(o) {
					sr.LabelY = o.Y + o.H + labelGap + labelAscent
					moved = true
					break
				}
			}
		}
		placed = append(placed, i)
	}
	// Lift the labels, all by the same amount so that their gaps stay: by
	// half their mean push, which centres a crowd on its lines' ends, or
	// further when the lowest is past bottom, as far as the highest may go.
	low, high, push := math.Inf(-1), math.Inf(1), 0.0
	if len(order) == 0 {
		return 0
	}
	for _, i := range order {
		low, high = max(low, ss[i].LabelY+labelDescent), min(high, ss[i].LabelY-labelAscent)
		push += ss[i].LabelY - (ss[i].EndY + 4)
	}
	if lift := max(low-bottom, push/float64(len(order))/2); lift > 0 {
		if lift = min(lift, high-top); lift > 0 {
			for _, i := range order {
				ss[i].LabelY -= lift
			}
			low -= lift
		}
	}
	for _, i := range order {
		ss[i].Leader = math.Abs(ss[i].LabelY-(ss[i].EndY+4)) > 2
		ss[i].LabelY = math.Round(ss[i].LabelY*10) / 10
		ss[i].LeaderY = ss[i].LabelY - 4
	}
	return max(0, low-bottom)
}

// chart lays the history out: x by league, y by rating.
func (s *Season) chart() chart {
	history := engine.SeasonHistory(s.Engine(), engine.RatingOptions{})
	c := chart{Width: 760, Height: 360}
	const left, right, top, bottom = 50.0, 130.0, 20.0, 40.0
	c.Left, c.Bottom = left, c.Height-bottom
	lo, hi := -100.0, 100.0
	for _, fit := range history {
		for _, p := range fit.Players {
			if p.Rated {
				lo, hi = math.Min(lo, p.Elo-p.CI95), math.Max(hi, p.Elo+p.CI95)
			}
		}
	}
	spacing := c.Width - left - right
	if len(history) > 1 {
		spacing /= float64(len(history) - 1)
	}
	x := func(k int) float64 {
		if len(history) == 1 {
			return left + (c.Width-left-right)/2
		}
		return left + float64(k)*spacing
	}
	y := func(elo float64) float64 { return top + (hi-elo)/(hi-lo)*(c.Height-top-bottom) }
	c.Zero = y(0)
	step := math.Max(50, math.Pow(10, math.Floor(math.Log10(hi-lo))))
	for elo := math.Ceil(lo/step) * step; elo <= hi; elo += step {
		c.YTicks = append(c.YTicks, axisLabel{X: y(elo), Text: ftoa(elo, 0)})
	}
	labels := s.LeagueLabels()
	for k := range history {
		xl := xLabel{X: x(k), Text: fmt.Sprintf("league %d", k+1), Title: labels[k]}
		if st := s.Leagues[k].Started; !st.IsZero() && spacing >= 16*labelChar {
			xl.Start = st.Format("01-02 15:04")
		}
		c.XLabels = append(c.XLabels, xl)
	}
	for i, name := range engine.SeasonNames(s.Engine()) {
		sr := series{Name: name, Label: shorten(name, labelRunes), Color: palette[i%len(palette)]}
		var upper, lower string
		for k, fit := range history {
			p, ok := fit.Rating(name)
			if !ok || !p.Rated {
				continue
			}
			sr.Line += fmt.Sprintf("%.1f,%.1f ", x(k), y(p.Elo))
			sr.Dots = append(sr.Dots, axisLabel{X: x(k), Text: fmt.Sprintf("%.1f", y(p.Elo))})
			upper += fmt.Sprintf("%.1f,%.1f ", x(k), y(p.Elo+p.CI95))
			lower = fmt.Sprintf("%.1f,%.1f ", x(k), y(p.Elo-p.CI95)) + lower
			sr.EndX, sr.EndY = x(k), y(p.Elo)
			sr.LabelX = x(k) + 6
		}
		sr.Band = upper + lower
		c.Series = append(c.Series, sr)
	}
	if over := placeLabels(c.Series, top, c.Bottom+6); over > 0 {
		c.Height += math.Ceil(over) // room below for labels that do not fit: the x axis' labels move down with it
	}
	return c
}

// EndLabels are the chart's end labels' boxes, by player, as the page
// draws them.
func (s *Season) EndLabels() map[string]LabelBox {
	out := map[string]LabelBox{}
	for _, sr := range s.chart().Series {
		if sr.Line != "" {
			out[sr.Name] = labelBox(sr.LabelX, sr.LabelY, sr.Label)
		}
	}
	return out
}

var pageTemplate = template.Must(template.New("season").Funcs(template.FuncMap{
	"elo":   func(x float64) string { return ftoa(x, 0) },
	"ranks": Ranks,
	"pct": func(p *float64) string {
		if p == nil {
			return ""
		}
		return fmt.Sprintf("%.0f%%", 100**p)
	},
}).Parse(`<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
<title>leaguetui season {{.Dir}}</title>
<style>
/* the chart is styled by its class: chromedp's tests look it up by its id as text */
body{font-family:system-ui,sans-serif;margin:2em;color:#222}
table{border-collapse:collapse}td,th{padding:2px 8px;text-align:right}td.name,th.name{text-align:left}
tr:nth-child(even){background:#f4f4f4}
svg.chart .band{fill-opacity:.06;stroke-opacity:.35}
svg.chart:hover g.player{opacity:.25}
svg.chart:hover g.player:hover{opacity:1}
svg.chart g.player:hover .band{fill-opacity:.3;stroke-opacity:.8}
svg.chart g.player:hover .rating{stroke-width:3}
svg.chart text.label{font-size:11px}
</style></head>
<body>
<h1>Season {{.Dir}}</h1>
<p>{{.GameType}}: {{len .Leagues}} leagues, {{.Games}} games. Ratings are one Bradley-Terry fit over every game of the season, with 95% intervals; <em>games</em> is how many games a rating rests on; <em>los</em> the likelihood of superiority over the next; <em>ranks</em> the ranks the fit allows a player, and players whose ranks overlap share a <em>tie</em> group.</p>
<table id="standings">
<thead><tr><th>rank</th><th class="name">name</th><th>leagues</th><th>played</th><th>W</th><th>D</th><th>L</th><th>TL</th><th>points</th><th>elo</th><th>±95%</th><th>games</th><th>los</th><th>ranks</th><th>tie</th></tr></thead>
<tbody>{{range .Rows}}<tr><td>{{.Rank}}</td><td class="name">{{.Name}}</td><td>{{.Leagues}}</td><td>{{.Played}}</td><td>{{.Wins}}</td><td>{{.Draws}}</td><td>{{.Losses}}</td><td>{{.TechnicalLosses}}</td><td>{{.Points}}</td><td>{{if .Rating.Rated}}{{elo .Rating.Elo}}{{end}}</td><td>{{if .Rating.Rated}}{{elo .Rating.CI95}}{{end}}</td><td>{{.Rating.Games}}</td><td>{{pct .LOSNext}}</td><td>{{ranks .Ranks}}</td><td>{{.Ranks.TieGroup}}</td></tr>
{{end}}</tbody></table>
{{if .Joint}}<p id="joint">Seat and draws, {{.Joint}}.</p>{{end}}
<h2>Ratings after each league</h2>
<p>Each line is a player's rating after each league (the fit over the leagues up to that one), its band the 95% interval; point at a player to see its band alone.</p>
<svg id="history" class="chart" xmlns="http://www.w3.org/2000/svg" width="{{.Chart.Width}}" height="{{.Chart.Height}}" viewBox="0 0 {{.Chart.Width}} {{.Chart.Height}}" role="img" aria-label="each player's rating after each league, its 95% interval as a band">
<line x1="{{.Chart.Left}}" x2="{{.Chart.Width}}" y1="{{.Chart.Zero}}" y2="{{.Chart.Zero}}" stroke="#999" stroke-dasharray="4 3"/>
{{range .Chart.YTicks}}<text x="44" y="{{.X}}" dy="4" text-anchor="end" font-size="11">{{.Text}}</text>
{{end}}{{range .Chart.XLabels}}<text class="league" x="{{.X}}" y="{{$.Chart.Height}}" dy="-22" text-anchor="middle" font-size="11"><title>{{.Title}}</title>{{.Text}}{{if .Start}}<tspan x="{{.X}}" dy="13" fill="#666">{{.Start}}</tspan>{{end}}</text>
{{end}}{{range .Chart.Series}}<g class="player"><title>{{.Name}}</title>
<polygon class="band" points="{{.Band}}" fill="{{.Color}}" stroke="{{.Color}}" stroke-width="0.75" stroke-dasharray="3 2"/>
<polyline class="rating" points="{{.Line}}" fill="none" stroke="{{.Color}}" stroke-width="2"/>
{{$c := .Color}}{{range .Dots}}<circle cx="{{.X}}" cy="{{.Y}}" r="3" fill="{{$c}}"/>{{end}}
{{if .Line}}{{if .Leader}}<line class="leader" x1="{{.EndX}}" y1="{{.EndY}}" x2="{{.LabelX}}" y2="{{.LeaderY}}" stroke="{{.Color}}" stroke-width="0.75"/>{{end}}
<text class="label" x="{{.LabelX}}" y="{{.LabelY}}" font-size="11" fill="{{.Color}}">{{.Label}}</text>{{end}}</g>
{{end}}</svg>
<h2>Leagues</h2>
<ol id="leagues">{{range .Links}}<li>{{if .Problem}}<span class="league">{{.Label}}</span> ({{.Games}} games): {{.Problem}}{{else}}<a class="league" href="{{.Href}}">{{.Label}}</a> ({{.Games}} games, seed {{.File.Seed}}){{end}}</li>
{{end}}</ol>
<p>Also: <a href="season_standings.csv">season_standings.csv</a>, <a href="rating_history.csv">rating_history.csv</a>.</p>
</body></html>
`))
