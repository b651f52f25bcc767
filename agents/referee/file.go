package referee

import (
	"context"
	"encoding/json"
	"sync"
	"time"

	"github.com/leaguetui/leaguetui/agents/protocol"
	"github.com/leaguetui/leaguetui/agents/retry"
	"github.com/leaguetui/leaguetui/agents/store"
	"github.com/leaguetui/leaguetui/engine"
)

// transcript is the ordered record of a match's exchanges, without tokens.
type transcript struct {
	mu      sync.Mutex
	entries []protocol.TranscriptEntry
}

func (t *transcript) add(from, to string, msg any) {
	raw, err := json.Marshal(msg)
	if err == nil {
		t.addRaw(from, to, raw)
	}
}

// addRaw records a message as JSON; no token reaches the file, whatever a
// peer calls it ("auth_token", "authToken", "token") and wherever it puts it.
func (t *transcript) addRaw(from, to string, raw json.RawMessage) {
	var content map[string]any
	if json.Unmarshal(raw, &content) != nil {
		content = map[string]any{"raw": string(raw)}
	}
	withoutTokens(content)
	messageType, _ := content["message_type"].(string)
	t.mu.Lock()
	defer t.mu.Unlock()
	t.entries = append(t.entries, protocol.TranscriptEntry{Seq: len(t.entries) + 1, Timestamp: protocol.FormatTime(time.Now()),
		MessageType: messageType, From: from, To: to, Content: content})
}

// withoutTokens deletes every token field of a decoded JSON value, at any
// depth.
func withoutTokens(v any) {
	switch v := v.(type) {
	case map[string]any:
		for k, inner := range v {
			if store.SecretKey(k) {
				delete(v, k)
				continue
			}
			withoutTokens(inner)
		}
	case []any:
		for _, inner := range v {
			withoutTokens(inner)
		}
	}
}

func (run *matchRun) result(o engine.Outcome) protocol.MatchResult {
	scoring := engine.Scoring(run.r.opts.Config.Scoring)
	players := run.match.Players()
	points := scoring.Points(engine.Result{MatchID: run.start.MatchID, PlayerA: players[0], PlayerB: players[1],
		Status: o.Status, Winner: o.Winner, Offenders: o.Offenders})
	return protocol.MatchResult{GameResult: gameResult(o), Score: points, Offenders: o.Offenders}
}

// saveDurably writes the match file before the result is reported: a
// result the manager journals always has its match file. A write that
// fails (a full disk) is tried again until the report's deadline; if it
// still fails, the result is withheld and the manager gives the match to a
// referee again once its deadline passes.
func (run *matchRun) saveDurably(ctx context.Context, o engine.Outcome) error {
	cfg := run.r.opts.Config
	policy := retry.Policy{Until: time.Now().Add(cfg.Timeouts.Report), Delay: cfg.Retry.Delay}
	return retry.Do(ctx, policy, func(attempt int) error {
		err := run.save(o)
		if err != nil {
			run.r.Log.Error("cannot write match file", "event_type", "DATA_WRITE_FAILED", "match_id", run.start.MatchID,
				"path", run.file, "attempt", attempt, "err", err)
		}
		return err
	})
}

// save writes the match file.
func (run *matchRun) save(o engine.Outcome) error {
	run.transcript.mu.Lock()
	entries := append([]protocol.TranscriptEntry(nil), run.transcript.entries...)
	run.transcript.mu.Unlock()
	id, _ := run.r.Identity()
	doc := protocol.MatchFile{SchemaVersion: "1.0.0", MatchID: run.start.MatchID, LeagueID: run.r.Layout.LeagueID,
		RoundID: int(run.start.RoundID), GameType: run.game.Type(),
		Players:   map[string]string{"player_A": run.start.PlayerAID, "player_B": run.start.PlayerBID},
		RefereeID: id,
		Lifecycle: protocol.Lifecycle{State: string(run.match.State()), CreatedAt: protocol.FormatTime(run.createdAt),
			StartedAt: protocol.FormatTime(run.createdAt), FinishedAt: protocol.FormatTime(time.Now())},
		Transcript: entries, Result: run.result(o)}
	return store.WriteJSON(run.file, doc)
}
