package engine

import (
	"cmp"
	"slices"
)

// Scoring is the league's points table.
type Scoring struct {
	Win           int `json:"win"`
	Draw          int `json:"draw"`
	Loss          int `json:"loss"`
	TechnicalLoss int `json:"technical_loss"`
	// Tiebreakers orders players tied on points (tiebreak.go); the zero
	// value is wins then draws. The player id comes last whatever it says.
	Tiebreakers Tiebreakers `json:"tiebreakers,omitempty"`
}

// DefaultScoring is the protocol's table: win 3, draw 1, loss 0, technical
// loss 0.
func DefaultScoring() Scoring {
	return Scoring{Win: 3, Draw: 1, Loss: 0, TechnicalLoss: 0}
}

// Result is one match result as the standings see it.
type Result struct {
	MatchID   string
	Round     int
	PlayerA   string
	PlayerB   string
	Status    Status
	Winner    string   // "" for a draw or double technical loss
	Offenders []string // technical-loss offenders
}

// Points awards points per player: a win gives Win to the winner and Loss
// to the other; a draw gives Draw to each; a technical loss gives Win to the
// non-offender (if any) and TechnicalLoss to each offender.
func (s Scoring) Points(r Result) map[string]int {
	points := map[string]int{}
	for _, o := range tally(r) {
		points[o.player] = s.pointsFor(o.kind)
	}
	return points
}

// pointsFor is what one player earns for an outcome of the given kind.
func (s Scoring) pointsFor(k outcomeKind) int {
	switch k {
	case won:
		return s.Win
	case drew:
		return s.Draw
	case lostTechnically:
		return s.TechnicalLoss
	default:
		return s.Loss
	}
}

// outcomeKind is how one match ended for one player.
type outcomeKind int

const (
	won outcomeKind = iota
	drew
	lost
	lostTechnically
)

// playerOutcome is one player's share of a result.
type playerOutcome struct {
	player string
	kind   outcomeKind
}

// tally splits a result into each player's outcome; Points and Table both
// build on it so they cannot disagree.
//
// For a technical loss with no Offenders listed, the player other than the
// Winner is taken as the offender. For a WIN whose Winner is neither player
// (malformed), both players get a loss.
func tally(r Result) [2]playerOutcome {
	return [2]playerOutcome{
		{player: r.PlayerA, kind: kindFor(r, r.PlayerA)},
		{player: r.PlayerB, kind: kindFor(r, r.PlayerB)},
	}
}

// kindFor decides how result r ended for player p.
func kindFor(r Result, p string) outcomeKind {
	switch r.Status {
	case StatusDraw:
		return drew
	case StatusTechnicalLoss:
		if isOffender(r, p) {
			return lostTechnically
		}
		return won
	default:
		if p == r.Winner {
			return won
		}
		return lost
	}
}

// OutcomeFor names how result r ended for player p, as reports and exports
// write it: "win", "draw", "loss" or "technical_loss" (p was an offender).
// It is the reading Points and Table score by.
func OutcomeFor(r Result, p string) string {
	return [...]string{won: "win", drew: "draw", lost: "loss", lostTechnically: "technical_loss"}[kindFor(r, p)]
}

// isOffender reports whether p caused the technical loss in r.
func isOffender(r Result, p string) bool {
	if len(r.Offenders) == 0 {
		return r.Winner != "" && p != r.Winner
	}
	return slices.Contains(r.Offenders, p)
}

// Row is one standings line. Losses counts every loss including technical
// losses; TechnicalLosses counts those alone.
type Row struct {
	Rank            int
	PlayerID        string
	DisplayName     string
	Played          int
	Wins            int
	Draws           int
	Losses          int
	TechnicalLosses int
	Points          int
	Status          string // "" for a player in play, PlayerSuspended
}

// Table keeps standings incrementally: Record is O(1), so the league
// manager's work per reported result does not grow with the league; only
// Rows sorts. A Table is not safe for concurrent use.
type Table struct {
	scoring  Scoring
	rows     map[string]*Row
	recorded map[string]bool // match ids already recorded
	// games is who played whom, kept only when a tie-breaker reads it
	// (head-to-head, Sonneborn-Berger, Buchholz): player -> opponent.
	games map[string]map[string]*pairTally
}

// NewTable returns an empty table that awards points with s.
func NewTable(s Scoring) *Table {
	return &Table{scoring: s, rows: map[string]*Row{}, recorded: map[string]bool{}}
}

// newLeagueTable is a League's table. The league refuses a second result
// for a match itself, so its table keeps no set of the match ids recorded
// (half a million of them at 1,000 players).
func newLeagueTable(s Scoring) *Table {
	return &Table{scoring: s, rows: map[string]*Row{}}
}

// AddPlayer makes sure a player appears in the standings, even with no
// results. It is idempotent; a non-empty displayName replaces the stored
// one, as ShownName shows it (a name mixing scripts has its look-alike
// letters escaped). Without a display name the player id is shown.
func (t *Table) AddPlayer(id, displayName string) {
	row := t.row(id)
	if displayName != "" {
		row.DisplayName = ShownName(displayName)
	}
}

// Scoring is the points the table gives.
func (t *Table) Scoring() Scoring { return t.scoring }

// SetStatus sets the status a player's row shows ("" clears it).
func (t *Table) SetStatus(id, status string) { t.row(id).Status = status }

// Record adds one result in O(1). Players it does not know are added on the
// fly. A result whose non-empty MatchID was already recorded is ignored (a
// League's own table leaves that to the league), so a
// duplicated report cannot count twice.
func (t *Table) Record(r Result) {
	if t.recorded != nil && r.MatchID != "" {
		if t.recorded[r.MatchID] {
			return
		}
		t.recorded[r.MatchID] = true
	}
	outcomes := tally(r)
	if t.scoring.Tiebreakers.needsGames() {
		t.recordPair(outcomes[0].player, outcomes[1].player, outcomes[0].kind)
		t.recordPair(outcomes[1].player, outcomes[0].player, outcomes[1].kind)
	}
	for _, o := range outcomes {
		row := t.row(o.player)
		row.Played++
		row.Points += t.scoring.pointsFor(o.kind)
		switch o.kind {
		case won:
			row.Wins++
		case drew:
			row.Draws++
		case lost:
			row.Losses++
		case lostTechnically:
			row.Losses++
			row.TechnicalLosses++
		}
	}
}

// Rows returns the standings sorted by points, wins and draws (all
// descending), then player id ascending, ranked 1..N with no shared ranks;
// with the scoring's Tiebreakers, by points, those keys in their order,
// then player id. It is the one place a table is ordered: the manager's
// standings, the console's, the report's and a resumed league's all come
// from it.
func (t *Table) Rows() []Row {
	rows := make([]Row, 0, len(t.rows))
	for _, r := range t.rows {
		rows = append(rows, *r)
	}
	if t.scoring.Tiebreakers.IsDefault() {
		slices.SortFunc(rows, compareRows)
	} else {
		t.sortByTiebreakers(rows, t.scoring.Tiebreakers.Keys())
	}
	for i := range rows {
		rows[i].Rank = i + 1
	}
	return rows
}

// Row returns one player's line. Its Rank is 0 because ranking needs the
// whole table; use Rows for ranks.
func (t *Table) Row(playerID string) (Row, bool) {
	r, ok := t.rows[playerID]
	if !ok {
		return Row{}, false
	}
	return *r, true
}

// row returns the player's row, creating it if needed.
func (t *Table) row(id string) *Row {
	r, ok := t.rows[id]
	if !ok {
		r = &Row{PlayerID: id, DisplayName: id}
		t.rows[id] = r
	}
	return r
}

// compareRows orders rows best first: points, wins, draws (descending),
// then player id (ascending) so the order is total and deterministic.
func compareRows(a, b Row) int {
	return cmp.Or(
		cmp.Compare(b.Points, a.Points),
		cmp.Compare(b.Wins, a.Wins),
		cmp.Compare(b.Draws, a.Draws),
		cmp.Compare(a.PlayerID, b.PlayerID),
	)
}

// Standings is the one-shot form of Table: players (which may have no
// results) plus results, sorted and ranked as Table.Rows does.
func Standings(s Scoring, players []string, results []Result) []Row {
	t := NewTable(s)
	for _, p := range players {
		t.AddPlayer(p, "")
	}
	for _, r := range results {
		t.Record(r)
	}
	return t.Rows()
}
