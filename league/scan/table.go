package scan

import (
	"cmp"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/leaguetui/leaguetui/agents/protocol"
)

// ModelRow is one model player's games that were not won, counted by
// category. A player is its id and the model it named: the same id with
// another model (another league of a season) is another row.
type ModelRow struct {
	Player   string           `json:"player_id"`
	Provider string           `json:"provider"`
	Model    string           `json:"model"`
	Harness  string           `json:"harness,omitempty"` // as Game's
	Games    int              `json:"games"`             // its model games, won or not
	NotWon   int              `json:"not_won"`           // the games below
	Counts   map[Category]int `json:"categories"`
}

// Label is the row's name in a table: the player, its model and its
// harness when it is not the built-in one.
func (r ModelRow) Label() string {
	label := r.Player + " " + r.Provider + "/" + r.Model
	if r.Harness != "" {
		label += " (" + r.Harness + ")"
	}
	return label
}

// NewReport scans the leagues' match files (each league's files under its
// id) into a report, its rows in player then model order.
func NewReport(leagues []string, files map[string][]*protocol.MatchFile, problems []string) *Report {
	r := &Report{Leagues: leagues, Games: []Game{}, Models: []ModelRow{}, Problems: problems}
	rows := map[string]*ModelRow{}
	row := func(p modelPlayer) *ModelRow {
		key := p.player + "\x00" + p.provider + "\x00" + p.model + "\x00" + p.harness
		if rows[key] == nil {
			rows[key] = &ModelRow{Player: p.player, Provider: p.provider, Model: p.model, Harness: p.harness,
				Counts: map[Category]int{}}
		}
		return rows[key]
	}
	for _, id := range leagues {
		for _, f := range files[id] {
			seats := seatsOf(f)
			for _, s := range seats {
				row(modelPlayer{s.player, s.moves[0].Model.Provider, s.moves[0].Model.Model, harnessOf(s.moves[0].Model)}).Games++
			}
			for _, g := range scanSeats(f, seats) {
				x := row(modelPlayer{g.Player, g.Provider, g.Model, g.Harness})
				x.NotWon++
				x.Counts[g.Category]++
				r.Games = append(r.Games, g)
			}
		}
	}
	for _, x := range rows {
		r.Models = append(r.Models, *x)
	}
	slices.SortFunc(r.Models, func(a, b ModelRow) int {
		return cmp.Or(cmp.Compare(a.Player, b.Player), cmp.Compare(a.Provider, b.Provider), cmp.Compare(a.Model, b.Model),
			cmp.Compare(a.Harness, b.Harness))
	})
	return r
}

// modelPlayer is a row's key: a player, its model and its harness, as
// judge names them from its first move.
type modelPlayer struct{ player, provider, model, harness string }

// Used is the categories some row counts, in Categories' order: the
// columns of a table.
func (r *Report) Used() []Category {
	var used []Category
	for _, c := range Categories {
		if slices.ContainsFunc(r.Models, func(m ModelRow) bool { return m.Counts[c] > 0 }) {
			used = append(used, c)
		}
	}
	return used
}

// WriteTable writes the per-model table for a terminal: a row per model
// player, a column per category found.
func (r *Report) WriteTable(w io.Writer) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	used := r.Used()
	head := []string{"model player", "games", "not won"}
	for _, c := range used {
		head = append(head, string(c))
	}
	fmt.Fprintln(tw, strings.Join(head, "\t")+"\t")
	for _, m := range r.Models {
		cells := []string{protocol.Printable(m.Label()), strconv.Itoa(m.Games), strconv.Itoa(m.NotWon)}
		for _, c := range used {
			cells = append(cells, strconv.Itoa(m.Counts[c]))
		}
		fmt.Fprintln(tw, strings.Join(cells, "\t")+"\t")
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if len(r.Models) == 0 {
		_, err := fmt.Fprintln(w, "no model player in these matches")
		return err
	}
	return nil
}

// WriteGames writes one line per game not won: where, its category, and
// the finding that decided it.
func (r *Report) WriteGames(w io.Writer) error {
	for _, g := range r.Games {
		f := g.Decisive()
		at := ""
		if f.Move > 0 {
			at = fmt.Sprintf(" at move %d", f.Move)
		}
		if _, err := fmt.Fprintf(w, "%s %s %s: %s%s: %s\n", protocol.Printable(g.LeagueID), protocol.Printable(g.MatchID),
			protocol.Printable(g.Player), g.Category, at, f.Detail); err != nil {
			return err
		}
	}
	return nil
}

// Decisive is the first finding of the game's category that the player
// did not ask again after, or an empty one of it (an outplayed game has
// none).
func (g Game) Decisive() Finding {
	for _, f := range g.Findings {
		if f.Category == g.Category && !f.Rethought {
			return f
		}
	}
	return Finding{Category: g.Category, Detail: "no failure of its own: the opponent won or drew level"}
}

// WriteJSON writes the report as one indented JSON document.
func (r *Report) WriteJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(r)
}

// CSVHead is the header of the findings CSV: one row per finding, the
// game's category beside it.
var CSVHead = []string{"league_id", "match_id", "round", "player_id", "provider", "model", "outcome", "player_status",
	"category", "finding", "move", "seq", "detail"}

// WriteCSV writes every finding of every game not won, a row each; a game
// without findings (outplayed) has one row with an empty finding.
func (r *Report) WriteCSV(w io.Writer) error {
	c := csv.NewWriter(w)
	_ = c.Write(CSVHead)
	for _, g := range r.Games {
		findings := g.Findings
		if len(findings) == 0 {
			findings = []Finding{{}}
		}
		for _, f := range findings {
			_ = c.Write([]string{cell(g.LeagueID), cell(g.MatchID), strconv.Itoa(g.Round), cell(g.Player), cell(g.Provider),
				cell(g.Model), g.Outcome, cell(g.Status), string(g.Category), string(f.Category), strconv.Itoa(f.Move),
				strconv.Itoa(f.Seq), cell(f.Detail)})
		}
	}
	c.Flush()
	return c.Error()
}

// cell guards a string from the match files against a spreadsheet
// reading it as a formula, as the report's CSV exports do: one that
// starts with = + - @ or a control character gets a leading apostrophe.
func cell(s string) string {
	if s != "" && strings.ContainsRune("=+-@\t\r", rune(s[0])) {
		return "'" + s
	}
	return s
}
