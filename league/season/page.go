package season

import (
	"fmt"
	"html/template"
	"io"
	"math"
	"os"
	"path/filepath"

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
	v := pageView{Season: s, Rows: s.Table(), Chart: s.chart()}
	for i, l := range s.Leagues {
		link := fmt.Sprintf("leagues/%04d/%s", i+1, report.HTMLFile)
		v.Links = append(v.Links, leagueLink{File: l, Href: link, Games: len(l.Results)})
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
}

type leagueLink struct {
	File    LeagueFile
	Href    string
	Games   int
	Problem string
}

// chart is the rating history drawn as SVG: for each player a line
// through its rating after each league and a band for its 95 % interval.
type chart struct {
	Width, Height float64
	Zero          float64 // y of rating 0
	XLabels       []axisLabel
	YTicks        []axisLabel // X is the y of the tick
	Series        []series
}

type axisLabel struct {
	X    float64
	Text string
}

type series struct {
	Name   string
	Color  string
	Line   string      // polyline points
	Band   string      // polygon points
	Dots   []axisLabel // a point per league: X, and the y as Text's number
	LabelX float64
	LabelY float64
}

// Y is a dot's y.
func (a axisLabel) Y() string { return a.Text }

var palette = []string{"#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#17becf", "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22"}

// chart lays the history out: x by league, y by rating.
func (s *Season) chart() chart {
	history := engine.SeasonHistory(s.Engine(), engine.RatingOptions{})
	c := chart{Width: 760, Height: 360}
	const left, right, top, bottom = 50.0, 130.0, 20.0, 40.0
	lo, hi := -100.0, 100.0
	for _, fit := range history {
		for _, p := range fit.Players {
			if p.Rated {
				lo, hi = math.Min(lo, p.Elo-p.CI95), math.Max(hi, p.Elo+p.CI95)
			}
		}
	}
	x := func(k int) float64 {
		if len(history) == 1 {
			return left + (c.Width-left-right)/2
		}
		return left + float64(k)*(c.Width-left-right)/float64(len(history)-1)
	}
	y := func(elo float64) float64 { return top + (hi-elo)/(hi-lo)*(c.Height-top-bottom) }
	c.Zero = y(0)
	step := math.Max(50, math.Pow(10, math.Floor(math.Log10(hi-lo))))
	for elo := math.Ceil(lo/step) * step; elo <= hi; elo += step {
		c.YTicks = append(c.YTicks, axisLabel{X: y(elo), Text: ftoa(elo, 0)})
	}
	for k := range history {
		c.XLabels = append(c.XLabels, axisLabel{X: x(k), Text: fmt.Sprintf("league %d", k+1)})
	}
	for i, name := range engine.SeasonNames(s.Engine()) {
		sr := series{Name: name, Color: palette[i%len(palette)]}
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
			sr.LabelX, sr.LabelY = x(k)+6, y(p.Elo)+4
		}
		sr.Band = upper + lower
		c.Series = append(c.Series, sr)
	}
	return c
}

var pageTemplate = template.Must(template.New("season").Funcs(template.FuncMap{
	"elo": func(x float64) string { return ftoa(x, 0) },
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
body{font-family:system-ui,sans-serif;margin:2em;color:#222}
table{border-collapse:collapse}td,th{padding:2px 8px;text-align:right}td.name,th.name{text-align:left}
tr:nth-child(even){background:#f4f4f4}
</style></head>
<body>
<h1>Season {{.Dir}}</h1>
<p>{{.GameType}}: {{len .Leagues}} leagues, {{.Games}} games. Ratings are one Bradley-Terry fit over every game of the season, with 95% intervals; <em>games</em> is how many games a rating rests on; <em>los</em> the likelihood of superiority over the next.</p>
<table id="standings">
<thead><tr><th>rank</th><th class="name">name</th><th>leagues</th><th>played</th><th>W</th><th>D</th><th>L</th><th>TL</th><th>points</th><th>elo</th><th>±95%</th><th>games</th><th>los</th></tr></thead>
<tbody>{{range .Rows}}<tr><td>{{.Rank}}</td><td class="name">{{.Name}}</td><td>{{.Leagues}}</td><td>{{.Played}}</td><td>{{.Wins}}</td><td>{{.Draws}}</td><td>{{.Losses}}</td><td>{{.TechnicalLosses}}</td><td>{{.Points}}</td><td>{{if .Rating.Rated}}{{elo .Rating.Elo}}{{end}}</td><td>{{if .Rating.Rated}}{{elo .Rating.CI95}}{{end}}</td><td>{{.Rating.Games}}</td><td>{{pct .LOSNext}}</td></tr>
{{end}}</tbody></table>
<h2>Ratings after each league</h2>
<svg id="history" xmlns="http://www.w3.org/2000/svg" width="{{.Chart.Width}}" height="{{.Chart.Height}}" viewBox="0 0 {{.Chart.Width}} {{.Chart.Height}}" role="img" aria-label="each player's rating after each league, its 95% interval as a band">
<line x1="50" x2="{{.Chart.Width}}" y1="{{.Chart.Zero}}" y2="{{.Chart.Zero}}" stroke="#999" stroke-dasharray="4 3"/>
{{range .Chart.YTicks}}<text x="44" y="{{.X}}" dy="4" text-anchor="end" font-size="11">{{.Text}}</text>
{{end}}{{range .Chart.XLabels}}<text x="{{.X}}" y="{{$.Chart.Height}}" dy="-12" text-anchor="middle" font-size="11">{{.Text}}</text>
{{end}}{{range .Chart.Series}}<g class="player"><title>{{.Name}}</title>
<polygon class="band" points="{{.Band}}" fill="{{.Color}}" fill-opacity="0.12" stroke="none"/>
<polyline class="rating" points="{{.Line}}" fill="none" stroke="{{.Color}}" stroke-width="2"/>
{{$c := .Color}}{{range .Dots}}<circle cx="{{.X}}" cy="{{.Y}}" r="3" fill="{{$c}}"/>{{end}}
<text x="{{.LabelX}}" y="{{.LabelY}}" font-size="11" fill="{{.Color}}">{{.Name}}</text></g>
{{end}}</svg>
<h2>Leagues</h2>
<ol id="leagues">{{range .Links}}<li>{{if .Problem}}{{.File.LeagueID}} ({{.Games}} games): {{.Problem}}{{else}}<a href="{{.Href}}">{{.File.LeagueID}}</a> ({{.Games}} games, seed {{.File.Seed}}){{end}}</li>
{{end}}</ol>
<p>Also: <a href="season_standings.csv">season_standings.csv</a>, <a href="rating_history.csv">rating_history.csv</a>.</p>
</body></html>
`))
