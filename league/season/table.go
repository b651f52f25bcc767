package season

import (
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/leaguetui/leaguetui/agents/store"
	"github.com/leaguetui/leaguetui/engine"
)

// The files the season's exports are written as.
const (
	StandingsCSV = "season_standings.csv"
	HistoryCSV   = "rating_history.csv"
)

// Table is the season's table (engine.SeasonTable), technical losses
// counted as losses, as a league's ratings count them by default.
func (s *Season) Table() []engine.SeasonRow {
	return engine.SeasonTable(s.Engine(), engine.RatingOptions{})
}

// Games is how many results the season holds.
func (s *Season) Games() int {
	n := 0
	for _, l := range s.Leagues {
		n += len(l.Results)
	}
	return n
}

// Doc is the season as `leaguetui season --json` prints it.
type Doc struct {
	Season    string      `json:"season"`
	GameType  string      `json:"game_type"`
	Games     int         `json:"games"`
	Model     string      `json:"model"`
	Interval  string      `json:"interval"`
	Leagues   []LeagueRef `json:"leagues"`
	Standings []RowDoc    `json:"standings"`
	// Joint is the first seat's advantage and the draw parameter fitted
	// with the players' strengths over the season (engine.FitSeatAndDraws);
	// absent where the season gives no such fit.
	Joint *JointDoc `json:"joint_fit,omitempty"`
}

// JointDoc is the season's joint fit: the first seat's advantage in Elo
// and the half-width of its 95 % interval, and Davidson's draw parameter
// ν with its 95 % interval and the share of games two equal players draw
// (absent without a draw), over the games counted.
type JointDoc struct {
	SeatElo   float64  `json:"seat_elo"`
	SeatCI95  float64  `json:"seat_ci95"`
	DrawNu    *float64 `json:"draw_nu,omitempty"`
	DrawLow   *float64 `json:"draw_nu_low,omitempty"`
	DrawHigh  *float64 `json:"draw_nu_high,omitempty"`
	EqualDraw *float64 `json:"equal_draw,omitempty"`
	Games     int      `json:"games"`
}

// Joint is the season's joint fit of the seat and the draws.
func (s *Season) Joint() engine.JointFit {
	leagues := s.Engine()
	return engine.FitSeatAndDraws(engine.SeasonNames(leagues), engine.SeasonResults(leagues), engine.RatingOptions{})
}

// jointDoc is the fit as the document gives it, rounded as the ratings
// are; nil without a fit.
func jointDoc(j engine.JointFit) *JointDoc {
	if !j.Known {
		return nil
	}
	r := func(x float64, places int) *float64 {
		p := math.Pow(10, float64(places))
		v := math.Round(x*p) / p
		return &v
	}
	doc := &JointDoc{SeatElo: *r(j.Seat.Elo, 2), SeatCI95: *r(j.Seat.CI95, 2), Games: j.Games}
	if j.Draw.Known {
		doc.DrawNu, doc.DrawLow, doc.DrawHigh, doc.EqualDraw = r(j.Draw.Nu, 4), r(j.Draw.Low, 4), r(j.Draw.High, 4), r(j.Draw.EqualDraw, 4)
	}
	return doc
}

// JointLine is the joint fit in a sentence, "" without one.
func JointLine(j engine.JointFit) string { return j.Described() }

// LeagueRef is a league of the season, in the order it was added.
type LeagueRef struct {
	LeagueID string `json:"league_id"`
	Key      string `json:"key"`
	DataDir  string `json:"data_dir"`
	Games    int    `json:"games"`
}

// RowDoc is a line of the season's table.
type RowDoc struct {
	Rank int `json:"rank"`
	engine.SeasonTotal
	Rated      bool     `json:"rated"`
	Elo        float64  `json:"elo"`
	CI95       float64  `json:"ci95"`
	RatedGames int      `json:"rated_games"` // the games the rating rests on
	LOSNext    *float64 `json:"los_next,omitempty"`
	// RankInterval is the best and worst rank the season's fit allows,
	// [lowest, highest]; TieGroup numbers the players whose rank intervals
	// overlap, 1 from the top (as a league's standings.json).
	RankInterval [2]int `json:"rank_interval"`
	TieGroup     int    `json:"tie_group"`
}

// Document is the season as a JSON document.
func (s *Season) Document() Doc {
	doc := Doc{Season: s.Dir, GameType: s.GameType(), Games: s.Games(), Model: "bradley-terry over every game of the season",
		Interval: "95% from the fit's standard errors", Leagues: []LeagueRef{}, Standings: []RowDoc{}}
	for _, l := range s.Leagues {
		doc.Leagues = append(doc.Leagues, LeagueRef{LeagueID: l.LeagueID, Key: l.Key, DataDir: l.DataDir, Games: len(l.Results)})
	}
	for _, r := range s.Table() {
		doc.Standings = append(doc.Standings, RowDoc{Rank: r.Rank, SeasonTotal: r.SeasonTotal, Rated: r.Rating.Rated,
			Elo: r.Rating.Elo, CI95: r.Rating.CI95, RatedGames: r.Rating.Games, LOSNext: r.LOSNext,
			RankInterval: [2]int{r.Ranks.Best, r.Ranks.Worst}, TieGroup: r.Ranks.TieGroup})
	}
	doc.Joint = jointDoc(s.Joint())
	return doc
}

// WriteJSON writes the season's document.
func (s *Season) WriteJSON(w io.Writer) error {
	data, err := json.MarshalIndent(s.Document(), "", "  ")
	if err != nil {
		return err
	}
	_, err = w.Write(append(data, '\n'))
	return err
}

// WriteText writes the season's table for a terminal.
func (s *Season) WriteText(w io.Writer) error {
	fmt.Fprintf(w, "season %s  %s  %d leagues  %d games\n\n", s.Dir, s.GameType(), len(s.Leagues), s.Games())
	fmt.Fprintf(w, "%4s  %-20s %7s %6s %4s %4s %4s %4s %7s %7s %6s %6s %5s %7s %4s\n", "rank", "name", "leagues", "played", "W", "D", "L", "TL",
		"points", "elo", "±95%", "games", "los", "ranks", "tie")
	for _, r := range s.Table() {
		elo, ci, los := "-", "-", ""
		if r.Rating.Rated {
			elo, ci = ftoa(r.Rating.Elo, 0), ftoa(r.Rating.CI95, 0)
		}
		if r.LOSNext != nil {
			los = fmt.Sprintf("%.0f%%", 100**r.LOSNext)
		}
		fmt.Fprintf(w, "%4d  %-20s %7d %6d %4d %4d %4d %4d %7s %7s %6s %6d %5s %7s %4d\n", r.Rank, clip(r.Name, 20), r.Leagues, r.Played,
			r.Wins, r.Draws, r.Losses, r.TechnicalLosses, ftoa(r.Points, 1), elo, ci, r.Rating.Games, los, Ranks(r.Ranks), r.Ranks.TieGroup)
	}
	_, err := fmt.Fprintln(w, "\nelo: one Bradley-Terry fit over every game of the season; games: those the rating rests on; los: likelihood of superiority over the next;\n"+
		"ranks: the ranks the fit allows; tie: players whose ranks overlap share a tie group")
	if line := JointLine(s.Joint()); line != "" && err == nil {
		_, err = fmt.Fprintln(w, line)
	}
	return err
}

// Ranks is a rank interval as the tables write it: "3" when sure, "2-4"
// when not (protocol.RatingRow.Ranks for a league's table).
func Ranks(iv engine.RankInterval) string {
	if iv.Best == iv.Worst {
		return itoa(iv.Best)
	}
	return itoa(iv.Best) + "-" + itoa(iv.Worst)
}

// clip shortens a name to n runes for the terminal's table.
func clip(s string, n int) string {
	r := []rune(strings.Map(func(c rune) rune {
		if c < ' ' || c == 0x7f {
			return '?' // a control character would move the terminal's cursor
		}
		return c
	}, s))
	if len(r) > n {
		return string(r[:n-1]) + "…"
	}
	return string(r)
}

// StandingsHead is season_standings.csv's header.
var StandingsHead = []string{"rank", "name", "leagues", "played", "wins", "draws", "losses", "technical_losses", "points",
	"elo", "ci95", "elo_low", "elo_high", "rated_games", "los_next", "rank_low", "rank_high", "tie_group"}

// StandingsRows is season_standings.csv: its header, then the table.
func (s *Season) StandingsRows() [][]string {
	rows := [][]string{StandingsHead}
	for _, r := range s.Table() {
		row := []string{itoa(r.Rank), cell(r.Name), itoa(r.Leagues), itoa(r.Played), itoa(r.Wins), itoa(r.Draws), itoa(r.Losses),
			itoa(r.TechnicalLosses), ftoa(r.Points, 1)}
		if r.Rating.Rated {
			row = append(row, ftoa(r.Rating.Elo, 1), ftoa(r.Rating.CI95, 1), ftoa(r.Rating.Elo-r.Rating.CI95, 1), ftoa(r.Rating.Elo+r.Rating.CI95, 1))
		} else {
			row = append(row, "", "", "", "")
		}
		los := ""
		if r.LOSNext != nil {
			los = ftoa(*r.LOSNext, 4)
		}
		rows = append(rows, append(row, itoa(r.Rating.Games), los, itoa(r.Ranks.Best), itoa(r.Ranks.Worst), itoa(r.Ranks.TieGroup)))
	}
	return rows
}

// HistoryHead is rating_history.csv's header.
var HistoryHead = []string{"after_league", "league_id", "name", "elo", "ci95", "elo_low", "elo_high", "rated_games"}

// HistoryRows is rating_history.csv: each player's rating in the fit over
// the leagues up to each one (engine.SeasonHistory), a row per player
// rated by then.
func (s *Season) HistoryRows() [][]string {
	rows := [][]string{HistoryHead}
	for k, fit := range engine.SeasonHistory(s.Engine(), engine.RatingOptions{}) {
		for _, p := range fit.Players {
			if !p.Rated {
				continue
			}
			rows = append(rows, []string{itoa(k + 1), cell(s.Leagues[k].LeagueID), cell(p.PlayerID), ftoa(p.Elo, 1), ftoa(p.CI95, 1),
				ftoa(p.Elo-p.CI95, 1), ftoa(p.Elo+p.CI95, 1), itoa(p.Games)})
		}
	}
	return rows
}

// WriteExports writes season_standings.csv and rating_history.csv into dir.
func (s *Season) WriteExports(dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	for name, rows := range map[string][][]string{StandingsCSV: s.StandingsRows(), HistoryCSV: s.HistoryRows()} {
		err := store.WriteAtomic(filepath.Join(dir, name), func(w io.Writer) error {
			c := csv.NewWriter(w)
			c.WriteAll(rows)
			return c.Error()
		})
		if err != nil {
			return err
		}
	}
	return nil
}

// cell keeps a spreadsheet from reading a name as a formula.
func cell(s string) string {
	if s != "" && strings.ContainsRune("=+-@\t\r", rune(s[0])) {
		return "'" + s
	}
	return s
}

func itoa(n int) string { return strconv.Itoa(n) }

// ftoa writes x with prec decimals, never -0.
func ftoa(x float64, prec int) string { return engine.Fixed(x, prec) }
