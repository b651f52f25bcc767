package manager

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/leaguetui/leaguetui/agents/protocol"
	"github.com/leaguetui/leaguetui/agents/store"
	"github.com/leaguetui/leaguetui/engine"
)

// abandonReason is what an abandoned match's file says of its result.
const abandonReason = "the league was stopped before this match's result was recorded: it was not played as far as the league is concerned and counts for no one"

// A stopped league abandons the matches that have no result: the journal,
// the standings and the feed count none of them. Their referees may have
// written their files all the same (a referee writes a match's file before
// it reports the result, and the report is refused after the stop), so the
// manager rewrites those files as abandoned (protocol.AbandonMatchFile):
// when the league is stopped (the matches running then), when a report
// comes too late (its referee has just written the file), and when it
// starts on a stopped league's journal (a file written after it went
// down). GET /matches/{id} serves such a match as abandoned whatever its
// file says, so that none is ever served as played.

// isAbandoned says a match is one the stopped league abandoned. Call
// with m.mu held.
func (m *Manager) isAbandoned(matchID string) bool {
	rec, ok := m.league.Match(matchID)
	return ok && m.league.State == engine.LeagueStopped && rec.Result == nil
}

// abandonFiles rewrites as abandoned the files of those of the matches
// that the stopped league abandoned and that have a file saying otherwise.
func (m *Manager) abandonFiles(matchIDs []string) {
	for _, id := range matchIDs {
		m.mu.Lock()
		abandoned := m.isAbandoned(id)
		m.mu.Unlock()
		if !abandoned {
			continue
		}
		path, data, err := m.readMatchFile(id)
		if errors.Is(err, fs.ErrNotExist) || (err == nil && protocol.IsAbandonedMatchFile(data)) {
			continue
		}
		if err == nil {
			data, err = protocol.AbandonMatchFile(data, abandonReason)
		}
		if err == nil {
			err = store.WriteFileAtomic(path, data)
		}
		if err != nil {
			m.Log.Error("cannot mark an abandoned match's file", "event_type", "DATA_WRITE_FAILED", "match_id", id, "err", err)
			continue
		}
		m.Log.Info("match file marked abandoned", "event_type", "MATCH_ABANDONED", "match_id", id)
	}
}

// abandonLeftFiles marks every match file of a stopped league whose match
// has no result: what a referee wrote after the manager went down.
func (m *Manager) abandonLeftFiles() {
	paths, err := filepath.Glob(filepath.Join(m.Layout().MatchesDir(), "*.json"))
	if err != nil {
		return
	}
	ids := make([]string, len(paths))
	for i, p := range paths {
		ids[i] = strings.TrimSuffix(filepath.Base(p), ".json")
	}
	m.abandonFiles(ids)
}

// readMatchFile reads a scheduled match's file, at most protocol.MaxMatchFile bytes
// of it (a longer one is an error: it is no file our referees write).
func (m *Manager) readMatchFile(matchID string) (string, []byte, error) {
	path, err := m.Layout().Match(matchID)
	if err != nil {
		return "", nil, err
	}
	f, err := os.Open(path)
	if err != nil {
		return path, nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, protocol.MaxMatchFile+1))
	if err == nil && len(data) > protocol.MaxMatchFile {
		err = fmt.Errorf("%s is larger than the %d bytes a match file may be", path, protocol.MaxMatchFile)
	}
	return path, data, err
}
