package launcher

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"

	"github.com/leaguetui/leaguetui/agents/player"
	"github.com/leaguetui/leaguetui/agents/store"
	"github.com/leaguetui/leaguetui/engine"
)

// removeCutWrites removes the temporary files of writes a crash cut
// short, before any agent starts: holding the data folder's lock, we are
// then the only writer, and a live writer's temporary file would go too.
func removeCutWrites(layout store.Layout) error {
	if _, err := os.Stat(layout.Journal()); errors.Is(err, os.ErrNotExist) {
		return nil // a new league
	}
	return store.RemoveTempFiles(layout.Root)
}

// rebuildDerived makes the players' histories of a league agree with its
// journal before any player starts: they are derived data, which a crash
// or a full disk may have left behind or ahead of the journal, and the
// players' strategies learn from them. The manager writes no history, so
// it may run meanwhile. It rebuilds its own derived files (standings.json,
// rounds.json) from the journal when it starts; each match file is written
// by its referee before the result is reported, so every journaled result
// has one. A history the journal agrees with is not written.
func rebuildDerived(layout store.Layout, strategyOf func(id string) string) error {
	if _, err := os.Stat(layout.Journal()); errors.Is(err, os.ErrNotExist) {
		return nil // a new league
	}
	var results []engine.Event
	_, err := store.NewJournalReader(layout.Journal()).Read(1, math.MaxInt64, func(raw json.RawMessage) error {
		var ev engine.Event
		if err := json.Unmarshal(raw, &ev); err != nil {
			return err
		}
		if ev.Kind == engine.EventMatchResult {
			results = append(results, ev)
		}
		return nil
	})
	if err == nil {
		err = player.RebuildHistories(layout, results, strategyOf)
	}
	if err != nil {
		return fmt.Errorf("cannot rebuild the players' histories from the journal %s: %w", layout.Journal(), err)
	}
	return nil
}
