package report

import (
	"bufio"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/leaguetui/leaguetui/agents/protocol"
)

// The exports' file names, as docs/report.md documents them.
const (
	StandingsCSV  = "standings.csv"
	CrosstableCSV = "crosstable.csv"
	MatchesCSV    = "matches.csv"
	ResultsJSONL  = "results.jsonl"
)

// WriteExports writes the four exports into dir, creating it.
func (l *League) WriteExports(dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	for name, write := range map[string]func(*bufio.Writer) error{
		StandingsCSV:  func(w *bufio.Writer) error { return writeCSV(w, l.StandingsRows()) },
		CrosstableCSV: func(w *bufio.Writer) error { return writeCSV(w, l.CrosstableRows()) },
		MatchesCSV:    func(w *bufio.Writer) error { return writeCSV(w, l.MatchRows()) },
		ResultsJSONL:  l.writeResults,
	} {
		if err := writeFile(filepath.Join(dir, name), write); err != nil {
			return err
		}
	}
	return nil
}

// writeFile writes a file through a buffer, reporting the first error.
func writeFile(path string, write func(*bufio.Writer) error) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	w := bufio.NewWriter(f)
	err = write(w)
	if err == nil {
		err = w.Flush()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return nil
}

func writeCSV(w *bufio.Writer, rows [][]string) error {
	c := csv.NewWriter(w)
	if err := c.WriteAll(rows); err != nil {
		return err
	}
	return c.Error()
}

// usdText is an estimate in US dollars for a CSV cell, "" without a price.
func usdText(usd *float64) string {
	if usd == nil {
		return ""
	}
	return ftoa(*usd, 9)
}

// StandingsHead is standings.csv's header.
var StandingsHead = []string{"rank", "player_id", "display_name", "played", "wins", "draws", "losses",
	"technical_losses", "points", "elo", "ci95", "elo_low", "elo_high", "los_next", "rank_low", "rank_high", "tie_group", "boot_low", "boot_high", "status",
	"model_moves", "input_tokens", "output_tokens", "est_cost_usd", "budget_spent"}

// StandingsRows is standings.csv: its header, then the table in rank order.
func (l *League) StandingsRows() [][]string {
	rows := [][]string{StandingsHead}
	ratings, boot := l.ratingsByPlayer(), l.Bootstrap()
	for _, r := range l.Standings.Standings {
		row := []string{itoa(r.Rank), cell(r.PlayerID), cell(r.DisplayName), itoa(r.Played), itoa(r.Wins),
			itoa(r.Draws), itoa(r.Losses), itoa(r.TechnicalLosses), itoa(r.Points)}
		if rt, ok := ratings[r.PlayerID]; ok && rt.Rated {
			los := ""
			if rt.LOSNext != nil {
				los = ftoa(*rt.LOSNext, 4)
			}
			row = append(row, ftoa(rt.Elo, 1), ftoa(rt.CI95, 1), ftoa(rt.Elo-rt.CI95, 1), ftoa(rt.Elo+rt.CI95, 1), los)
		} else {
			row = append(row, "", "", "", "", "")
		}
		row = append(row, rankCells(ratings[r.PlayerID])...)
		if iv, ok := boot[r.PlayerID]; ok {
			row = append(row, ftoa(iv.Low, 1), ftoa(iv.High, 1))
		} else {
			row = append(row, "", "")
		}
		row = append(row, cell(r.Status))
		if t := l.Models[r.PlayerID]; t != nil {
			row = append(row, itoa(t.Moves), i64toa(t.InputTokens), i64toa(t.OutputTokens), usdText(t.CostUSD), cell(t.BudgetSpent))
		} else {
			row = append(row, "", "", "", "", "")
		}
		rows = append(rows, row)
	}
	return rows
}

// rankCells are standings.csv's rank_low, rank_high and tie_group: the
// best and worst rank the fit allows and the group of players whose rank
// intervals overlap; empty without a fit.
func rankCells(r protocol.RatingRow) []string {
	if r.RankInterval == nil {
		return []string{"", "", ""}
	}
	return []string{itoa(r.RankInterval[0]), itoa(r.RankInterval[1]), itoa(r.TieGroup)}
}

// CrosstableRows is crosstable.csv: a header of "player_id" and every
// player in rank order, then a row per player; each cell is the row
// player's matches against the column's, one letter each, in order.
func (l *League) CrosstableRows() [][]string {
	head := []string{"player_id"}
	for _, r := range l.Standings.Standings {
		head = append(head, cell(r.PlayerID))
	}
	rows := [][]string{head}
	cross := l.Crosstable()
	for _, r := range l.Standings.Standings {
		row := []string{cell(r.PlayerID)}
		for _, c := range l.Standings.Standings {
			row = append(row, CrossCell(cross[r.PlayerID][c.PlayerID], r.PlayerID))
		}
		rows = append(rows, row)
	}
	return rows
}

// CrossCell is player p's matches as one cell: W win, D draw, L loss, T
// technical loss, x abandoned, . still to play; space-separated.
func CrossCell(matches []*Match, p string) string {
	letters := make([]string, 0, len(matches))
	for _, m := range matches {
		letters = append(letters, Letter(m, p))
	}
	return strings.Join(letters, " ")
}

// Letter is one match from player p's side, as the crosstable writes it.
func Letter(m *Match, p string) string {
	if m.Result == nil {
		if m.Abandoned {
			return "x"
		}
		return "."
	}
	return map[string]string{"win": "W", "draw": "D", "loss": "L", "technical_loss": "T"}[m.Outcome(p)]
}

// MatchesHead is matches.csv's header.
var MatchesHead = []string{"round", "match_id", "player_a", "player_b", "result", "winner", "offenders",
	"status_a", "status_b", "move_a", "move_b", "moves", "duration_ms", "referee", "assigned_at",
	"finished_at", "reason"}

// MatchRows is matches.csv: its header, then one row per scheduled match
// in schedule order.
func (l *League) MatchRows() [][]string {
	rows := [][]string{MatchesHead}
	for _, m := range l.Matches {
		var offenders []string
		if m.Result != nil {
			offenders = m.Result.Offenders
		}
		rows = append(rows, []string{itoa(m.Round), cell(m.MatchID), cell(m.PlayerA), cell(m.PlayerB), m.Status(), cell(m.Winner()),
			cell(strings.Join(offenders, " ")), cell(m.PlayerStatus(m.PlayerA)), cell(m.PlayerStatus(m.PlayerB)),
			cell(m.Move(m.PlayerA)), cell(m.Move(m.PlayerB)), itoa(m.Moves), i64toa(m.Duration().Milliseconds()),
			cell(m.Referee), stamp(m.Assigned), stamp(m.Finished), cell(m.Reason())})
	}
	return rows
}

// Result is one line of results.jsonl. Its fields are stable: new ones
// may come, none is renamed or changes meaning.
type Result struct {
	MatchID    string                         `json:"match_id"`
	Round      int                            `json:"round"`
	GameType   string                         `json:"game_type"`
	PlayerA    string                         `json:"player_a"`
	PlayerB    string                         `json:"player_b"`
	Referee    string                         `json:"referee"`
	Status     string                         `json:"status"`
	Winner     string                         `json:"winner"`
	Offenders  []string                       `json:"offenders"`
	Outcomes   map[string]string              `json:"outcomes"` // win, draw, loss, technical_loss: as the standings score it
	Statuses   map[string]string              `json:"statuses"` // the game's own status of each player, else the outcome
	Moves      map[string]string              `json:"moves"`
	MoveCount  int                            `json:"move_count"`
	Score      map[string]int                 `json:"score"`
	DurationMS int64                          `json:"duration_ms"`
	AssignedAt string                         `json:"assigned_at"`
	FinishedAt string                         `json:"finished_at"`
	Reason     string                         `json:"reason"`
	Details    map[string]any                 `json:"details"`
	Models     map[string]*protocol.ModelCost `json:"models"`
}

// Results is results.jsonl's lines, one per scheduled match in schedule order.
func (l *League) Results() []Result {
	out := make([]Result, 0, len(l.Matches))
	for _, m := range l.Matches {
		r := Result{MatchID: m.MatchID, Round: m.Round, GameType: l.GameType, PlayerA: m.PlayerA, PlayerB: m.PlayerB,
			Referee: m.Referee, Status: m.Status(), Winner: m.Winner(), Offenders: []string{}, Outcomes: map[string]string{}, Statuses: map[string]string{},
			Moves: map[string]string{}, MoveCount: m.Moves, Score: map[string]int{}, DurationMS: m.Duration().Milliseconds(),
			AssignedAt: stamp(m.Assigned), FinishedAt: stamp(m.Finished), Reason: m.Reason(), Details: map[string]any{},
			Models: map[string]*protocol.ModelCost{}}
		if m.Result != nil && m.Result.Offenders != nil {
			r.Offenders = m.Result.Offenders
		}
		if m.Facts != nil {
			for p, mv := range m.Facts.Moves {
				r.Moves[p] = mv
			}
		}
		if m.File != nil {
			r.Score = m.File.Result.Score
			for k, v := range m.File.Result.Details {
				r.Details[k] = v
			}
		}
		for p, t := range m.Models {
			r.Models[p] = t
		}
		if m.Result != nil {
			for _, p := range []string{m.PlayerA, m.PlayerB} {
				r.Outcomes[p], r.Statuses[p] = m.Outcome(p), m.PlayerStatus(p)
			}
		}
		out = append(out, r)
	}
	return out
}

func (l *League) writeResults(w *bufio.Writer) error {
	enc := json.NewEncoder(w)
	for _, r := range l.Results() {
		if err := enc.Encode(r); err != nil {
			return err
		}
	}
	return nil
}

func (l *League) ratingsByPlayer() map[string]protocol.RatingRow {
	out := make(map[string]protocol.RatingRow, len(l.Ratings))
	for _, r := range l.Ratings {
		out[r.PlayerID] = r
	}
	return out
}

// cell guards a string from the data folder against a spreadsheet reading
// it as a formula: one that starts with = + - @ or a control character
// gets a leading apostrophe, as OWASP advises. Numbers are not passed
// through it.
func cell(s string) string {
	if s != "" && strings.ContainsRune("=+-@\t\r", rune(s[0])) {
		return "'" + s
	}
	return s
}

func itoa(n int) string     { return strconv.Itoa(n) }
func i64toa(n int64) string { return strconv.FormatInt(n, 10) }

// ftoa writes x with prec decimals; a value that rounds to zero is 0,
// never -0 (a rating of -0.0001 is no worse than one of 0).
func ftoa(x float64, prec int) string {
	s := strconv.FormatFloat(x, 'f', prec, 64)
	if zero := strings.Trim(s, "-0."); zero == "" {
		return strings.TrimPrefix(s, "-")
	}
	return s
}

// stamp is a time in RFC 3339 with milliseconds, "" for none.
func stamp(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.UTC().Format("2006-01-02T15:04:05.000Z07:00")
}
