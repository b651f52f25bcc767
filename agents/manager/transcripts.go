package manager

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"net/url"
	"os"
	"strings"

	"github.com/leaguetui/leaguetui/agents/protocol"
	"github.com/leaguetui/leaguetui/agents/store"
)

// Transcripts across hosts. A referee writes a match's file in its own data
// folder before it reports the result. Where the manager shares that
// folder (one machine), the file is the manager's already and nothing more
// happens. Where each agent keeps its own (a league across machines, a
// container deployment), the manager fetches the file from the referee that
// reported the match, once the result is durable, and keeps it in its own
// folder: GET /matches/{id}, the console and reports then show every played
// match, even after that referee has gone.

// transcriptFetches bounds the fetches in flight, so that a round's results
// arriving together cost a few connections, not one each.
const transcriptFetches = 4

// fetchTranscriptSoon fetches a reported match's file in the background,
// when the manager does not have it.
func (m *Manager) fetchTranscriptSoon(matchID string) {
	path, err := m.Layout().Match(matchID)
	if err != nil || fileExists(path) {
		return // one folder for all: the referee's file is ours already
	}
	m.fetching.Add(1)
	go func() {
		defer m.fetching.Done()
		select {
		case m.transcriptSlots <- struct{}{}:
		case <-m.Lifetime().Done():
			return
		}
		defer func() { <-m.transcriptSlots }()
		if err := m.collectTranscript(m.Lifetime(), matchID); err != nil {
			m.Log.Warn("transcript not fetched", "event_type", "TRANSCRIPT_FETCH_FAILED", "match_id", matchID, "err", err)
		}
	}()
}

// collectTranscript makes sure the manager holds the file of a match that
// has a result: nil when it has it already, or when the match has no
// result to show (still to play, running, or abandoned).
func (m *Manager) collectTranscript(ctx context.Context, matchID string) error {
	path, err := m.Layout().Match(matchID)
	if err != nil || fileExists(path) {
		return err
	}
	m.mu.Lock()
	rec, ok := m.league.Match(matchID)
	referee, known := m.league.Agent(rec.Referee)
	m.mu.Unlock()
	if !ok || rec.Result == nil {
		return nil
	}
	if !known {
		return fmt.Errorf("match %s: its referee %q is not registered", matchID, rec.Referee)
	}
	data, err := m.fetchMatchFile(ctx, referee.Endpoint, matchID)
	if err != nil {
		return fmt.Errorf("match %s from referee %s: %w", matchID, referee.ID, err)
	}
	if err := m.checkFetchedFile(data, matchID, referee.ID); err != nil {
		return fmt.Errorf("match %s from referee %s: %w", matchID, referee.ID, err)
	}
	return store.WriteFileAtomic(path, data)
}

// fetchMatchFile is GET /matches/{id} of the referee at endpoint (its
// /mcp URL), at most protocol.MaxMatchFile bytes, within the league's
// generic timeout.
func (m *Manager) fetchMatchFile(ctx context.Context, endpoint, matchID string) ([]byte, error) {
	ctx, cancel := context.WithTimeout(ctx, m.opts.Config.Timeouts.Generic)
	defer cancel()
	base := strings.TrimSuffix(strings.TrimSuffix(endpoint, "/"), "/mcp")
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, base+"/matches/"+url.PathEscape(matchID), nil)
	if err != nil {
		return nil, err
	}
	resp, err := m.transcripts.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("HTTP %d", resp.StatusCode)
	}
	data, err := io.ReadAll(io.LimitReader(resp.Body, protocol.MaxMatchFile+1))
	if err == nil && len(data) > protocol.MaxMatchFile {
		err = fmt.Errorf("larger than the %d bytes a match file may be", protocol.MaxMatchFile)
	}
	return data, err
}

// checkFetchedFile holds a fetched file to the match it was asked for: the
// match, the league and the referee that reported it. The referee is
// trusted with the result, which the journal already holds; the file only
// shows how the match went.
func (m *Manager) checkFetchedFile(data []byte, matchID, refereeID string) error {
	var head struct {
		MatchID   string `json:"match_id"`
		LeagueID  string `json:"league_id"`
		RefereeID string `json:"referee_id"`
	}
	if err := json.Unmarshal(data, &head); err != nil {
		return fmt.Errorf("not a match file: %w", err)
	}
	if head.MatchID != matchID || head.LeagueID != m.Layout().LeagueID || head.RefereeID != refereeID {
		return fmt.Errorf("the file is of match %q of league %q by %q", head.MatchID, head.LeagueID, head.RefereeID)
	}
	return nil
}

func fileExists(path string) bool {
	_, err := os.Stat(path)
	return !errors.Is(err, fs.ErrNotExist)
}
