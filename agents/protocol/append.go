package protocol

import (
	"bytes"
	"encoding/json"
	"strconv"
	"sync"
)

// A match's own messages written by hand. Each match sends a player an
// invitation and a move call, and each player answers them, in bytes
// encoding/json made through reflection, a tenth of the league's JSON
// work. marshal writes those messages, when every string in them is
// plain ASCII that encoding/json writes as it is, with the same bytes
// (FuzzEncode holds the two to the same bytes); any other message or
// string goes to encoding/json.

// marshal is json.Marshal(msg), by hand where it can be. Like
// encoding/json, it writes into a buffer kept for the next message and
// gives a copy of just the message's length.
func marshal(msg any) ([]byte, error) {
	buf := wireBuffers.Get().(*[]byte)
	defer wireBuffers.Put(buf)
	w := wireWriter{buf: (*buf)[:0]}
	written := w.message(msg)
	*buf = w.buf
	if written {
		return bytes.Clone(w.buf), nil
	}
	return json.Marshal(msg)
}

// wireBuffers are marshal's buffers.
var wireBuffers = sync.Pool{New: func() any { buf := make([]byte, 0, 1024); return &buf }}

// wireWriter appends one JSON object; fail turns true at the first value
// it cannot write as encoding/json would.
type wireWriter struct {
	buf  []byte
	fail bool
}

// message writes the hot messages and says whether msg was one of them,
// written whole.
func (w *wireWriter) message(msg any) bool {
	switch m := msg.(type) {
	case *GameInvitation:
		w.envelope(&m.Envelope)
		w.str(`,"game_type":`, m.GameType)
		w.str(`,"role_in_match":`, m.RoleInMatch)
		w.str(`,"opponent_id":`, m.OpponentID)
		w.omitEmpty(`,"player_id":`, m.PlayerID)
	case *MoveCall:
		w.envelope(&m.Envelope)
		w.str(`,"player_id":`, m.PlayerID)
		w.str(`,"game_type":`, m.GameType)
		w.moveContext(&m.Context)
		w.str(`,"deadline":`, m.Deadline)
		w.moveRequest(m.MoveRequest)
	case *GameJoinAck:
		w.envelope(&m.Envelope)
		w.str(`,"player_id":`, m.PlayerID)
		w.str(`,"arrival_timestamp":`, m.ArrivalTimestamp)
		w.buf = strconv.AppendBool(append(w.buf, `,"accept":`...), m.Accept)
	case *MoveAnswer:
		if m.Model != nil {
			return false
		}
		w.envelope(&m.Envelope)
		w.str(`,"player_id":`, m.PlayerID)
		w.str(`,"parity_choice":`, m.Choice)
	case *Ack:
		w.envelope(&m.Envelope)
		w.str(`,"status":`, m.Status)
	case *GameOver:
		w.envelope(&m.Envelope)
		w.str(`,"game_type":`, m.GameType)
		w.buf = append(w.buf, `,"game_result":`...)
		w.appended(appendGameResult(w.buf, &m.GameResult))
		w.omitEmpty(`,"reason":`, m.Reason)
	case *MatchResultReport:
		w.envelope(&m.Envelope)
		w.str(`,"game_type":`, m.GameType)
		w.reportResult(&m.Result)
		w.steps(`,"match_steps":[`, m.Steps)
	case *MatchStep:
		w.envelope(&m.Envelope)
		w.str(`,"step":`, m.Step)
		w.omitEmpty(`,"detail":`, m.Detail)
		w.steps(`,"steps":[`, m.Steps)
	default:
		return false
	}
	w.buf = append(w.buf, '}')
	return !w.fail
}

// envelope opens the object with the envelope's fields, as Envelope's
// tags order and omit them.
func (w *wireWriter) envelope(e *Envelope) {
	w.str(`{"protocol":`, e.Protocol)
	w.str(`,"message_type":`, e.MessageType)
	w.str(`,"sender":`, e.Sender)
	w.str(`,"timestamp":`, e.Timestamp)
	w.str(`,"conversation_id":`, e.ConversationID)
	w.omitEmpty(`,"auth_token":`, e.AuthToken)
	w.omitEmpty(`,"league_id":`, e.LeagueID)
	if e.RoundID != 0 {
		w.int(`,"round_id":`, int(e.RoundID))
	}
	w.omitEmpty(`,"match_id":`, e.MatchID)
}

func (w *wireWriter) moveContext(c *MoveContext) {
	w.str(`,"context":{"opponent_id":`, c.OpponentID)
	w.int(`,"round_id":`, int(c.RoundID))
	w.int(`,"your_standings":{"wins":`, c.YourStandings.Wins)
	w.int(`,"losses":`, c.YourStandings.Losses)
	w.int(`,"draws":`, c.YourStandings.Draws)
	w.buf = append(w.buf, '}', '}')
}

// moveRequest writes a move request without a context of the game's (a
// GAME_MOVE_CALL's context goes to encoding/json).
func (w *wireWriter) moveRequest(r *MoveRequest) {
	switch {
	case r == nil:
		return
	case len(r.Context) > 0:
		w.fail = true
		return
	}
	w.str(`,"move_request":{"move_type":`, r.MoveType)
	if len(r.ValidOptions) > 0 {
		w.buf = append(w.buf, `,"valid_options":[`...)
		for i, option := range r.ValidOptions {
			if i > 0 {
				w.buf = append(w.buf, ',')
			}
			w.quoted(option)
		}
		w.buf = append(w.buf, ']')
	}
	if r.Turn != 0 {
		w.int(`,"turn":`, r.Turn)
	}
	w.buf = append(w.buf, '}')
}

// reportResult writes a report's result, its details as
// ReportDetails.MarshalJSON writes them.
func (w *wireWriter) reportResult(r *ReportResult) {
	w.buf = append(w.buf, `,"result":{"winner":`...)
	w.appended(appendValue(w.buf, r.Winner, false))
	w.buf = append(w.buf, `,"score":`...)
	w.appended(appendValue(w.buf, r.Score, false))
	w.buf = append(w.buf, `,"details":`...)
	w.appended(appendReportDetails(w.buf, &r.Details))
	w.omitEmpty(`,"status":`, r.Status)
	w.buf = append(w.buf, '}')
}

// steps writes a report's match_steps or a MATCH_STEP's steps: key opens
// the array, omitted when empty (omitempty).
func (w *wireWriter) steps(key string, steps []StepEntry) {
	if len(steps) == 0 {
		return
	}
	w.buf = append(w.buf, key...)
	for i, s := range steps {
		if i > 0 {
			w.buf = append(w.buf, ',')
		}
		w.buf = append(w.buf, '{')
		key := `"match_id":`
		if s.RoundID != 0 {
			w.int(`"round_id":`, int(s.RoundID))
			key = `,"match_id":`
		}
		w.str(key, s.MatchID)
		w.str(`,"step":`, s.Step)
		w.omitEmpty(`,"detail":`, s.Detail)
		w.buf = append(w.buf, '}')
	}
	w.buf = append(w.buf, ']')
}

// appended takes what an append function wrote, and fails the writer
// where it could not write as encoding/json would.
func (w *wireWriter) appended(buf []byte, ok bool) {
	w.buf = buf
	if !ok {
		w.fail = true
	}
}

// str writes a member: key (with what precedes it) and s.
func (w *wireWriter) str(key, s string) {
	w.buf = append(w.buf, key...)
	w.quoted(s)
}

// omitEmpty writes a member unless s is empty (omitempty).
func (w *wireWriter) omitEmpty(key, s string) {
	if s != "" {
		w.str(key, s)
	}
}

func (w *wireWriter) int(key string, n int) {
	w.buf = strconv.AppendInt(append(w.buf, key...), int64(n), 10)
}

// quoted writes s in quotes if encoding/json writes it so, as it is;
// else the writer fails.
func (w *wireWriter) quoted(s string) {
	if !writtenAsIs(s) {
		w.fail = true
		return
	}
	w.buf = append(append(append(w.buf, '"'), s...), '"')
}

// writtenAsIs reports a string encoding/json writes between quotes as it
// is: printable ASCII without a quote, a backslash or the characters it
// escapes for HTML (wirejson.Verbatim, for a string not yet encoded).
func writtenAsIs(s string) bool {
	for i := range len(s) {
		switch c := s[i]; {
		case c < 0x20, c >= 0x80, c == '"', c == '\\', c == '<', c == '>', c == '&':
			return false
		}
	}
	return true
}
