package manager

import (
	"encoding/json"
	"strconv"
	"time"

	"github.com/leaguetui/leaguetui/agents/protocol"
	"github.com/leaguetui/leaguetui/engine"
)

// The league's events written by hand. Every event goes to the journal,
// and every page of the feed carries some; encoding/json wrote each
// through reflection, a dozen allocations and more for a match's result.
// appendEvent writes the events of a match (assigned, stepped, its
// result with its facts) and the league's other events without an agent,
// a start or a scheduled round in them; everything else, and any value it
// is not sure of, is left to encoding/json. The bytes are encoding/json's
// (TestEventJSONIsEncodingJSON holds every event of a real league to it,
// FuzzEventJSON any event).

// appendEventJSON appends ev as json.Marshal writes it.
func appendEventJSON(dst []byte, ev *engine.Event) ([]byte, error) {
	if out, ok := appendEvent(dst, ev); ok {
		return out, nil
	}
	copied := *ev // so that only an event left to encoding/json goes to the heap
	encoded, err := json.Marshal(&copied)
	return append(dst, encoded...), err
}

// appendEvent appends ev as json.Marshal writes it, and is false where it
// cannot be sure to (dst keeps its length then).
func appendEvent(dst []byte, ev *engine.Event) ([]byte, bool) {
	if ev.Agent != nil || ev.Start != nil || ev.Schedule != nil {
		return dst, false
	}
	start := len(dst)
	dst = strconv.AppendInt(append(dst, `{"seq":`...), ev.Seq, 10)
	dst, ok := appendTime(append(dst, `,"time":`...), ev.Time)
	dst = protocol.AppendString(append(dst, `,"kind":`...), string(ev.Kind))
	if ev.Round != 0 {
		dst = strconv.AppendInt(append(dst, `,"round":`...), int64(ev.Round), 10)
	}
	dst = appendOmitEmpty(dst, `,"match_id":`, ev.MatchID)
	dst = appendOmitEmpty(dst, `,"referee":`, ev.Referee)
	dst = appendOmitEmpty(dst, `,"step":`, ev.Step)
	if ev.Result != nil {
		dst = appendResult(append(dst, `,"result":`...), ev.Result)
	}
	if ev.Facts != nil {
		dst = appendFacts(append(dst, `,"facts":`...), ev.Facts, &ok)
	}
	dst = appendOmitEmpty(dst, `,"agent_id":`, ev.AgentID)
	dst = appendOmitEmpty(dst, `,"detail":`, ev.Detail)
	if !ok {
		return dst[:start], false
	}
	return append(dst, '}'), true
}

// appendTime appends t as time.Time's MarshalJSON writes it, and is false
// unless it is sure MarshalJSON takes it: a four-digit year, in UTC (see
// time.Time.appendStrictRFC3339 for what it refuses).
func appendTime(dst []byte, t time.Time) ([]byte, bool) {
	year := len(dst) + 1
	dst = t.AppendFormat(append(dst, '"'), time.RFC3339Nano)
	sure := len(dst) > year+4 && dst[year+4] == '-' && dst[len(dst)-1] == 'Z'
	return append(dst, '"'), sure
}

// appendResult appends a Result, which has no JSON names of its own: its
// fields go by their Go names, none omitted.
func appendResult(dst []byte, r *engine.Result) []byte {
	dst = protocol.AppendString(append(dst, `{"MatchID":`...), r.MatchID)
	dst = strconv.AppendInt(append(dst, `,"Round":`...), int64(r.Round), 10)
	dst = protocol.AppendString(append(dst, `,"PlayerA":`...), r.PlayerA)
	dst = protocol.AppendString(append(dst, `,"PlayerB":`...), r.PlayerB)
	dst = protocol.AppendString(append(dst, `,"Status":`...), string(r.Status))
	dst = protocol.AppendString(append(dst, `,"Winner":`...), r.Winner)
	dst = append(dst, `,"Offenders":`...)
	if r.Offenders == nil {
		return append(dst, "null}"...)
	}
	dst = append(dst, '[')
	for i, o := range r.Offenders {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = protocol.AppendString(dst, o)
	}
	return append(dst, "]}"...)
}

// appendFacts appends a match's facts, each member omitted when empty.
func appendFacts(dst []byte, f *engine.MatchFacts, ok *bool) []byte {
	dst = append(dst, '{')
	first := len(dst)
	if len(f.Moves) > 0 {
		dst = appendSortedMap(append(dst, `"moves":`...), f.Moves, func(dst []byte, move string) []byte {
			return protocol.AppendString(dst, move)
		})
	}
	if len(f.Details) > 0 {
		dst = separate(dst, first)
		dst = appendSortedMap(append(dst, `"details":`...), f.Details, func(dst []byte, fact any) []byte {
			return appendFact(dst, fact, ok)
		})
	}
	if f.Reason != "" {
		dst = separate(dst, first)
		dst = protocol.AppendString(append(dst, `"reason":`...), f.Reason)
	}
	return append(dst, '}')
}

// separate appends the comma before a member unless it is the first: the
// object's members start at first.
func separate(dst []byte, first int) []byte {
	if len(dst) > first {
		return append(dst, ',')
	}
	return dst
}

// appendFact appends one of a match's game facts: a string, a number or
// a boolean (matchFacts keeps no other kind); anything else is not sure.
func appendFact(dst []byte, v any, ok *bool) []byte {
	switch v := v.(type) {
	case string:
		return protocol.AppendString(dst, v)
	case bool:
		return strconv.AppendBool(dst, v)
	case float64:
		dst, sure := protocol.AppendFloat(dst, v)
		*ok = *ok && sure
		return dst
	}
	*ok = false
	return dst
}

// appendSortedMap appends m, which is not empty, with its keys sorted, as
// encoding/json writes a map.
func appendSortedMap[V any](dst []byte, m map[string]V, appendValue func([]byte, V) []byte) []byte {
	var room [8]string // matchFacts keeps no more
	keys := protocol.SortedKeys(m, room[:])
	dst = append(dst, '{')
	for i, k := range keys {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = append(protocol.AppendString(dst, k), ':')
		dst = appendValue(dst, m[k])
	}
	return append(dst, '}')
}

// appendOmitEmpty appends a string member (its name given as ,"name":)
// unless it is empty, as omitempty does.
func appendOmitEmpty(dst []byte, name, value string) []byte {
	if value == "" {
		return dst
	}
	return protocol.AppendString(append(dst, name...), value)
}
