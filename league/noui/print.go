package noui

import (
	"fmt"
	"io"

	"github.com/leaguetui/leaguetui/agents/protocol"
	"github.com/leaguetui/leaguetui/engine"
)

// DescribeResult is one line for a result: "R1M1 P01 vs P02: P01 wins".
func DescribeResult(r engine.Result) string {
	line := fmt.Sprintf("%s %s vs %s: ", r.MatchID, r.PlayerA, r.PlayerB)
	switch r.Status {
	case engine.StatusWin:
		return line + r.Winner + " wins"
	case engine.StatusDraw:
		return line + "draw"
	}
	if r.Winner == "" {
		return line + fmt.Sprintf("technical loss for both (%v)", r.Offenders)
	}
	return line + fmt.Sprintf("%s wins, technical loss for %v", r.Winner, r.Offenders)
}

// PrintStandings writes the standings as a table, with each player's Elo
// rating, its 95 % interval and the likelihood of superiority over the
// next line when the document carries ratings.
func PrintStandings(w io.Writer, s protocol.StandingsFile) {
	fmt.Fprintf(w, "league %s  seed %d  %d matches in %d rounds  %s\n\n", s.LeagueID, s.Seed, s.MatchesTotal, s.RoundsTotal, s.State)
	head := fmt.Sprintf("%4s  %-8s %-16s %6s %4s %4s %4s %4s %6s", "rank", "player", "name", "played", "W", "D", "L", "TL", "points")
	ratings := ratingsByPlayer(s.Ratings)
	if ratings != nil {
		head += fmt.Sprintf(" %6s %6s %5s %6s %3s", "elo", "±95%", "los", "ranks", "tie")
	}
	fmt.Fprintln(w, head)
	for _, r := range s.Standings {
		line := fmt.Sprintf("%4d  %-8s %-16s %6d %4d %4d %4d %4d %6d", r.Rank, r.PlayerID, r.DisplayName, r.Played,
			r.Wins, r.Draws, r.Losses, r.TechnicalLosses, r.Points)
		if ratings != nil {
			line += FormatRating(ratings[r.PlayerID])
		}
		if r.Status != "" {
			line += "  " + r.Status // SUSPENDED
		}
		fmt.Fprintln(w, line)
	}
	if line := DescribeSeat(s.Ratings); line != "" {
		fmt.Fprintln(w)
		fmt.Fprintln(w, line)
	}
	if s.SPRT != nil {
		fmt.Fprintln(w)
		fmt.Fprintln(w, DescribeSPRT(*s.SPRT))
	}
	if s.Separation != nil {
		fmt.Fprintln(w)
		fmt.Fprintln(w, DescribeSeparation(*s.Separation))
		for _, line := range DescribePairs(*s.Separation) {
			fmt.Fprintln(w, line)
		}
	}
}

// DescribeSeparation is an --until-separated or --until-decided league's
// state in a line.
func DescribeSeparation(st engine.SeparationStatus) string {
	if st.Rule == "until-decided" {
		return describeDecided(st)
	}
	line := fmt.Sprintf("until-separated: %d of %d separating matches played", st.Played, st.Limit)
	if st.Known {
		line += fmt.Sprintf("; %d of %d adjacent pairs unsure (the 95%% interval of their difference spans 0)", st.Unsure, st.Pairs)
	}
	return line
}

// describeDecided is DescribeSeparation for --until-decided.
func describeDecided(st engine.SeparationStatus) string {
	line := fmt.Sprintf("until-decided: %d of %d extra matches played", st.Played, st.Limit)
	if st.Known {
		line += fmt.Sprintf("; of %d adjacent pairs %d separated, %d equivalent within ±%g Elo, %d unsure",
			st.Pairs, st.Separated, st.Equivalent, st.Margin, st.Unsure)
	}
	return line
}

// DescribePairs is a line per adjacent pair of the ranking by rating, its
// ranks, players, the difference's 95 % interval and its verdict:
//
//	2-3   P04 over P01   +61.80 ± 40.10 Elo   separated
func DescribePairs(st engine.SeparationStatus) []string {
	var lines []string
	for _, v := range st.Verdicts {
		interval := "unrated"
		if v.Difference != nil && v.CI95 != nil {
			interval = fmt.Sprintf("%+.2f ± %.2f Elo", *v.Difference, *v.CI95)
		}
		lines = append(lines, fmt.Sprintf("  %-5s %s over %s   %s   %s",
			fmt.Sprintf("%d-%d", v.Rank, v.Rank+1), protocol.Printable(v.Above), protocol.Printable(v.Below), interval, v.Verdict))
	}
	return lines
}

// DescribeSeat is the ratings' fitted first-seat advantage in a line, ""
// without one.
func DescribeSeat(doc *protocol.RatingsDoc) string {
	if doc == nil || doc.SeatAdvantage == nil {
		return ""
	}
	return "seat advantage: " + doc.SeatAdvantage.Described()
}

// DescribeSPRT is the test's state as cutechess and fastchess print it:
// the score, the log-likelihood ratio with its bounds, and the verdict.
func DescribeSPRT(st engine.SPRTStatus) string {
	n := st.Wins + st.Draws + st.Losses
	score := 0.0
	if n > 0 {
		score = (float64(st.Wins) + float64(st.Draws)/2) / float64(n)
	}
	verdict := "no hypothesis accepted yet"
	switch st.Verdict {
	case engine.VerdictH0:
		verdict = "H0 was accepted"
	case engine.VerdictH1:
		verdict = "H1 was accepted"
	}
	line := fmt.Sprintf("Score of challenger: %d - %d - %d  [%.3f] %d\nSPRT (%s): llr %.3f, lbound %.3f, ubound %.3f - %s",
		st.Wins, st.Losses, st.Draws, score, n, st.Test, st.LLR, st.Lower, st.Upper, verdict)
	if p := st.Pentanomial; p != nil { // the seat-swapped pairs, as fastchess prints them
		line += fmt.Sprintf("\nPtnml(0-2): %d, %d, %d, %d, %d", p[0], p[1], p[2], p[3], p[4])
	}
	return line
}

// ratingsByPlayer indexes a ratings section by player, nil without one.
func ratingsByPlayer(doc *protocol.RatingsDoc) map[string]protocol.RatingRow {
	if doc == nil {
		return nil
	}
	out := make(map[string]protocol.RatingRow, len(doc.Players))
	for _, r := range doc.Players {
		out[r.PlayerID] = r
	}
	return out
}

// FormatRating is a rating's columns: Elo, ± its 95 % half-width, the
// likelihood of superiority over the next player, the ranks the fit
// allows it and its tie group (the players whose ranks overlap); "-"
// where there is none.
func FormatRating(r protocol.RatingRow) string {
	ranks, tie := r.RankCells()
	if !r.Rated {
		return fmt.Sprintf(" %6s %6s %5s %6s %3s", "-", "-", "-", ranks, tie)
	}
	los := "-"
	if r.LOSNext != nil {
		los = fmt.Sprintf("%.2f", *r.LOSNext)
	}
	return fmt.Sprintf(" %+6.0f %6s %5s %6s %3s", engine.ShownElo(r.Elo), fmt.Sprintf("±%.0f", r.CI95), los, ranks, tie)
}

// budgetNote marks a model player whose budget stopped its moves.
func budgetNote(c *protocol.ModelCost) string {
	if c.BudgetSpent == "" {
		return ""
	}
	return " (" + c.BudgetSpent + " budget spent)"
}

// PrintModelCosts writes, under the standings, what each model player's
// moves cost, in the standings' order, and the league's estimated spend;
// nothing without model players. The provider and model come from a
// player's /health, so they are escaped.
func PrintModelCosts(w io.Writer, s protocol.StandingsFile, costs map[string]*protocol.ModelCost) {
	if len(costs) == 0 {
		return
	}
	fmt.Fprintf(w, "\n%-8s %-24s %6s %10s %10s %8s %6s %9s %8s %s\n", "model", "provider/model", "moves", "tokens in", "tokens out", "ms/move", "failed", "fallbacks",
		"rethinks", "est. cost")
	for _, r := range s.Standings {
		c := costs[r.PlayerID]
		if c == nil {
			continue
		}
		perMove := int64(0)
		if c.Moves > 0 {
			perMove = c.LatencyMS / int64(c.Moves)
		}
		fmt.Fprintf(w, "%-8s %-24s %6d %10d %10d %8d %6d %9d %8d %s\n", r.PlayerID, protocol.Printable(c.Provider+"/"+c.Model), c.Moves,
			c.InputTokens, c.OutputTokens, perMove, c.Failures, c.Fallbacks, c.Rethinks, protocol.Money(c.CostUSD)+budgetNote(c))
	}
	total, unpriced := protocol.ModelSpend(costs)
	line := "league spend, estimated from the price table: " + protocol.Money(total)
	if total == nil {
		line = "league spend: " + protocol.NoPrice
	} else if unpriced > 0 {
		line += fmt.Sprintf(" (%d model players with no price, their tokens not counted)", unpriced)
	}
	fmt.Fprintln(w, line)
}
