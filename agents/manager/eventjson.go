package manager

import (
	"encoding/json"
	"math"
	"slices"
	"strconv"
	"time"
	"unicode/utf8"

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
	dst = appendString(append(dst, `,"kind":`...), string(ev.Kind))
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
	dst = appendString(append(dst, `{"MatchID":`...), r.MatchID)
	dst = strconv.AppendInt(append(dst, `,"Round":`...), int64(r.Round), 10)
	dst = appendString(append(dst, `,"PlayerA":`...), r.PlayerA)
	dst = appendString(append(dst, `,"PlayerB":`...), r.PlayerB)
	dst = appendString(append(dst, `,"Status":`...), string(r.Status))
	dst = appendString(append(dst, `,"Winner":`...), r.Winner)
	dst = append(dst, `,"Offenders":`...)
	if r.Offenders == nil {
		return append(dst, "null}"...)
	}
	dst = append(dst, '[')
	for i, o := range r.Offenders {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = appendString(dst, o)
	}
	return append(dst, "]}"...)
}

// appendFacts appends a match's facts, each member omitted when empty.
func appendFacts(dst []byte, f *engine.MatchFacts, ok *bool) []byte {
	dst = append(dst, '{')
	first := len(dst)
	if len(f.Moves) > 0 {
		dst = appendSortedMap(append(dst, `"moves":`...), f.Moves, func(dst []byte, move string) []byte {
			return appendString(dst, move)
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
		dst = appendString(append(dst, `"reason":`...), f.Reason)
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
		return appendString(dst, v)
	case bool:
		return strconv.AppendBool(dst, v)
	case float64:
		return appendFloat(dst, v, ok)
	}
	*ok = false
	return dst
}

// appendSortedMap appends m, which is not empty, with its keys sorted, as
// encoding/json writes a map.
func appendSortedMap[V any](dst []byte, m map[string]V, appendValue func([]byte, V) []byte) []byte {
	var stack [8]string // matchFacts keeps no more
	keys := stack[:0]
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	dst = append(dst, '{')
	for i, k := range keys {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = append(appendString(dst, k), ':')
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
	return appendString(append(dst, name...), value)
}

// appendString appends s quoted as encoding/json writes it. A string it
// writes as it is (the ids, kinds and steps of a league all are) is
// copied; any other is left to encoding/json, which encodes every string.
func appendString(dst []byte, s string) []byte {
	if writtenAsIs(s) {
		return append(append(append(dst, '"'), s...), '"')
	}
	quoted, _ := json.Marshal(s)
	return append(dst, quoted...)
}

// writtenAsIs reports whether encoding/json writes s between quotes as
// it is: valid UTF-8 without a control character, a quote, a backslash,
// the characters it escapes for HTML (<, >, &) or the line and paragraph
// separators (U+2028, U+2029).
func writtenAsIs(s string) bool {
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			switch {
			case c < 0x20, c == '"', c == '\\', c == '<', c == '>', c == '&':
				return false
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 || r == '\u2028' || r == '\u2029' {
			return false
		}
		i += size
	}
	return true
}

// appendFloat appends f as encoding/json writes a float64; NaN and the
// infinities, which encoding/json refuses, are not sure.
func appendFloat(dst []byte, f float64, ok *bool) []byte {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		*ok = false
		return dst
	}
	format := byte('f')
	if abs := math.Abs(f); abs != 0 && (abs < 1e-6 || abs >= 1e21) {
		format = 'e'
	}
	dst = strconv.AppendFloat(dst, f, format, -1, 64)
	if format == 'e' { // e-09 is written e-9
		if n := len(dst); n >= 4 && dst[n-4] == 'e' && dst[n-3] == '-' && dst[n-2] == '0' {
			dst[n-2] = dst[n-1]
			dst = dst[:n-1]
		}
	}
	return dst
}
