package player

import (
	"context"
	"errors"
	"fmt"
	"io"
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
	key := historyKey(over.LeagueID, over.MatchID)
	if i, ok := h.recorded[key]; ok {
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
	h.recorded[key] = len(h.Matches)
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
// finish quickly. Nothing reads the file while the league runs (the player
// itself reads it when it starts, and a resumed league rebuilds it from the
// journal), and LEAGUE_COMPLETED and shutdown write it at once, so the
// lag costs nothing; each rewrite costs a file creation and two fsyncs,
// which were most of what the file cost a player in the bench at 500 ms.
const historyEvery = 2 * time.Second

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

// since is what history.json needs of h after a write that held its first
// n matches: its head (every field but the matches; null says the
// history has no matches slice at all) and the matches from n on. A
// history that holds fewer than n matches (one loaded anew) gives all of
// them, from 0.
func (h *History) since(n int) (head History, null bool, from int, fresh []HistoryEntry) {
	if n > len(h.Matches) {
		n = 0
	}
	head = *h
	head.Matches, head.recorded = nil, nil
	return head, h.Matches == nil, n, slices.Clone(h.Matches[n:])
}

// historyJSON writes history.json byte for byte as json.MarshalIndent
// (two-space indent) would, but encodes each match once: a recorded match
// never changes, so a rewrite encodes the head (the stats change) and the
// matches since the last write, and copies the others' bytes. Rewriting
// the whole growing history through encoding/json took 8% of a player's
// CPU in the bench. Only the Coalescer's goroutine uses it.
type historyJSON struct {
	matches []byte // the array's content so far, as it stands in the file
	count   int    // matches in it
}

func (e *historyJSON) write(w io.Writer, head History, null bool, from int, fresh []HistoryEntry) error {
	if from < e.count {
		e.matches, e.count = e.matches[:0], 0
	}
	for _, m := range fresh {
		data, err := protocol.MarshalIndent(m, "    ", "  ")
		if err != nil {
			return fmt.Errorf("encode: %w", err)
		}
		if e.count > 0 {
			e.matches = append(e.matches, ',')
		}
		e.matches = append(append(e.matches, "\n    "...), data...)
		e.count++
	}
	data, err := protocol.MarshalIndent(head, "", "  ")
	if err != nil {
		return fmt.Errorf("encode: %w", err)
	}
	before, after, err := protocol.NullFieldSlot(data, "matches")
	if err != nil {
		return fmt.Errorf("encode: %w", err)
	}
	var pieces [][]byte
	switch {
	case null && e.count == 0:
		pieces = [][]byte{[]byte("null")}
	case e.count == 0:
		pieces = [][]byte{[]byte("[]")}
	default:
		pieces = [][]byte{[]byte("["), e.matches, []byte("\n  ]")}
	}
	pieces = slices.Concat([][]byte{before}, pieces, [][]byte{after, []byte("\n")})
	for _, piece := range pieces {
		if _, err := w.Write(piece); err != nil {
			return err
		}
	}
	return nil
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
	var file historyJSON
	encode := func(w io.Writer) error {
		p.mu.Lock()
		head, null, from, fresh := p.history.since(file.count)
		p.mu.Unlock()
		return file.write(w, head, null, from, fresh)
	}
	return store.NewCoalescer(path, historyEvery, encode, func(err error) {
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
