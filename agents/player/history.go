package player

import (
	"slices"
	"time"

	"github.com/leaguetui/leaguetui/agents/protocol"
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
}

// Stats sums a player's matches.
type Stats struct {
	TotalMatches int     `json:"total_matches"`
	Wins         int     `json:"wins"`
	Losses       int     `json:"losses"`
	Draws        int     `json:"draws"`
	WinRate      float64 `json:"win_rate"`
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
}

// HistoryDetails are the game's facts as GAME_OVER told them.
type HistoryDetails struct {
	DrawnNumber  any    `json:"drawn_number"`
	NumberParity string `json:"number_parity"`
	Reason       string `json:"reason"`
}

// record adds a GAME_OVER once; fresh is false for a resent one.
// opponent comes from the invitation: after a technical loss the choices
// may not name it.
func (h *History) record(self, opponent string, over protocol.GameOver) (entry HistoryEntry, fresh bool) {
	if i := slices.IndexFunc(h.Matches, func(e HistoryEntry) bool { return e.MatchID == over.MatchID }); i >= 0 {
		return h.Matches[i], false
	}
	gr := over.GameResult
	entry = HistoryEntry{MatchID: over.MatchID, LeagueID: over.LeagueID, OpponentID: opponent, Result: resultFor(self, gr),
		MyChoice: gr.Choices[self], Timestamp: protocol.FormatTime(time.Now()),
		Details: HistoryDetails{DrawnNumber: gr.Details["drawn_number"], Reason: gr.Reason}}
	entry.Details.NumberParity, _ = gr.Details["number_parity"].(string)
	for id, choice := range gr.Choices {
		if id != self {
			entry.OpponentID, entry.OpponentChoice = id, choice
		}
	}
	h.Matches = append(h.Matches, entry)
	h.count(entry.Result)
	h.LastUpdated = entry.Timestamp
	return entry, true
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

func (h *History) clone() History {
	c := *h
	c.Matches = slices.Clone(h.Matches)
	return c
}
