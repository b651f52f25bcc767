// Package protocol holds the league.v2 wire format: the message types, the
// JSON-RPC 2.0 framing around them, and the liberal decoding that lets agents
// written by other people join a leaguetui league. We send exactly what the
// specification shows; we accept every variant protocol.md lists.
//
// Everything that crosses a process boundary is declared here, once: the
// messages (messages.go), one table entry per message type from which
// routing, the MCP tools and test peers derive (table.go, Messages), and the
// documents served over plain HTTP and written to the data folder
// (files.go: standings, feed pages, /health, rounds, league and match files).
// An agent's role is Role, the engine's typed engine.Role under this
// package's name (table.go), so the wire and the journal compare one type.
// The framing (jsonrpc.go, encoded.go), routing and dialects (routing.go,
// dialect.go) and the liberal decoding (liberal.go) say what goes where.
// Every message is written and read from its Go type by the one wire codec
// (jsontext.go); internal/wirejson scans a frame's head and splices a
// result's facts, as encoding/json would, its fuzzers' oracle.
package protocol

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// Version is the value of every message's "protocol" field.
const Version = "league.v2"

// ProtocolVersion is the specification revision we implement; MinProtocolVersion
// is the oldest an agent may declare at registration.
const (
	ProtocolVersion    = "2.1.0"
	MinProtocolVersion = "2.0.0"
)

// SenderManager is the league manager's canonical sender value.
const SenderManager = "league_manager"

// Envelope is the set of fields every league.v2 message carries, flat beside
// the message's own fields.
type Envelope struct {
	Protocol       string  `json:"protocol" jsonschema:"always league.v2"`
	MessageType    string  `json:"message_type" jsonschema:"the message type, e.g. GAME_INVITATION"`
	Sender         string  `json:"sender" jsonschema:"who sends it: league_manager, referee:<id> or player:<id>"`
	Timestamp      string  `json:"timestamp" jsonschema:"ISO-8601 in UTC, e.g. 2025-01-15T10:00:00Z"`
	ConversationID string  `json:"conversation_id" jsonschema:"one id per conversation; a reply echoes it"`
	AuthToken      string  `json:"auth_token,omitempty" jsonschema:"the token the sender got at registration (the admin token for admin tools)"`
	LeagueID       string  `json:"league_id,omitempty" jsonschema:"the league, e.g. league_2025_even_odd"`
	RoundID        RoundID `json:"round_id,omitempty" jsonschema:"the round, 1, 2, …"`
	MatchID        string  `json:"match_id,omitempty" jsonschema:"the match, R<round>M<index>, e.g. R1M1"`
}

// NewEnvelope stamps a message we are about to send with the current time.
func NewEnvelope(messageType, sender, conversationID string) Envelope {
	return Envelope{
		Protocol:       Version,
		MessageType:    messageType,
		Sender:         sender,
		Timestamp:      FormatTime(time.Now()),
		ConversationID: conversationID,
	}
}

// Header gives access to the envelope of any message type that embeds it.
func (e *Envelope) Header() *Envelope { return e }

// Message is any league.v2 message: every message type embeds Envelope.
type Message interface{ Header() *Envelope }

// SenderID returns the id part of a sender such as "player:P01" ("P01"), or
// "league_manager" for the manager in any of its spellings.
func (e Envelope) SenderID() string {
	kind, id := SplitSender(e.Sender)
	if kind == ManagerRole {
		return SenderManager
	}
	return id
}

// SplitSender splits "player:P01" into (PlayerRole, "P01"). The manager's
// variants "league_manager", "league_manager:LM01" and
// "league:league_manager" all give (ManagerRole, ""). The role is whatever
// the sender says: compare it with a Role before trusting it.
func SplitSender(sender string) (kind Role, id string) {
	sender = strings.TrimSpace(sender)
	if sender == SenderManager || strings.HasPrefix(sender, SenderManager+":") || sender == "league:league_manager" {
		return ManagerRole, ""
	}
	k, id, _ := strings.Cut(sender, ":")
	return Role(k), id
}

// PlayerSender and RefereeSender build canonical sender values.
func PlayerSender(id string) string  { return "player:" + id }
func RefereeSender(id string) string { return "referee:" + id }

// RoundID is a round number that also accepts a numeric string on input,
// because several peers send "round_id":"1".
type RoundID int

// UnmarshalJSON accepts 3, "3", null and "".
func (r *RoundID) UnmarshalJSON(b []byte) error {
	s := strings.Trim(string(b), `"`)
	if s == "" || s == "null" {
		*r = 0
		return nil
	}
	n, err := strconv.Atoi(s)
	if err != nil {
		// Not the value itself: a decoding error goes back to the peer
		// and into the log, and the value could be another's token.
		return errors.New("round_id is not a whole number")
	}
	*r = RoundID(n)
	return nil
}

// MarshalJSON always writes a number.
func (r RoundID) MarshalJSON() ([]byte, error) { return strconv.AppendInt(nil, int64(r), 10), nil }

// ParseTime reads the timestamp spellings peers send: RFC 3339 with or
// without fractions, "+00:00", basic ISO "20250115T103000Z", and naive local
// times (read as UTC). utc is false when the value carries a non-UTC offset or
// no zone at all, so the manager can enforce E021 where it must.
func ParseTime(s string) (t time.Time, utc bool, err error) {
	s = strings.TrimSpace(s)
	for _, layout := range []string{time.RFC3339Nano, "20060102T150405Z07:00", "20060102T150405Z"} {
		if t, err := time.Parse(layout, s); err == nil {
			_, offset := t.Zone()
			return t.UTC(), offset == 0, nil
		}
	}
	for _, layout := range []string{"2006-01-02T15:04:05.999999999", "2006-01-02T15:04:05", "2006-01-02 15:04:05.999999999"} {
		if t, err := time.Parse(layout, s); err == nil {
			return t, false, nil
		}
	}
	return time.Time{}, false, fmt.Errorf("timestamp %q is not ISO-8601", s)
}

// HasNonUTCOffset reports a timestamp that states a zone other than UTC
// ("+02:00"). Naive timestamps and unreadable ones are not reported: the
// first are tolerated, the second are a different error.
func HasNonUTCOffset(s string) bool {
	t, err := time.Parse(time.RFC3339Nano, strings.TrimSpace(s))
	if err != nil {
		return false
	}
	_, offset := t.Zone()
	return offset != 0
}
