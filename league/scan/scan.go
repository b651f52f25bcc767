// Package scan reads a league's match files and says why each model
// player's game that it did not win was not won: deterministic scanners
// put every such game in one named category (docs/scan.md), with every
// finding tied to its match and move, and a per-model table counts them.
// It also turns every model move into a training or analysis record
// (moves.jsonl, export.go). It only reads: the same files scan the same on
// any machine, and nothing a player wrote changes a result or the
// standings, it only lands in a category.
package scan

import (
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/leaguetui/leaguetui/agents/protocol"
	"github.com/leaguetui/leaguetui/agents/store"
)

// Category names why a game was not won.
type Category string

// The categories, as docs/scan.md documents each with an example.
const (
	Loop          Category = "loop"               // a page visited again: the path turned back on itself
	NearMiss      Category = "near_miss_link"     // a link not on the page but nearly one of its links
	InvalidLink   Category = "invalid_link"       // a link not on the page, near none of them
	Refusal       Category = "refusal"            // no move, and a reply that declines to play
	ToolMisuse    Category = "tool_misuse"        // a tool it was not given, or the right one without its move
	Unparseable   Category = "unparseable_answer" // no tool call and no move readable in the text, or arguments that are no JSON
	ProviderError Category = "provider_error"     // the provider failed: an error status, a rate limit, a reply it could not read
	Timeout       Category = "timeout"            // no answer in time: the provider's or the player's
	BudgetStop    Category = "budget_stop"        // a budget was spent, so the model was not asked
	StepLimit     Category = "step_limit"         // the steps ran out without a revisit
	Outplayed     Category = "outplayed"          // nothing of its own went wrong: the opponent won or drew level
	Other         Category = "other"              // a failure outside the seed's taxonomy
)

// Categories lists every category in the order tables show them.
var Categories = []Category{Loop, NearMiss, InvalidLink, Refusal, ToolMisuse, Unparseable, ProviderError, Timeout,
	BudgetStop, StepLimit, Outplayed, Other}

// maxMatchFile bounds one match file read, as the report bounds it: a
// hostile or damaged file cannot make a scan unbounded.
const maxMatchFile = 8 << 20

// Finding is one thing a scanner found in a game, at one of the player's
// moves.
type Finding struct {
	Category Category `json:"category"`
	Move     int      `json:"move"` // the player's answer, 1 for its first; 0 for none (a technical loss)
	Seq      int      `json:"seq"`  // the transcript entry of that answer, 0 for none
	Detail   string   `json:"detail"`
	// Rethought: an ask the player asked again after (rethinks), so it
	// did not end the game and never decides its category.
	Rethought bool `json:"rethought,omitempty"`
}

// Game is one model player's game that it did not win: its category (the
// cause that ended it) and everything the scanners found in it.
type Game struct {
	LeagueID string    `json:"league_id"`
	MatchID  string    `json:"match_id"`
	Round    int       `json:"round"`
	Player   string    `json:"player_id"`
	Provider string    `json:"provider"`
	Model    string    `json:"model"`
	Harness  string    `json:"harness,omitempty"`       // the player's harness settings in a line; absent for the built-in one
	Outcome  string    `json:"outcome"`                 // loss, draw or technical_loss
	Status   string    `json:"player_status,omitempty"` // the game's own status for the player (LOST_MAX_STEPS …)
	Category Category  `json:"category"`
	Findings []Finding `json:"findings"`
}

// Report is a scan of one league or more.
type Report struct {
	Leagues  []string   `json:"leagues"`
	Models   []ModelRow `json:"models"`
	Games    []Game     `json:"games"`
	Problems []string   `json:"problems,omitempty"` // match files that could not be read
}

// ReadLeague reads every match file of league leagueID in the data folder,
// in round then match order, skipping none silently: a file that cannot
// be read is a problem.
func ReadLeague(dataDir, leagueID string) (files []*protocol.MatchFile, problems []string, err error) {
	layout, err := store.NewLayout(dataDir, leagueID)
	if err != nil {
		return nil, nil, err
	}
	entries, err := os.ReadDir(layout.MatchesDir())
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil, nil // no match played yet
	}
	if err != nil {
		return nil, nil, err
	}
	for _, e := range entries {
		id, ok := strings.CutSuffix(e.Name(), ".json")
		if !ok || e.IsDir() || store.SafeName(id) != nil {
			continue // a temporary file of a write cut short
		}
		f, err := readMatchFile(filepath.Join(layout.MatchesDir(), e.Name()))
		if err != nil {
			problems = append(problems, err.Error())
			continue
		}
		files = append(files, f)
	}
	slices.SortStableFunc(files, func(a, b *protocol.MatchFile) int {
		return cmp.Or(cmp.Compare(a.RoundID, b.RoundID), cmp.Compare(a.MatchID, b.MatchID))
	})
	return files, problems, nil
}

func readMatchFile(path string) (*protocol.MatchFile, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var m protocol.MatchFile
	dec := json.NewDecoder(io.LimitReader(f, maxMatchFile+1))
	if err := dec.Decode(&m); err != nil {
		return nil, fmt.Errorf("%s: %w (a match file is read up to %d bytes)", path, err, maxMatchFile)
	}
	return &m, nil
}

// ScanMatch scans one match file: every model player's game that it did
// not win, in seat order; nothing for a match abandoned or without a
// result.
func ScanMatch(f *protocol.MatchFile) []Game { return scanSeats(f, seatsOf(f)) }

// seat is a model player of a match and its model moves.
type seat struct {
	side, player string // side: A or B
	moves        []move
}

// seatsOf are the match's model players in seat order, each with its
// model moves read once: none for a match abandoned or without a result.
func seatsOf(f *protocol.MatchFile) []seat {
	if f == nil || f.Result.Status == "" || f.Result.Status == "ABANDONED" || f.Lifecycle.State == "ABANDONED" {
		return nil
	}
	var seats []seat
	for _, side := range []string{"A", "B"} {
		player := f.Players["player_"+side]
		if player == "" {
			continue
		}
		if moves := movesOf(f, player); len(moves) > 0 {
			seats = append(seats, seat{side, player, moves})
		}
	}
	return seats
}

// scanSeats judges the games of the seats that their players did not win.
func scanSeats(f *protocol.MatchFile, seats []seat) []Game {
	var games []Game
	for _, s := range seats {
		outcome := outcomeOf(f.Result, s.player)
		if outcome == "win" {
			continue
		}
		g := judge(f, s.player, s.moves)
		g.Outcome = outcome
		games = append(games, g)
	}
	return games
}

// outcomeOf is the match's result for player: win, draw, loss or
// technical_loss (the player was an offender).
func outcomeOf(r protocol.MatchResult, player string) string {
	switch {
	case slices.Contains(r.Offenders, player):
		return "technical_loss"
	case r.WinnerPlayerID != nil && *r.WinnerPlayerID == player:
		return "win"
	case r.WinnerPlayerID == nil && r.Status == "DRAW":
		return "draw"
	}
	return "loss"
}
