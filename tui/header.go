package tui

import (
	"fmt"
	"strings"
)

// headerHeight is the number of lines the header takes.
const headerHeight = 2

// header shows what the league is and how far it has come.
type header struct {
	ctx   *programContext
	mode  string // "local" or "attached"
	width int
}

func (h *header) SetSize(width, _ int) { h.width = width }

// View draws two lines: who and what state; then progress, time and speed.
func (h *header) View() string {
	st, s, now := h.ctx.State, h.ctx.Styles, h.ctx.Now()
	id := st.LeagueID
	if id == "" {
		id = "(league)"
	}
	seed := "seed -"
	if st.Seed != 0 || !st.Started.IsZero() {
		seed = fmt.Sprintf("seed %d", st.Seed)
	}
	state := s.stateLabel(st.DisplayState())
	if h.ctx.Unreachable {
		state = s.StateStopped.Render("✗ unreachable")
	}
	left := strings.Join([]string{s.Title.Render(id), s.Label.Render(seed), state}, "  ")
	right := s.Dim.Render(h.mode + " " + st.ManagerURL)
	line1 := spread(left, right, h.width)

	if len(st.Rounds) == 0 {
		line2 := fmt.Sprintf("not started · %s and %s registered", plural(len(st.Players()), "player"),
			plural(len(st.Referees()), "referee"))
		return fit(line1, h.width) + "\n" + fit(line2, h.width)
	}
	done, total := st.Progress()
	round := st.CurrentRound()
	if round == 0 && total > 0 && done == total {
		round = len(st.Rounds)
	}
	pct := 0
	if total > 0 {
		pct = done * 100 / total
	}
	eta := "-"
	if d, ok := st.ETA(now); ok {
		eta = clock(d)
	}
	parts := []string{
		fmt.Sprintf("round %d/%d", round, len(st.Rounds)),
		fmt.Sprintf("matches %d/%d %d%%", done, total, pct),
		fmt.Sprintf("%d running", st.RunningCount()),
		"elapsed " + clock(st.Elapsed(now)),
		"ETA " + eta,
		fmt.Sprintf("%.1f/s", st.Rate(now)),
	}
	line2 := strings.Join(parts, " · ")
	if st.warnings+st.errors > 0 && h.width >= 100 {
		line2 += s.LevelWarn.Render(fmt.Sprintf("  ⚠ %d warn %d err", st.warnings, st.errors))
	}
	return fit(line1, h.width) + "\n" + fit(line2, h.width)
}

// spread puts left and right on one line of width cells, dropping the
// right part when both do not fit.
func spread(left, right string, width int) string {
	gap := width - visibleWidth(left) - visibleWidth(right)
	if gap < 2 {
		return left
	}
	return left + strings.Repeat(" ", gap) + right
}
