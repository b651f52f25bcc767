package tui

import (
	"context"
	"fmt"
	"math"
	"strings"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/leaguetui/leaguetui/agents/protocol"
	"github.com/leaguetui/leaguetui/engine"
	"github.com/leaguetui/leaguetui/league/control"
)

// Ratings in the console: the standings show each player's Elo and its
// 95 % interval (from the manager's standings document, as fitted there);
// v on a player opens its likelihood of superiority over every other
// player, which the manager computes on request (GET /los).

// SPRT is the manager's latest SPRT status, nil without one.
func (s *leagueState) SPRT() *engine.SPRTStatus {
	if s.official == nil {
		return nil
	}
	return s.official.SPRT
}

// Ratings are the manager's latest ratings by player, nil before any.
func (s *leagueState) Ratings() map[string]protocol.RatingRow {
	if s.official == nil || s.official.Ratings == nil {
		return nil
	}
	out := make(map[string]protocol.RatingRow, len(s.official.Ratings.Players))
	for _, r := range s.official.Ratings.Players {
		out[r.PlayerID] = r
	}
	return out
}

// ratingCell is the standings' "elo ±ci" column for one player.
func ratingCell(r protocol.RatingRow, ok bool) string {
	if !ok || !r.Rated {
		return fmt.Sprintf(" %5s %-5s", "-", "")
	}
	return fmt.Sprintf(" %+5.0f %-5s", engine.ShownElo(r.Elo), fmt.Sprintf("±%.0f", r.CI95))
}

// ratingHead is the heading of ratingCell's column.
const ratingHead = "   elo ±95% "

// rankHead is the heading of rankCell's columns: the rank interval and
// the tie group.
const rankHead = "  ranks tie"

// rankCell is a player's rank interval, the best and worst rank the fit
// allows ("2-4", one number when sure), and its tie group (the players
// whose rank intervals overlap); blank without them.
func rankCell(r protocol.RatingRow, ok bool) string {
	if !ok || r.RankInterval == nil {
		return fmt.Sprintf(" %6s %3s", "", "")
	}
	return fmt.Sprintf(" %6s %3d", r.Ranks(), r.TieGroup)
}

// sprtLine draws an SPRT's LLR between its bounds, as a bar of width
// cells: "SPRT [0,10] llr +1.23 -2.94 ├────●───┤ +2.94 continue".
func sprtLine(st engine.SPRTStatus, width int) string {
	head := fmt.Sprintf(" SPRT [%g,%g] llr %+.2f  %+.2f ", st.Test.Elo0, st.Test.Elo1, st.LLR, st.Lower)
	tail := fmt.Sprintf(" %+.2f  %s", st.Upper, st.Verdict)
	cells := max(width-len(head)-len(tail)-4, 5)
	at := int(math.Round((st.LLR - st.Lower) / (st.Upper - st.Lower) * float64(cells-1)))
	at = min(max(at, 0), cells-1)
	bar := strings.Repeat("─", at) + "●" + strings.Repeat("─", cells-1-at)
	return head + "├" + bar + "┤" + tail
}

// openLOSMsg asks the root model for a player's LOS row.
type openLOSMsg struct{ PlayerID string }

// losMsg is the manager's answer.
type losMsg struct {
	PlayerID string
	Doc      protocol.LOSDoc
	Err      error
}

func openLOS(id string) tea.Cmd {
	return func() tea.Msg { return openLOSMsg{PlayerID: id} }
}

func fetchLOS(ctx context.Context, c *control.Client, id string) tea.Cmd {
	if c == nil {
		return func() tea.Msg { return losMsg{PlayerID: id, Err: fmt.Errorf("not connected to a manager")} }
	}
	return func() tea.Msg {
		doc, err := c.LOS(ctx, id)
		return losMsg{PlayerID: id, Doc: doc, Err: err}
	}
}

// losView is the standings pane's LOS view of one player.
type losView struct {
	playerID string
	msg      *losMsg // nil while loading
}

// setLOS takes the manager's answer if it is for the player shown.
func (p *standingsPane) setLOS(msg losMsg) {
	if p.los != nil && p.los.playerID == msg.PlayerID {
		p.los.msg = &msg
	}
}

// losLines draws the LOS view: one line per other player, best first.
func (p *standingsPane) losLines() []string {
	s := p.ctx.Styles
	v := p.los
	head := fmt.Sprintf(" LOS of %s over   %8s %6s %6s", truncate(v.playerID, 10), "Δelo", "±se", "LOS")
	lines := []string{s.TableHead.Render(fit(head, p.width))}
	switch {
	case v.msg == nil:
		return append(lines, s.Dim.Render(" Loading…"))
	case v.msg.Err != nil:
		return append(lines, s.Dim.Render(fit(" "+v.msg.Err.Error(), p.width)))
	case len(v.msg.Doc.Versus) == 0:
		return append(lines, s.Dim.Render(" No rating yet."))
	}
	rows := v.msg.Doc.Versus
	from, to := p.list.window(len(rows))
	for i := from; i < to; i++ {
		r := rows[i]
		text := fmt.Sprintf("%-22s %+8.0f %6.0f %6.3f", truncate(r.PlayerID, 22), engine.ShownElo(r.EloDiff), r.SE, r.LOS)
		lines = append(lines, p.ctx.row(text, i == p.list.cursor, p.width))
	}
	return lines
}
