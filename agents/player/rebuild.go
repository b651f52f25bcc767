package player

import (
	"cmp"
	"errors"
	"fmt"
	"os"
	"slices"

	"github.com/leaguetui/leaguetui/agents/protocol"
	"github.com/leaguetui/leaguetui/agents/store"
	"github.com/leaguetui/leaguetui/engine"
)

// RebuildHistories makes every player's history.json hold, for the league
// of layout, exactly the results its journal holds (results, the match
// facts of each), in journal order; other leagues' entries are kept.
//
// A history is derived data: a player writes it at a bounded rate, so a
// crash or a full disk can leave it short of the journal, or holding a
// match whose result the manager never acknowledged (the match is played
// again). Its strategy learns from it when it restarts, so a history that
// differs from the journal would make the resumed league differ from an
// uninterrupted one. The owner of the data folder calls this before it
// starts the players of a resumed league, and on a league that completed
// before the players could write their last matches.
//
// A history that already holds exactly the journal's matches is not
// written. One the player never wrote gets the strategy strategyOf names
// for its id ("" when it cannot say), as the player would have written it.
func RebuildHistories(layout store.Layout, results []engine.Event, strategyOf func(id string) string) error {
	byPlayer := map[string][]engine.Event{}
	var order []string
	for _, ev := range results {
		if ev.Kind != engine.EventMatchResult || ev.Result == nil {
			continue
		}
		for _, id := range []string{ev.Result.PlayerA, ev.Result.PlayerB} {
			if _, seen := byPlayer[id]; !seen {
				order = append(order, id)
			}
			byPlayer[id] = append(byPlayer[id], ev)
		}
	}
	for _, id := range order {
		path, err := layout.PlayerHistory(id) // checks the id: the journal's, but a path all the same
		if err != nil {
			return fmt.Errorf("journal names player %q: %w", id, err)
		}
		if err := rebuildHistory(path, layout.LeagueID, id, strategyOf(id), byPlayer[id]); err != nil {
			return err
		}
	}
	return nil
}

func rebuildHistory(path, leagueID, id, strategy string, results []engine.Event) error {
	var kept History
	if err := store.ReadJSON(path, &kept); err != nil && !errors.Is(err, os.ErrNotExist) {
		kept = History{} // unreadable: the journal's entries are all it can be sure of
	}
	h := History{SchemaVersion: "1.0.0", PlayerID: id, Strategy: cmp.Or(kept.Strategy, strategy), Matches: []HistoryEntry{}}
	stamps := map[string]string{}
	for _, e := range kept.Matches {
		if e.LeagueID == leagueID {
			stamps[e.MatchID] = e.Timestamp
			continue
		}
		h.Matches = append(h.Matches, e)
		h.count(e.Result)
	}
	h.recorded = map[string]int{}
	for i, e := range h.Matches {
		h.recorded[historyKey(e.LeagueID, e.MatchID)] = i
	}
	for _, ev := range results {
		entry, _ := h.record(id, opponentIn(*ev.Result, id), gameOverOf(leagueID, ev))
		if stamp := stamps[entry.MatchID]; stamp != "" {
			h.Matches[len(h.Matches)-1].Timestamp = stamp // when the player learned it, as it wrote then
		} else {
			h.Matches[len(h.Matches)-1].Timestamp = protocol.FormatTime(ev.Time)
		}
	}
	if n := len(h.Matches); n > 0 {
		h.LastUpdated = h.Matches[n-1].Timestamp
	}
	if sameMatches(kept, h) {
		return nil // nothing to repair: a folder that is right is not written
	}
	if err := store.WriteJSON(path, h.clone()); err != nil {
		return fmt.Errorf("rebuild the history of %s: %w", id, err)
	}
	return nil
}

// gameOverOf is the GAME_OVER a player got for a journaled result.
func gameOverOf(leagueID string, ev engine.Event) protocol.GameOver {
	r := ev.Result
	over := protocol.GameOver{GameResult: protocol.GameResult{Status: string(r.Status)}}
	over.LeagueID, over.MatchID = leagueID, r.MatchID
	if r.Winner != "" {
		w := r.Winner
		over.GameResult.WinnerPlayerID = &w
	}
	if f := ev.Facts; f != nil {
		over.GameResult.Choices, over.GameResult.Details, over.GameResult.Reason = f.Moves, f.Details, f.Reason
	}
	return over
}

func opponentIn(r engine.Result, id string) string {
	if r.PlayerA == id {
		return r.PlayerB
	}
	return r.PlayerA
}

// sameMatches says two histories of a player hold the same matches with
// the same results and moves, in the same order, and the same strategy.
func sameMatches(a, b History) bool {
	same := func(x, y HistoryEntry) bool {
		return x.LeagueID == y.LeagueID && x.MatchID == y.MatchID && x.OpponentID == y.OpponentID &&
			x.Result == y.Result && x.MyChoice == y.MyChoice && x.OpponentChoice == y.OpponentChoice
	}
	return a.PlayerID == b.PlayerID && a.Strategy == b.Strategy && slices.EqualFunc(a.Matches, b.Matches, same)
}
