package player

import (
	"context"
	"errors"
	"fmt"
	"os"
	"slices"
	"time"

	"github.com/leaguetui/leaguetui/agents/node"
	"github.com/leaguetui/leaguetui/agents/protocol"
	"github.com/leaguetui/leaguetui/agents/store"
	"github.com/leaguetui/leaguetui/engine"
)

// History is players/<id>/history.json.
type History struct {
	SchemaVersion string         `json:"schema_version"`
	PlayerID      string         `json:"player_id"`
	Strategy      string         `json:"strategy"`
	Stats         Stats          `json:"stats"`
	Matches       []HistoryEntry `json:"matches"`
	LastUpdated   string         `json:"last_updated"`

	recorded map[string]int // match id -> index in Matches, so a resent GAME_OVER is found in O(1)
	saved    int            // matches the last requested write of history.json holds
}

// Stats sums a player's matches.
type Stats struct {
	TotalMatches int     `json:"total_matches"`
	Wins         int     `json:"wins"`
	Losses       int     `json:"losses"`
	Draws        int     `json:"draws"`
	WinRate      float64 `json:"win_rate"`
	// Model sums a model player's cost over its matches; nil for a
	// scripted strategy.
	Model *ModelCost `json:"model,omitempty"`
}

// HistoryEntry is one finished match from this player's side.
type HistoryEntry struct {
	MatchID        string         `json:"match_id"`
	LeagueID       string         `json:"league_id"`
	OpponentID     string         `json:"opponent_id"`
	Result         string         `json:"result"` // WIN, LOSS, DRAW, TECHNICAL_LOSS
	MyChoice       string         `json:"my_choice"`
	OpponentChoice string         `json:"opponent_choice"`
	Timestamp      string         `json:"timestamp"`
	Details        HistoryDetails `json:"details"`
	Model          *ModelCost     `json:"model,omitempty"` // a model player's cost and failures in this match
}

// HistoryDetails are the game's facts as GAME_OVER told them (even/odd:
// drawn_number, number_parity), and its reason.
type HistoryDetails = map[string]any

// record adds a GAME_OVER once; fresh is false for a resent one.
// opponent comes from the invitation: after a technical loss the choices
// may not name it.
func (h *History) record(self, opponent string, over protocol.GameOver) (entry HistoryEntry, fresh bool) {
	if i, ok := h.recorded[historyKey(over.LeagueID, over.MatchID)]; ok {
		return h.Matches[i], false
	}
	gr := over.GameResult
	entry = HistoryEntry{MatchID: over.MatchID, LeagueID: over.LeagueID, OpponentID: opponent, Result: resultFor(self, gr),
		MyChoice: gr.Choices[self], Timestamp: protocol.FormatTime(time.Now()),
		Details: HistoryDetails{"reason": gr.Reason}}
	for k, v := range gr.Details {
		if k != "reason" {
			entry.Details[k] = v
		}
	}
	for id, choice := range gr.Choices {
		if id != self {
			entry.OpponentID, entry.OpponentChoice = id, choice
		}
	}
	if h.recorded == nil {
		h.recorded = map[string]int{}
	}
	h.recorded[historyKey(entry.LeagueID, entry.MatchID)] = len(h.Matches)
	h.Matches = append(h.Matches, entry)
	h.count(entry.Result)
	h.LastUpdated = entry.Timestamp
	return entry, true
}

// setModelCost attaches a model player's cost to a freshly recorded match
// and adds it to the totals; a nil cost (a scripted strategy, or no move
// asked) changes nothing.
func (h *History) setModelCost(entry HistoryEntry, cost *ModelCost) {
	i, ok := h.recorded[historyKey(entry.LeagueID, entry.MatchID)]
	if cost == nil || !ok {
		return
	}
	h.Matches[i].Model = cost
	if h.Stats.Model == nil {
		h.Stats.Model = &ModelCost{}
	}
	h.Stats.Model.Merge(*cost)
}

// historyKey names a match in a history that spans leagues: match ids
// such as R1M1 come back in every league.
func historyKey(leagueID, matchID string) string { return leagueID + "/" + matchID }

// loadHistory reads the history a player kept before it (re)started, so
// that a restarted player goes on with its record instead of replacing it.
// A missing file gives an empty history.
func loadHistory(path, playerID, strategy string) (History, error) {
	h := History{SchemaVersion: "1.0.0", PlayerID: playerID, Strategy: strategy}
	var kept History
	if err := store.ReadJSON(path, &kept); err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return h, nil
		}
		return h, err
	}
	if kept.PlayerID != playerID {
		return h, fmt.Errorf("%s is the history of %q, not %q", path, kept.PlayerID, playerID)
	}
	kept.Strategy = strategy
	kept.recorded = make(map[string]int, len(kept.Matches))
	for i, e := range kept.Matches {
		kept.recorded[historyKey(e.LeagueID, e.MatchID)] = i
	}
	kept.saved = len(kept.Matches)
	return kept, nil
}

func resultFor(self string, gr protocol.GameResult) string {
	won := gr.WinnerPlayerID != nil && *gr.WinnerPlayerID == self
	switch engine.Status(gr.Status) {
	case engine.StatusDraw:
		return "DRAW"
	case engine.StatusTechnicalLoss:
		if won {
			return "WIN"
		}
		return "TECHNICAL_LOSS"
	}
	if won {
		return "WIN"
	}
	return "LOSS"
}

func (h *History) count(result string) {
	h.Stats.TotalMatches++
	switch result {
	case "WIN":
		h.Stats.Wins++
	case "DRAW":
		h.Stats.Draws++
	default:
		h.Stats.Losses++
	}
	h.Stats.WinRate = float64(h.Stats.Wins) / float64(h.Stats.TotalMatches)
}

// clone is the snapshot written to history.json.
func (h *History) clone() History {
	c := *h
	c.Matches = slices.Clone(h.Matches)
	c.recorded = nil
	return c
}

// historyEvery bounds how often history.json is rewritten while matches
// finish quickly.
const historyEvery = 500 * time.Millisecond

// unsavedShare is how far history.json may fall behind: it is rewritten
// once the matches missing from it are an eighth of those in it.
const unsavedShare = 8

// due reports whether enough matches are missing from history.json to
// rewrite it, and if so counts them as saved. A player plays once a round,
// so in a large league rounds are longer than any sensible interval and a
// bounded rate alone would still rewrite the whole file after every match:
// O(matches) per match. Waiting for an eighth more makes the sizes written
// grow geometrically, so all the rewrites together cost about nine times
// the final file: O(1) per match. Small histories (under 8 matches) are
// rewritten after every match, so a short league's file is always current.
func (h *History) due() bool {
	if len(h.Matches)-h.saved < max(1, h.saved/unsavedShare) {
		return false
	}
	h.saved = len(h.Matches)
	return true
}

// openHistory starts the writer of history.json. The file is rewritten
// whole (atomically, keeping its documented format) when due says so, at
// most every historyEvery, and at once when the league completes and when
// the player shuts down.
//
// The trade-off: a player that crashes loses from its history.json the
// matches not yet written, at most about an eighth of them. The league's
// record of those matches is not the player's file: the manager's journal
// and the referees' match files keep them. A player restarted in a league
// still under way gets GAME_OVER again for any match played again.
func (p *Player) openHistory(path string) *store.Coalescer {
	snapshot := func() any {
		p.mu.Lock()
		defer p.mu.Unlock()
		return p.history.clone()
	}
	return store.NewCoalescer(path, historyEvery, store.IndentedJSON(snapshot), func(err error) {
		p.Log.Error("cannot write history", "event_type", "DATA_WRITE_FAILED", "err", err)
	})
}

// flushHistory writes history.json now if the player has registered.
func (p *Player) flushHistory() {
	p.mu.Lock()
	file := p.historyFile
	p.mu.Unlock()
	if file != nil {
		file.Flush()
	}
}

// Shutdown ends the player (node.Agent): it stops serving, then writes
// what history.json still lacks and closes it, so that a GAME_OVER
// answered before the end is in the file.
func (p *Player) Shutdown(ctx context.Context) error {
	return p.Stop(ctx, node.Stopping{Close: p.closeHistory})
}

// closeHistory writes history.json a last time, if the player registered.
func (p *Player) closeHistory() error {
	p.mu.Lock()
	file := p.historyFile
	p.mu.Unlock()
	if file != nil {
		file.Close()
	}
	return nil
}
