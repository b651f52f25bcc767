package protocol

import (
	"bytes"
	"fmt"

	"github.com/segmentio/encoding/json"

	"github.com/leaguetui/leaguetui/agents/protocol/internal/wirejson"
	"github.com/leaguetui/leaguetui/engine"
)

// The documents agents serve over plain HTTP and write to the data folder.
// The agent that writes one and every process that reads it (the console,
// --no-ui, the bench, tests, other implementations' tools) share these
// declarations, so a field renamed here is renamed for all of them.

// StandingsFile is the manager's standings.json, also served on GET /standings.
type StandingsFile struct {
	SchemaVersion   string             `json:"schema_version"`
	LeagueID        string             `json:"league_id"`
	Version         int64              `json:"version"`
	State           engine.LeagueState `json:"state"`
	GameType        string             `json:"game_type,omitempty"`
	Seed            int64              `json:"seed"`
	RoundsCompleted int                `json:"rounds_completed"`
	RoundsTotal     int                `json:"rounds_total"`
	MatchesDone     int                `json:"matches_done"`
	MatchesTotal    int                `json:"matches_total"`
	Standings       []StandingRow      `json:"standings"`
	Ratings         *RatingsDoc        `json:"ratings,omitempty"`
	SPRT            *engine.SPRTStatus `json:"sprt,omitempty"` // an --sprt gauntlet's test so far
	// Separation is an --until-separated league's separating matches and
	// its adjacent pairs still unsure.
	Separation  *engine.SeparationStatus `json:"separation,omitempty"`
	LastUpdated string                   `json:"last_updated"`
}

// RatingsDoc is the standings document's ratings: a Bradley–Terry fit of
// every result so far (matches_fitted of them; the fit is refreshed at a
// bounded rate, so it may lag matches_done while a league plays).
type RatingsDoc struct {
	Model           string      `json:"model"`
	Interval        string      `json:"interval"`
	TechnicalLosses string      `json:"technical_losses"` // "loss" or "excluded"
	Games           int         `json:"games"`            // games the fit counted
	MatchesFitted   int         `json:"matches_fitted"`
	Prior           bool        `json:"prior"` // virtual draws were needed for finite ratings
	Players         []RatingRow `json:"players"`
	// SeatAdvantage is the first seat's fitted advantage (engine.Ratings'
	// Seat); absent when it has no finite value.
	SeatAdvantage *SeatAdvantage `json:"seat_advantage,omitempty"`
}

// SeatAdvantage is how much stronger the first seat plays, in Elo, its
// 95 % interval elo ± ci95, and the games it rests on.
type SeatAdvantage struct {
	Elo   float64 `json:"elo"`
	CI95  float64 `json:"ci95"`
	Games int     `json:"games"`
}

// RatingRow is one player's rating, in the order of the standings.
type RatingRow struct {
	PlayerID string   `json:"player_id"`
	Elo      float64  `json:"elo"`
	CI95     float64  `json:"ci95"` // the 95 % interval is elo ± ci95
	Games    int      `json:"games"`
	Rated    bool     `json:"rated"`              // false without a counted game
	LOSNext  *float64 `json:"los_next,omitempty"` // likelihood of superiority over the next player in the table
	// RankInterval is the best and worst rank the fit allows the player,
	// [lowest, highest] (engine.RankIntervals); TieGroup numbers the
	// players whose rank intervals overlap, 1 from the top.
	RankInterval *[2]int `json:"rank_interval,omitempty"`
	TieGroup     int     `json:"tie_group,omitempty"`
}

// LOSDoc is GET /los?player=ID: the player's likelihood of superiority over
// each other rated player, in the table's order.
type LOSDoc struct {
	PlayerID      string   `json:"player_id"`
	MatchesFitted int      `json:"matches_fitted"`
	Versus        []LOSRow `json:"versus"`
}

// LOSRow is the player against one other.
type LOSRow struct {
	PlayerID string  `json:"player_id"`
	EloDiff  float64 `json:"elo_diff"`
	SE       float64 `json:"se"` // standard error of elo_diff
	LOS      float64 `json:"los"`
}

// FeedPage is one answer of GET /events: the events after a cursor and the
// cursor to ask with next.
type FeedPage struct {
	Events  []engine.Event     `json:"events"`
	LastSeq int64              `json:"last_seq"`
	State   engine.LeagueState `json:"state"`
	// StorageFailure, once the manager could not write its journal, says
	// which path failed and why. The league is paused: every event served
	// was journaled, and nothing after the failure is taken. It is not an
	// event: an event not journaled has no sequence number.
	StorageFailure string `json:"storage_failure,omitempty"`
}

// Health is what every agent answers on GET /health.
type Health struct {
	ID          string `json:"id"`
	Role        Role   `json:"role"`
	DisplayName string `json:"display_name"`
	State       string `json:"state"` // one of the State constants
	LeagueID    string `json:"league_id"`
	Endpoint    string `json:"endpoint"`
	Served      int64  `json:"requests_served"`
	Turns       int64  `json:"turns_played,omitempty"` // referees: the turns of matches begun, for the bench
	// Tools are the MCP tools the agent offers, so the console can show them
	// without an MCP session; empty for agents that do not say.
	Tools []string `json:"tools,omitempty"`
	// FileWrites and BytesWritten count the process's writes to the data
	// folder, so the cost of a league event can be measured.
	FileWrites   int64 `json:"file_writes"`
	BytesWritten int64 `json:"bytes_written"`
	// OpenReferees: this manager admits any referee, without a key.
	OpenReferees bool `json:"open_referees,omitempty"`
	// Model is a model player's cost so far: tokens, latency, failures; nil
	// for other agents.
	Model *ModelCost `json:"model,omitempty"`
}

// RoundsFile is the manager's rounds.json.
type RoundsFile struct {
	SchemaVersion string       `json:"schema_version"`
	LeagueID      string       `json:"league_id"`
	Rounds        []RoundEntry `json:"rounds"`
	LastUpdated   string       `json:"last_updated"`
}

// RoundEntry is one round of rounds.json.
type RoundEntry struct {
	RoundID int          `json:"round_id"`
	Status  string       `json:"status"` // PENDING, IN_PROGRESS, COMPLETED
	Matches []MatchEntry `json:"matches"`
}

// MatchEntry is one match of rounds.json.
type MatchEntry struct {
	MatchID   string  `json:"match_id"`
	PlayerAID string  `json:"player_A_id"`
	PlayerBID string  `json:"player_B_id"`
	RefereeID string  `json:"referee_id,omitempty"`
	Result    string  `json:"result,omitempty"` // WIN, DRAW, TECHNICAL_LOSS
	Winner    *string `json:"winner"`
}

// LeagueInfoFile is the manager's league.json: what was played, with what
// seed, by whom.
type LeagueInfoFile struct {
	SchemaVersion string             `json:"schema_version"`
	LeagueID      string             `json:"league_id"`
	GameType      string             `json:"game_type"`
	Seed          int64              `json:"seed"`
	Players       []engine.AgentInfo `json:"players"`
	Referees      []engine.AgentInfo `json:"referees"`
	LastUpdated   string             `json:"last_updated"`
}

// MaxMatchFile bounds a match file read or served: a transcript of a long
// game is a few hundred kilobytes.
const MaxMatchFile = 8 << 20

// MatchFile is the referee's matches/<league>/<match_id>.json, also served
// by the manager on GET /matches/{id}.
type MatchFile struct {
	SchemaVersion string            `json:"schema_version"`
	MatchID       string            `json:"match_id"`
	LeagueID      string            `json:"league_id"`
	RoundID       int               `json:"round_id"`
	GameType      string            `json:"game_type"`
	Players       map[string]string `json:"players"` // player_A and player_B
	RefereeID     string            `json:"referee_id"`
	Lifecycle     Lifecycle         `json:"lifecycle"`
	Transcript    []TranscriptEntry `json:"transcript"`
	Result        MatchResult       `json:"result"`
}

// Lifecycle is when the match moved through its states.
type Lifecycle struct {
	State      string `json:"state"`
	CreatedAt  string `json:"created_at"`
	StartedAt  string `json:"started_at"`
	FinishedAt string `json:"finished_at"`
}

// TranscriptEntry is one exchange of a match, as the referee recorded it
// (without tokens).
type TranscriptEntry struct {
	TranscriptHead
	Content map[string]any `json:"content"`
}

// View is the game's drawing of what the asked seat sees, as a move call
// carries it (move_request.context.text, a game program's board), or ""
// when the entry carries none. It comes from the game: a terminal or a
// page shows it only made printable, a line at a time.
func (e TranscriptEntry) View() string {
	request, _ := e.Content["move_request"].(map[string]any)
	context, _ := request["context"].(map[string]any)
	view, _ := context["text"].(string)
	return view
}

// TranscriptHead is what a transcript says of an exchange besides its
// content: the one declaration of those fields, for the entries a reader
// decodes and the records a referee writes.
type TranscriptHead struct {
	Seq         int    `json:"seq"`
	Timestamp   string `json:"timestamp"`
	MessageType string `json:"message_type"`
	From        string `json:"from"`
	To          string `json:"to"`
}

// MatchResult is GAME_OVER's game_result plus the points each player got.
type MatchResult struct {
	GameResult
	Score     map[string]int `json:"score"`
	Offenders []string       `json:"offending_players,omitempty"`
}

// MarshalJSON keeps the game's details flat, as GAME_OVER has them, in
// the bytes of a map[string]any (see appendMatchResult).
func (r MatchResult) MarshalJSON() ([]byte, error) {
	if out, ok := appendMatchResult(make([]byte, 0, 256), r); ok {
		return out, nil
	}
	return r.marshalThroughMap()
}

// UnmarshalJSON reads what MarshalJSON writes: the game's details stay in
// Details, the score and the offenders in their own fields.
func (r *MatchResult) UnmarshalJSON(data []byte) error {
	if err := Unmarshal(data, &r.GameResult); err != nil {
		return err
	}
	var own struct {
		Score     map[string]int `json:"score"`
		Offenders []string       `json:"offending_players"`
	}
	if err := Unmarshal(data, &own); err != nil {
		return err
	}
	r.Score, r.Offenders = own.Score, own.Offenders
	delete(r.Details, "score")
	delete(r.Details, "offending_players")
	if len(r.Details) == 0 {
		r.Details = nil
	}
	return nil
}

const (
	// FileSchemaVersion is the schema_version of every data file we write.
	FileSchemaVersion = "1.0.0"

	// How the ratings are made, as RatingsDoc.Model and .Interval say.
	RatingsModel    = "bradley-terry ML, Elo scale, draws count half, mean 0"
	RatingsInterval = "95% from the fitted model's standard errors"

	// Agent states that GET /health reports.
	StateInit       = "INIT"
	StateRegistered = "REGISTERED"
	StateActive     = "ACTIVE"
	StateSuspended  = "SUSPENDED"
	StateShutdown   = "SHUTDOWN"
)

// TranscriptRecord is a TranscriptEntry as its referee keeps it: the
// content encoded once, as it goes into the file, tokens already gone.
// EncodeMatchFile splices the content in; encoding a record on its own
// leaves it out.
type TranscriptRecord struct {
	TranscriptHead
	Content json.RawMessage `json:"-"` // a compact JSON value
}

// NullFieldSlot splits indented, an object encoded by json.MarshalIndent
// with the indent "  ", around the null value of its top-level field:
// indented is before + "null" + after. Writers of a file whose largest
// part is encoded apart (a match's transcript, a player's matches) encode
// the rest with that field nil and put the part in its place.
func NullFieldSlot(indented []byte, field string) (before, after []byte, err error) {
	return wirejson.NullFieldSlot(indented, field)
}

// RedactMessage copies the JSON object raw in one pass, without white
// space and without every member, at any depth, whose key drop names (a
// token, wherever a peer puts it), for a transcript, and returns the copy
// with the object's top-level "message_type" when it is a string. ok is
// false, and the caller decodes with encoding/json and uses DeleteKeys
// instead, for anything that is not a valid object of valid UTF-8 and for
// a key encoding/json would read otherwise (see wirejson.Redact). drop
// must not keep the key it is handed beyond its call.
func RedactMessage(raw []byte, drop func(key string) bool) (content []byte, messageType string, ok bool) {
	return wirejson.Redact(raw, drop, "message_type")
}

// RedactEncoded is RedactMessage for a message json.Marshal (or Encode)
// wrote: valid compact JSON, read without checking it again. ok is false,
// and the caller uses RedactMessage, where RedactMessage could decide
// otherwise than a quick read (see wirejson.RedactValid).
func RedactEncoded(encoded []byte, drop func(key string) bool) (content []byte, messageType string, ok bool) {
	return wirejson.RedactValid(encoded, drop, "message_type")
}

// DeleteKeys deletes every member drop names from a decoded JSON value, at
// any depth: what RedactMessage does, for a message it leaves to
// encoding/json.
func DeleteKeys(v any, drop func(key string) bool) { wirejson.DeleteKeys(v, drop) }

// EncodeMatchFile encodes f, indented, with transcript as its transcript
// (f.Transcript is not read), one exchange a line. The transcript's
// contents are copied as they are, not decoded and encoded again, and the
// rest is written by hand.
func EncodeMatchFile(f MatchFile, transcript []TranscriptRecord) ([]byte, error) {
	f.Transcript = nil
	head, err := json.MarshalIndent(f, "", "  ")
	if err != nil {
		return nil, fmt.Errorf("encode match file: %w", err)
	}
	if len(transcript) == 0 {
		return append(head, '\n'), nil
	}
	before, after, err := NullFieldSlot(head, "transcript")
	if err != nil {
		return nil, fmt.Errorf("encode match file: no place for the transcript: %w", err)
	}
	out := append(make([]byte, 0, len(head)+transcriptSize(transcript)), before...)
	out = append(out, '[')
	for i, e := range transcript {
		line, err := json.Marshal(e)
		if err != nil {
			return nil, fmt.Errorf("encode match file: %w", err)
		}
		content := e.Content
		if len(content) == 0 {
			content = json.RawMessage("null")
		}
		out = wirejson.AppendMember(append(out, "\n    "...), line, wirejson.Member{Name: "content", Raw: content})
		if i < len(transcript)-1 {
			out = append(out, ',')
		}
	}
	out = append(out, "\n  ]"...)
	return append(append(out, after...), '\n'), nil
}

// transcriptSize is about the room the transcript takes in the file.
func transcriptSize(transcript []TranscriptRecord) int {
	n := 0
	for _, e := range transcript {
		n += len(e.Content) + 160
	}
	return n
}

// MatchAbandoned is the lifecycle state, and the result's status, of a
// match file whose match the league was stopped before it had a result:
// whatever its referee saw, it was not played as far as the league is
// concerned, and it counts for no one. Readers take it as one more status
// beside WIN, DRAW and TECHNICAL_LOSS.
const MatchAbandoned = "ABANDONED"

// AbandonMatchFile rewrites a match file (as EncodeMatchFile writes it) as
// abandoned: its lifecycle's state and its result's status are
// MatchAbandoned, the result names no winner, no moves and no points, and
// says why in reason. Its players and its transcript, what happened until
// the stop, are kept as they were, each exchange still on a line of its own.
func AbandonMatchFile(data []byte, reason string) ([]byte, error) {
	var doc struct {
		MatchFile
		Transcript []struct {
			TranscriptHead
			Content json.RawMessage `json:"content"`
		} `json:"transcript"`
		Result json.RawMessage `json:"result"` // replaced, so read liberally: whatever a referee put there
	}
	if err := Unmarshal(data, &doc); err != nil {
		return nil, fmt.Errorf("abandon match file: %w", err)
	}
	f := doc.MatchFile
	f.Lifecycle.State = MatchAbandoned
	f.Result = MatchResult{GameResult: GameResult{Status: MatchAbandoned, Choices: map[string]string{}, Reason: reason},
		Score: map[string]int{}}
	records := make([]TranscriptRecord, len(doc.Transcript))
	for i, e := range doc.Transcript {
		var content bytes.Buffer
		if len(e.Content) > 0 {
			if err := json.Compact(&content, e.Content); err != nil {
				return nil, fmt.Errorf("abandon match file: exchange %d: %w", e.Seq, err)
			}
		}
		records[i] = TranscriptRecord{TranscriptHead: e.TranscriptHead, Content: content.Bytes()}
	}
	return EncodeMatchFile(f, records)
}

// IsAbandonedMatchFile says a match file already says it was abandoned.
func IsAbandonedMatchFile(data []byte) bool {
	var head struct {
		Lifecycle Lifecycle `json:"lifecycle"`
	}
	return Unmarshal(data, &head) == nil && head.Lifecycle.State == MatchAbandoned
}
