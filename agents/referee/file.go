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

// transcript is the ordered record of a match's exchanges, without tokens,
// each message encoded once, as it goes into the match file.
type transcript struct {
	mu      sync.Mutex
	entries []protocol.TranscriptRecord
}

// add records a message we send, and gives it encoded, to be sent as the
// very bytes recorded.
func (t *transcript) add(from, to string, msg protocol.Message) protocol.Message {
	encoded, err := protocol.Encode(msg)
	if err != nil {
		return msg // not recorded, and the client's own encoding says why
	}
	content, messageType, ok := protocol.RedactEncoded(encoded.JSON, store.SecretKey)
	if !ok {
		content, messageType = withoutTokens(encoded.JSON)
	}
	t.record(from, to, content, messageType)
	return encoded
}

// addRaw records a message as JSON; no token reaches the file, whatever a
// peer calls it ("auth_token", "authToken", "token") and wherever it puts it.
func (t *transcript) addRaw(from, to string, raw json.RawMessage) {
	content, messageType := withoutTokens(raw)
	t.record(from, to, content, messageType)
}

// record appends an exchange whose content is already without tokens.
func (t *transcript) record(from, to string, content json.RawMessage, messageType string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	head := protocol.TranscriptHead{Seq: len(t.entries) + 1, Timestamp: protocol.FormatTime(time.Now()),
		MessageType: messageType, From: from, To: to}
	t.entries = append(t.entries, protocol.TranscriptRecord{TranscriptHead: head, Content: content})
}

// withoutTokens is raw, compact, without any token field at any depth,
// and its message_type. A message protocol.RedactMessage leaves alone (not
// an object, not valid UTF-8, a key with an escape) is decoded and
// encoded again: its content is then what encoding/json makes of it, and
// one that is not an object is kept as a string under "raw".
func withoutTokens(raw json.RawMessage) (content json.RawMessage, messageType string) {
	if content, messageType, ok := protocol.RedactMessage(raw, store.SecretKey); ok {
		return content, messageType
	}
	var decoded map[string]any
	if json.Unmarshal(raw, &decoded) != nil {
		decoded = map[string]any{"raw": string(raw)}
	}
	protocol.DeleteKeys(decoded, store.SecretKey)
	messageType, _ = decoded["message_type"].(string)
	content, err := json.Marshal(decoded)
	if err != nil {
		return json.RawMessage("null"), messageType
	}
	return content, messageType
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
	entries := append([]protocol.TranscriptRecord(nil), run.transcript.entries...)
	run.transcript.mu.Unlock()
	id, _ := run.r.Identity()
	doc := protocol.MatchFile{SchemaVersion: "1.0.0", MatchID: run.start.MatchID, LeagueID: run.r.Layout().LeagueID,
		RoundID: int(run.start.RoundID), GameType: run.game.Type(),
		Players:   map[string]string{"player_A": run.start.PlayerAID, "player_B": run.start.PlayerBID},
		RefereeID: id,
		Lifecycle: protocol.Lifecycle{State: string(run.match.State()), CreatedAt: protocol.FormatTime(run.createdAt),
			StartedAt: protocol.FormatTime(run.createdAt), FinishedAt: protocol.FormatTime(time.Now())},
		Result: run.result(o)}
	data, err := protocol.EncodeMatchFile(doc, entries)
	if err != nil {
		return err
	}
	return store.WriteFileAtomic(run.file, data)
}
