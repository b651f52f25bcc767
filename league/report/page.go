package report

import (
	"bufio"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/leaguetui/leaguetui/agents/protocol"
	"github.com/leaguetui/leaguetui/engine"
)

// The report's page is written by plain Go rather than a template engine.
// Go's templates call methods by name through reflection, and a binary
// that can do that keeps every exported method of every type it links:
// with them, leaguetui's binary, which every agent runs, was 79 MB
// stripped instead of 48, and each agent's start paid for the difference.
//
// Safety is by construction: every value goes through page.text, which
// escapes it as html/template escapes text and quoted attribute values;
// only the page's own markup goes through page.raw. The page has no
// script, no style from the data and no unquoted attribute, so there is
// no other context to escape for.

// page writes one report page.
type page struct{ w *bufio.Writer }

// raw writes the page's own markup.
func (p page) raw(markup ...string) {
	for _, s := range markup {
		p.w.WriteString(s)
	}
}

// text writes a value from the data folder, escaped.
func (p page) text(v any) { p.w.WriteString(escapeHTML(fmt.Sprint(v))) }

// textf writes a formatted value, escaped.
func (p page) textf(format string, args ...any) { p.text(fmt.Sprintf(format, args...)) }

// cell writes a table cell holding v, escaped; class is the cell's class,
// "" for none.
func (p page) cell(class string, v any) {
	if class == "" {
		p.raw("<td>")
	} else {
		p.raw(`<td class="`, class, `">`)
	}
	p.text(v)
	p.raw("</td>")
}

// htmlEscaper escapes as html/template does in text and in quoted
// attributes: no character of a value can end the text or the attribute
// it is in, or start markup.
var htmlEscaper = strings.NewReplacer("\x00", "\uFFFD", `"`, "&#34;", "&", "&amp;", "'", "&#39;", "+", "&#43;",
	"<", "&lt;", ">", "&gt;")

func escapeHTML(s string) string { return htmlEscaper.Replace(s) }

// writePage writes the whole report.
func writePage(w *bufio.Writer, v view) error {
	p := page{w}
	p.head(v)
	p.summary(v)
	p.standings(v)
	p.ratings(v)
	p.crosstable(v)
	p.failures(v) // failures.go: the failure scan's section
	p.rounds(v)
	p.raw("\n<h2 id=\"matches\">Matches</h2>\n")
	for _, m := range v.Matches {
		p.match(v, m)
	}
	p.raw("\n</body>\n</html>\n")
	return nil // a write error stays in w, and its Flush returns it
}

func (p page) head(v view) {
	p.raw(`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="generator" content="leaguetui report">
<title>League `)
	p.text(v.LeagueID)
	p.raw(`</title>
<style>
body { font: 14px/1.45 system-ui, sans-serif; margin: 1.5em auto; max-width: 76em; padding: 0 1em; color: #1d232a; }
h1, h2, h3 { font-weight: 600; }
table { border-collapse: collapse; margin: .5em 0 1.5em; }
th, td { padding: .2em .6em; border-bottom: 1px solid #dde2e8; text-align: left; vertical-align: top; }
th { background: #f1f4f7; }
td.n, th.n { text-align: right; font-variant-numeric: tabular-nums; }
td.c { text-align: center; font-family: ui-monospace, monospace; }
.dim { color: #6a7480; }
.problems { background: #fff4e5; padding: .5em 1em; border-left: 4px solid #e69500; }
code, .mono { font-family: ui-monospace, monospace; font-size: 13px; }
details > summary { cursor: pointer; }
pre { white-space: pre-wrap; word-break: break-all; margin: 0; }
.match { border-top: 2px solid #dde2e8; margin-top: 2em; }
ol.path { margin: .2em 0; padding-left: 1.6em; }
svg text { font: 12px ui-monospace, monospace; fill: #1d232a; }
</style>
</head>
<body>
`)
}

// summary is the league's line, the links to the sections and exports,
// and what the data folder lacks.
func (p page) summary(v view) {
	p.raw(`<h1>League <span class="mono">`)
	p.text(v.LeagueID)
	p.raw("</span></h1>\n<p>")
	if v.GameType != "" {
		p.raw("Game <b>")
		p.text(v.GameType)
		p.raw("</b> · ")
	}
	p.raw("seed <b>")
	p.text(v.Seed)
	p.raw("</b> · state <b>")
	p.text(v.State)
	p.raw("</b> ·\n")
	p.text(v.Played())
	p.raw(" of ")
	p.text(len(v.Matches))
	p.raw(" matches played in ")
	p.text(len(v.Rounds))
	p.raw(" rounds")
	if !v.Started.IsZero() {
		p.raw(" · started ")
		p.text(stamp(v.Started))
	}
	if !v.Finished.IsZero() {
		p.raw(" · last result ")
		p.text(stamp(v.Finished))
	}
	p.raw(".\n<span class=\"dim\">From the data folder's journal (")
	p.text(v.Events)
	p.raw(" events); written ")
	p.text(v.Generated)
	p.raw(`.</span></p>
<nav><a href="#standings">Standings</a> · <a href="#ratings">Ratings</a> · <a href="#crosstable">Crosstable</a> · <a href="#rounds">Rounds</a> · <a href="#matches">Matches</a>
· exports: <a href="standings.csv">standings.csv</a>, <a href="crosstable.csv">crosstable.csv</a>, <a href="matches.csv">matches.csv</a>, <a href="results.jsonl">results.jsonl</a>, <a href="moves.jsonl">moves.jsonl</a></nav>
`)
	if len(v.Problems) > 0 {
		p.raw(`<div class="problems"><b>What the data folder lacks or contradicts:</b><ul>`)
		for _, problem := range v.Problems {
			p.raw("<li>")
			p.text(problem)
			p.raw("</li>")
		}
		p.raw("</ul></div>")
	}
	p.raw("\n")
}

// bootText is a player's bootstrap interval, "[-12, +140]", "-" without.
func bootText(boot map[string]engine.BootstrapInterval, id string) string {
	iv, ok := boot[id]
	if !ok {
		return "-"
	}
	return fmt.Sprintf("[%s, %s]", signed(iv.Low), signed(iv.High))
}

// bootNote says under the table how the bootstrap intervals were made, or
// why there are none.
func bootNote(boot map[string]engine.BootstrapInterval, seed int64) string {
	if boot == nil {
		return fmt.Sprintf("No bootstrap interval: a league of more than %d players or without a game.", BootstrapMaxPlayers)
	}
	return fmt.Sprintf("±95%%: the fit's standard errors; bootstrap 95%%: the basic bootstrap interval over %d resamples of the games, drawn from seed %d; ranks: the ranks the fit allows; tie: players whose ranks overlap.",
		BootstrapResamples, seed)
}

// seatNote is the ratings' first-seat advantage in a sentence, "" without.
func seatNote(doc *protocol.RatingsDoc) string {
	if doc == nil || doc.SeatAdvantage == nil {
		return ""
	}
	return " Seat advantage: " + doc.SeatAdvantage.Described() + "."
}

// jointNote is the seat and the draws fitted with the ratings in a
// sentence, "" without a fit.
func jointNote(j engine.JointFit) string {
	if !j.Known {
		return ""
	}
	return " Seat and draws, " + j.Described() + "."
}

// standings is the table with each player's rating and model tokens, the
// SPRT's verdict and the model players' costs.
func (p page) standings(v view) {
	p.raw(`
<h2 id="standings">Standings</h2>
<table>
<tr><th class="n">rank</th><th>player</th><th>name</th><th class="n">played</th><th class="n">W</th><th class="n">D</th><th class="n">L</th><th class="n">TL</th><th class="n">points</th><th class="n">elo</th><th class="n">±95%</th><th class="n">los</th><th class="n">ranks</th><th class="n">tie</th><th class="n">bootstrap 95%</th><th class="n">tok in/out</th><th class="n">est. cost</th><th>status</th></tr>`)
	boot := v.Bootstrap()
	for _, r := range v.Standings.Standings {
		p.raw("\n<tr>")
		p.cell("n", r.Rank)
		p.cell("mono", r.PlayerID)
		p.cell("", r.DisplayName)
		for _, n := range []int{r.Played, r.Wins, r.Draws, r.Losses, r.TechnicalLosses} {
			p.cell("n", n)
		}
		p.raw(`<td class="n"><b>`)
		p.text(r.Points)
		p.raw("</b></td>")
		elo, ci, los := "-", "-", "-"
		if rating, ok := v.Ratings[r.PlayerID]; ok && rating.Rated {
			elo, ci = signed(rating.Elo), fmt.Sprintf("±%.0f", rating.CI95)
			if rating.LOSNext != nil {
				los = fmt.Sprintf("%.2f", *rating.LOSNext)
			}
		}
		p.cell("n", elo)
		p.cell("n", ci)
		p.cell("n", los)
		ranks, tie := v.Ratings[r.PlayerID].RankCells()
		p.cell("n", ranks)
		p.cell("n", tie)
		p.cell("n", bootText(boot, r.PlayerID))
		tokens, money := "-", "-"
		if t := v.Models[r.PlayerID]; t != nil {
			tokens, money = fmt.Sprintf("%d/%d", t.InputTokens, t.OutputTokens), protocol.Money(t.CostUSD)
		}
		p.raw("\n")
		p.cell("n", tokens)
		p.cell("n", money)
		p.cell("", r.Status)
		p.raw("</tr>")
	}
	p.raw("\n</table>\n")
	p.raw(`<p class="dim">`)
	p.text(bootNote(boot, v.Seed) + seatNote(v.Standings.Ratings) + jointNote(v.JointFit()))
	p.raw("</p>\n")
	if tb := v.Scoring.Tiebreakers; !tb.IsDefault() {
		p.raw(`<p class="dim">Ranked by `)
		p.text(tb.Legend()) // the league file's scoring.tiebreakers
		p.raw(".</p>\n")
	}
	if st := v.Standings.SPRT; st != nil {
		p.raw("<p>SPRT (")
		p.text(st.Test)
		p.raw("): ")
		p.textf("%d wins, %d draws, %d losses; llr %.3f in [%.3f, %.3f]", st.Wins, st.Draws, st.Losses, st.LLR, st.Lower, st.Upper)
		if st.Verdict != "" {
			p.raw(": ")
			p.text(st.Verdict)
		}
		p.raw(".</p>")
	}
	p.raw("\n")
	if len(v.Models) > 0 {
		p.raw(`<h3>Model players</h3>
<table><tr><th>player</th><th>provider/model</th><th>harness</th><th class="n">moves</th><th class="n">rethinks</th><th class="n">tokens in</th><th class="n">tokens out</th><th class="n">ms/move</th><th class="n">failed</th><th class="n">est. cost</th><th class="n">per point</th></tr>`)
		points := map[string]int{}
		for _, r := range v.Standings.Standings {
			points[r.PlayerID] = r.Points
		}
		for _, id := range slices.Sorted(maps.Keys(v.Models)) {
			t := v.Models[id]
			perMove := ""
			if t.Moves > 0 {
				perMove = fmt.Sprintf("%.0f", float64(t.LatencyMS)/float64(t.Moves))
			}
			p.raw("\n<tr>")
			p.cell("mono", id)
			p.cell("", t.Provider+"/"+t.Model)
			p.cell("", t.Harness.String())
			money := protocol.Money(t.CostUSD)
			if t.BudgetSpent != "" {
				money += " (" + t.BudgetSpent + " budget spent)"
			}
			for _, n := range []any{t.Moves, t.Rethinks, t.InputTokens, t.OutputTokens, perMove, t.Failures, money, perPoint(t.CostUSD, points[id])} {
				p.cell("n", n)
			}
			p.raw("</tr>")
		}
		p.raw("\n</table>")
		p.modelSpend(v.League)
	}
	p.raw("\n")
}

// signed is a rating with its sign, rounded: +12, -3.
func signed(elo float64) string { return fmt.Sprintf("%+.0f", engine.ShownElo(elo)) }

// ratings draws each rated player's rating and interval as an SVG.
func (p page) ratings(v view) {
	p.raw(`
<h2 id="ratings">Ratings</h2>
<p class="dim">Bradley–Terry on the Elo scale, mean 0; each bar is the 95 % interval, the dot the rating, the line 0.</p>
`)
	b := v.Bars
	if len(b.Bars) == 0 {
		p.raw("<p>No rated player yet.</p>\n")
		return
	}
	p.raw("\n<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"")
	p.text(b.Width)
	p.raw(`" height="`)
	p.text(b.Height)
	p.raw(`" viewBox="0 0 `)
	p.text(b.Width)
	p.raw(" ")
	p.text(b.Height)
	p.raw("\" role=\"img\" aria-label=\"ratings with 95% intervals\">\n<line x1=\"")
	p.text(b.Zero)
	p.raw(`" y1="0" x2="`)
	p.text(b.Zero)
	p.raw(`" y2="`)
	p.text(b.Height)
	p.raw(`" stroke="#9aa4ae" stroke-dasharray="3 3"/>`)
	for _, bar := range b.Bars {
		p.raw("\n<g class=\"bar\"><title>")
		p.textf("%s %s: %s ±%.0f", bar.PlayerID, v.Name(bar.PlayerID), signed(bar.Elo), bar.CI95)
		p.raw("</title><text x=\"4\" y=\"")
		p.text(bar.TextY)
		p.raw(`">`)
		p.text(bar.Label)
		p.raw("</text>\n<line x1=\"")
		p.text(bar.X1)
		p.raw(`" y1="`)
		p.text(bar.Y)
		p.raw(`" x2="`)
		p.text(bar.X2)
		p.raw(`" y2="`)
		p.text(bar.Y)
		p.raw("\" stroke=\"#3c78b4\" stroke-width=\"6\" stroke-linecap=\"round\"/>\n<circle cx=\"")
		p.text(bar.CX)
		p.raw(`" cy="`)
		p.text(bar.Y)
		p.raw(`" r="5" fill="#1d232a"/></g>`)
	}
	p.raw("\n</svg>\n\n")
}

// crosstable is each row player's results against each column player,
// every letter linking to its match.
func (p page) crosstable(v view) {
	p.raw(`
<h2 id="crosstable">Crosstable</h2>
<p class="dim">The row player's results against the column player: W win, D draw, L loss, T technical loss, x abandoned, . to play.</p>
<table>
<tr><th>rank</th><th>player</th>`)
	rows := v.Standings.Standings
	for _, col := range rows {
		p.raw(`<th class="n" title="`)
		p.text(col.PlayerID)
		p.raw(`">`)
		p.text(col.Rank)
		p.raw("</th>")
	}
	p.raw("</tr>")
	for _, row := range rows {
		p.raw("\n<tr>")
		p.cell("n", row.Rank)
		p.cell("mono", row.PlayerID)
		for _, col := range rows {
			p.raw(`<td class="c">`)
			if row.PlayerID == col.PlayerID {
				p.raw("—")
			} else {
				p.crossCell(v.Cross[row.PlayerID][col.PlayerID], row.PlayerID)
			}
			p.raw("</td>")
		}
		p.raw("</tr>")
	}
	p.raw("\n</table>\n")
}

// crossCell is player's matches against one opponent, a letter each,
// linking to the match.
func (p page) crossCell(matches []*Match, player string) {
	for _, m := range matches {
		p.raw(`<a href="#match-`)
		p.text(m.MatchID)
		p.raw(`">`)
		p.text(Letter(m, player))
		p.raw("</a>")
	}
}

// rounds is a table per round.
func (p page) rounds(v view) {
	p.raw("\n<h2 id=\"rounds\">Rounds</h2>\n")
	for _, r := range v.Rounds {
		p.raw("\n<h3>Round ")
		p.text(r.Round)
		p.raw(`</h3>
<table><tr><th>match</th><th>player A</th><th>player B</th><th>result</th><th>winner</th><th>referee</th><th class="n">duration</th><th>reason</th></tr>`)
		for _, m := range r.Matches {
			p.raw("\n<tr><td class=\"mono\"><a href=\"#match-")
			p.text(m.MatchID)
			p.raw(`">`)
			p.text(m.MatchID)
			p.raw("</a></td>")
			for _, player := range []string{m.PlayerA, m.PlayerB} {
				p.raw("<td>")
				p.text(player)
				p.raw(` <span class="dim">`)
				p.text(v.Name(player))
				p.raw("</span></td>")
			}
			p.cell("", m.Status())
			p.cell("", m.Winner())
			p.cell("", m.Referee)
			p.cell("n", roundedDuration(m.Duration()))
			p.cell("", m.Reason())
			p.raw("</tr>")
		}
		p.raw("\n</table>\n")
	}
	p.raw("\n")
}

// roundedDuration is a duration to the millisecond.
func roundedDuration(d time.Duration) string { return d.Round(time.Millisecond).String() }

// match is one match's section: its result, its players' moves, the
// game's facts, a link race's paths, the model players' costs and the
// transcript.
func (p page) match(v view, m *Match) {
	p.raw("\n<section class=\"match\" id=\"match-")
	p.text(m.MatchID)
	p.raw("\">\n<h3>")
	p.textf("%s · round %d · %s vs %s", m.MatchID, m.Round, m.PlayerA, m.PlayerB)
	p.raw("</h3>\n<p><b>")
	p.text(m.Status())
	p.raw("</b>")
	if w := m.Winner(); w != "" {
		p.raw(", ")
		p.text(w)
		p.raw(" wins")
	}
	if m.Result != nil && len(m.Result.Offenders) > 0 {
		p.raw(" · technical loss for ")
		p.text(strings.Join(m.Result.Offenders, ", "))
	}
	p.raw("\n· referee ")
	p.text(m.Referee)
	p.raw(" · assigned ")
	p.text(stamp(m.Assigned))
	p.raw(" · result ")
	p.text(stamp(m.Finished))
	p.raw(" · ")
	p.text(roundedDuration(m.Duration()))
	p.raw("</p>\n")
	if reason := m.Reason(); reason != "" {
		p.raw("<p>")
		p.text(reason)
		p.raw("</p>")
	}
	p.raw("\n<table><tr><th>player</th><th>name</th><th>status</th><th>move</th></tr>")
	for _, player := range []string{m.PlayerA, m.PlayerB} {
		p.raw("\n<tr>")
		p.cell("mono", player)
		p.cell("", v.Name(player))
		p.cell("", m.PlayerStatus(player))
		p.cell("", m.Move(player))
		p.raw("</tr>")
	}
	p.raw("\n</table>\n")
	if len(m.GameFacts) > 0 {
		p.raw("<table><tr><th>fact</th><th>value</th></tr>")
		for _, f := range m.GameFacts {
			p.raw("<tr>")
			p.cell("", f.Name)
			p.cell("mono", f.Value)
			p.raw("</tr>")
		}
		p.raw("</table>")
	}
	p.raw("\n")
	if m.Race != nil {
		p.race(m)
	}
	p.raw("\n")
	if len(m.Models) > 0 {
		p.matchModels(m)
	}
	p.raw("\n")
	if m.File != nil {
		p.transcript(m)
	} else {
		p.raw(`<p class="dim">No match file.</p>`)
	}
	p.raw("\n</section>\n")
}

// race is a link race's two paths and the errors it recorded.
func (p page) race(m *Match) {
	r := m.Race
	p.raw("\n<p>Link race from <b>")
	p.text(r.Start)
	p.raw("</b> to <b>")
	p.text(r.Target)
	p.raw("</b>.</p>\n<table><tr><th>A: ")
	p.textf("%s · %s · %d pages", m.PlayerA, r.StatusA, len(r.PathA))
	p.raw("</th><th>B: ")
	p.textf("%s · %s · %d pages", m.PlayerB, r.StatusB, len(r.PathB))
	p.raw("</th></tr>\n<tr>")
	for _, path := range [][]string{r.PathA, r.PathB} {
		p.raw(`<td><ol class="path">`)
		for _, title := range path {
			p.raw("<li>")
			p.text(title)
			p.raw("</li>")
		}
		p.raw("</ol></td>")
	}
	p.raw("</tr></table>\n")
	if len(r.Errors) > 0 {
		p.raw("<table><tr><th>error</th><th>player</th><th>metadata</th></tr>")
		for _, e := range r.Errors {
			p.raw("<tr>")
			p.cell("", e.ErrorType)
			p.cell("", e.Player)
			p.cell("mono", fmt.Sprintf("%v", e.Metadata))
			p.raw("</tr>")
		}
		p.raw("</table>")
	}
	p.raw("\n")
}

// perPoint is what a model player's points cost it, estimated: "-" for a
// player without points, "no price" without a price.
func perPoint(usd *float64, points int) string {
	if usd == nil {
		return protocol.NoPrice
	}
	if points <= 0 {
		return "-"
	}
	each := *usd / float64(points)
	return protocol.Money(&each)
}

// modelSpend is the league's estimated spend under the model players.
func (p page) modelSpend(l *League) {
	total, unpriced := protocol.ModelSpend(l.Models)
	p.raw(`<p class="spend">League spend, estimated from the price table: `)
	p.text(protocol.Money(total))
	if unpriced > 0 {
		p.textf(" (%d model players with no price, their tokens not counted)", unpriced)
	}
	p.raw(".</p>")
}

// matchModels is each model player's cost in the match.
func (p page) matchModels(m *Match) {
	p.raw(`<table><tr><th>model player</th><th>provider/model</th><th class="n">moves</th><th class="n">rethinks</th><th class="n">tokens in</th><th class="n">tokens out</th><th class="n">latency ms</th><th class="n">failed</th><th class="n">est. cost</th></tr>`)
	for _, id := range slices.Sorted(maps.Keys(m.Models)) {
		t := m.Models[id]
		p.raw("<tr>")
		p.cell("mono", id)
		p.cell("", t.Provider+"/"+t.Model)
		for _, n := range []any{t.Moves, t.Rethinks, t.InputTokens, t.OutputTokens, t.LatencyMS, t.Failures, protocol.Money(t.CostUSD)} {
			p.cell("n", n)
		}
		p.raw("</tr>")
	}
	p.raw("\n</table>")
}

// reasoning is a model move's prompt and reply, folded, each in a block
// of its own and escaped: the model's words never pass for the page's.
func (p page) reasoning(r *protocol.Reasoning) {
	if r == nil {
		return
	}
	p.raw(`<details class="reasoning"><summary>reasoning</summary><p>prompt</p><pre>`)
	p.text(r.Prompt)
	p.raw(`</pre><p>reply</p><pre>`)
	p.text(r.Reply)
	p.raw("</pre>")
	if r.Truncated {
		p.raw("<p>")
		p.textf("(each cut to %d bytes)", protocol.ReasoningBytes)
		p.raw("</p>")
	}
	p.raw("</details>")
}

// moveCell is an exchange's move, or the game's drawing of what the seat
// it asks sees, kept as the game spaced it.
func (p page) moveCell(e Exchange) {
	if e.View == "" {
		p.cell("", e.Move)
		return
	}
	p.raw("\n<td>")
	p.text(e.Move)
	p.raw(`<pre class="view">`)
	p.text(e.View)
	p.raw("</pre></td>")
}

// transcript is the match file's exchanges, folded.
func (p page) transcript(m *Match) {
	p.raw("\n<details><summary>Transcript: ")
	p.textf("%d exchanges, %d moves (%s to %s)", len(m.Exchanges), m.Moves, m.File.Lifecycle.StartedAt, m.File.Lifecycle.FinishedAt)
	p.raw(`</summary>
<table><tr><th class="n">#</th><th>time</th><th>message</th><th>from → to</th><th>move</th><th>model</th><th>content</th></tr>`)
	for _, e := range m.Exchanges {
		p.raw("\n<tr id=\"")
		p.text(MoveAnchor(m.MatchID, e.Seq)) // the failure scan links a move here
		p.raw("\">")
		p.cell("n", e.Seq)
		p.cell("mono", e.Timestamp)
		p.cell("", e.MessageType)
		p.cell("mono", e.From+" → "+e.To)
		p.moveCell(e)
		p.raw("\n<td>")
		if mm := e.Model; mm != nil {
			p.textf("%d/%d tok, %s, %d ms", mm.InputTokens, mm.OutputTokens, protocol.Money(mm.CostUSD), mm.LatencyMS)
			if mm.ErrorType != "" {
				p.raw(" · ")
				p.text(mm.ErrorType)
			}
			if mm.BudgetSpent != "" {
				p.raw(" · ")
				p.text(mm.BudgetSpent + " budget spent")
			}
			if mm.Fallback {
				p.raw(" · fallback")
			}
			if mm.Rethinks > 0 {
				p.textf(" · %d asks (%d rethinks)", len(mm.Asks), mm.Rethinks)
			}
			p.reasoning(mm.Reasoning)
		}
		p.raw("</td>\n<td><details><summary>json</summary><pre>")
		p.text(e.Content)
		p.raw("</pre></details></td></tr>")
	}
	p.raw("\n</table>\n</details>\n")
}
