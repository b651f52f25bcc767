package report

import (
	"bufio"
	"fmt"
	"path/filepath"

	"github.com/leaguetui/leaguetui/agents/protocol"
	"github.com/leaguetui/leaguetui/league/scan"
)

// The report's part of the failure scan and the trajectories export
// (league/scan): the scan's table and its games, each linked to its match
// and move, and moves.jsonl beside the page.

// matchFiles are the match files the report read, in schedule order.
func (l *League) matchFiles() []*protocol.MatchFile {
	var files []*protocol.MatchFile
	for _, m := range l.Matches {
		if m.File != nil {
			files = append(files, m.File)
		}
	}
	return files
}

// writeMoves writes every model move of the league as moves.jsonl in dir.
func (l *League) writeMoves(dir string) error {
	return writeFile(filepath.Join(dir, scan.MovesJSONL), func(w *bufio.Writer) error {
		return scan.WriteJSONL(w, scan.Records(l.matchFiles()))
	})
}

// MoveAnchor is the id of a transcript entry's row on the page.
func MoveAnchor(matchID string, seq int) string { return fmt.Sprintf("match-%s-%d", matchID, seq) }

// failures is the scan's section: nothing in a league without model
// players.
func (p page) failures(v view) {
	r := scan.NewReport([]string{v.LeagueID}, map[string][]*protocol.MatchFile{v.LeagueID: v.matchFiles()}, nil)
	if len(r.Models) == 0 {
		return
	}
	p.raw("\n<h2 id=\"failures\">Why model players did not win</h2>\n<p class=\"dim\">")
	p.text("Each game a model player did not win, in the category of what ended it (leaguetui scan; the categories: docs/scan.md).")
	p.raw("</p>\n<table><tr><th>model player</th><th class=\"n\">games</th><th class=\"n\">not won</th>")
	used := r.Used()
	for _, c := range used {
		p.raw("<th class=\"n\">")
		p.text(c)
		p.raw("</th>")
	}
	p.raw("</tr>")
	for _, m := range r.Models {
		p.raw("\n<tr>")
		p.cell("mono", m.Label())
		p.cell("n", m.Games)
		p.cell("n", m.NotWon)
		for _, c := range used {
			p.cell("n", m.Counts[c])
		}
		p.raw("</tr>")
	}
	p.raw("\n</table>\n")
	p.failedGames(r.Games)
}

// failedGames lists the games not won, each linked to the move that
// decided it (to its match when no move did).
func (p page) failedGames(games []scan.Game) {
	if len(games) == 0 {
		return
	}
	p.raw("<details><summary>")
	p.textf("%d games not won", len(games))
	p.raw("</summary>\n<table><tr><th>match</th><th>model player</th><th>category</th><th class=\"n\">move</th><th>what shows it</th></tr>")
	for _, g := range games {
		f := g.Decisive()
		anchor := "match-" + g.MatchID
		if f.Seq > 0 {
			anchor = MoveAnchor(g.MatchID, f.Seq)
		}
		p.raw("\n<tr><td><a href=\"#")
		p.text(anchor)
		p.raw("\">")
		p.text(g.MatchID)
		p.raw("</a></td>")
		p.cell("mono", g.Player)
		p.cell("", g.Category)
		p.cell("n", f.Move)
		p.cell("", f.Detail)
		p.raw("</tr>")
	}
	p.raw("\n</table></details>\n")
}
