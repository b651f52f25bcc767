package protocol

import (
	"encoding/json"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// A match's result written by hand. encoding/json wrote it in three
// passes (the game's result with its details flat, decoded into a map,
// the map encoded again with the score), for every match file and every
// answer that carries a result. The bytes of those passes are those of one
// map[string]any: keys sorted at every depth, numbers as float64 writes
// them, strings as encoding/json escapes them. appendMatchResult writes
// them in one pass for the values a game's details hold (strings, numbers,
// booleans, and maps and slices of them); any other value, and a string or
// key that is not plain ASCII, is left to the three passes, which give it
// whatever they gave it before (FuzzMatchFile holds the two to the same
// bytes).

// marshalThroughMap is MatchResult's encoding as it always was: the bytes
// appendMatchResult must give.
func (r MatchResult) marshalThroughMap() ([]byte, error) {
	base, err := json.Marshal(r.GameResult)
	if err != nil {
		return nil, err
	}
	var fields map[string]any
	if err := json.Unmarshal(base, &fields); err != nil {
		return nil, err
	}
	fields["score"] = r.Score
	if len(r.Offenders) > 0 {
		fields["offending_players"] = r.Offenders
	}
	return json.Marshal(fields)
}

// score is the result's score, which goes into the map as it is, not
// decoded: its numbers are written as ints.
type score map[string]int

// resultMember is one member of a result being written, its value not
// yet encoded.
type resultMember struct {
	name  string
	value any
}

// appendMatchResult appends r as marshalThroughMap encodes it, and is
// false where it cannot be sure to (dst is then to be dropped).
func appendMatchResult(dst []byte, r MatchResult) ([]byte, bool) {
	var stack [16]resultMember
	members := append(stack[:0],
		resultMember{"status", r.Status}, resultMember{"winner_player_id", r.WinnerPlayerID},
		resultMember{"choices", r.Choices}, resultMember{"reason", r.Reason}, resultMember{"score", score(r.Score)})
	if len(r.Offenders) > 0 {
		members = append(members, resultMember{"offending_players", r.Offenders})
	}
	for name, value := range r.Details {
		// The result's own fields, and the score and offenders where it has
		// them, win over a detail of the same name.
		if !slices.ContainsFunc(members, func(m resultMember) bool { return m.name == name }) {
			members = append(members, resultMember{name, value})
		}
	}
	slices.SortFunc(members, func(a, b resultMember) int { return strings.Compare(a.name, b.name) })
	dst = append(dst, '{')
	for i, m := range members {
		if i > 0 {
			dst = append(dst, ',')
		}
		var ok bool
		if dst, ok = appendKey(dst, m.name); !ok {
			return dst, false
		}
		if dst, ok = appendDecodedValue(dst, m.value); !ok {
			return dst, false
		}
	}
	return append(dst, '}'), true
}

// appendKey appends a key and its colon, if encoding/json writes it as it
// is and reads it back as the same key.
func appendKey(dst []byte, key string) ([]byte, bool) {
	if !writtenAsIs(key) {
		return dst, false
	}
	return append(append(append(dst, '"'), key...), `":`...), true
}

// appendDecodedValue appends v as encoding/json writes it once it has been
// encoded and decoded into an any: numbers as float64, maps with their
// keys sorted. It is false for a type it does not know and for a value
// encoding/json would refuse or write otherwise.
func appendDecodedValue(dst []byte, v any) ([]byte, bool) {
	switch v := v.(type) {
	case nil:
		return append(dst, "null"...), true
	case string:
		return appendPlainString(dst, v)
	case *string:
		if v == nil {
			return append(dst, "null"...), true
		}
		return appendPlainString(dst, *v)
	case bool:
		return strconv.AppendBool(dst, v), true
	case int:
		return appendFloat(dst, float64(v))
	case int64:
		return appendFloat(dst, float64(v))
	case float64:
		return appendFloat(dst, v)
	case map[string]string:
		return appendSortedMap(dst, v, appendPlainString)
	case map[string]int:
		return appendSortedMap(dst, v, func(dst []byte, n int) ([]byte, bool) { return appendFloat(dst, float64(n)) })
	case score:
		return appendSortedMap(dst, v, func(dst []byte, n int) ([]byte, bool) { return strconv.AppendInt(dst, int64(n), 10), true })
	case map[string]any:
		return appendSortedMap(dst, v, appendDecodedValue)
	case []string:
		return appendSlice(dst, v, appendPlainString)
	case []any:
		return appendSlice(dst, v, appendDecodedValue)
	}
	return dst, false
}

// appendPlainString appends s as encoding/json writes it, if it decodes
// back to s: valid UTF-8 (an invalid byte is written \ufffd, which reads
// back as another string).
func appendPlainString(dst []byte, s string) ([]byte, bool) {
	if !utf8.ValidString(s) {
		return dst, false
	}
	return appendString(dst, s), true
}

// appendSortedMap appends m with its keys sorted, as encoding/json writes
// a map; nil is null.
func appendSortedMap[V any](dst []byte, m map[string]V, appendValue func([]byte, V) ([]byte, bool)) ([]byte, bool) {
	if m == nil {
		return append(dst, "null"...), true
	}
	var stack [8]string
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
		var ok bool
		if dst, ok = appendKey(dst, k); !ok {
			return dst, false
		}
		if dst, ok = appendValue(dst, m[k]); !ok {
			return dst, false
		}
	}
	return append(dst, '}'), true
}

// appendSlice appends s as encoding/json writes a slice; nil is null.
func appendSlice[V any](dst []byte, s []V, appendValue func([]byte, V) ([]byte, bool)) ([]byte, bool) {
	if s == nil {
		return append(dst, "null"...), true
	}
	dst = append(dst, '[')
	for i, v := range s {
		if i > 0 {
			dst = append(dst, ',')
		}
		var ok bool
		if dst, ok = appendValue(dst, v); !ok {
			return dst, false
		}
	}
	return append(dst, ']'), true
}

// appendFloat appends f as encoding/json writes a float64; it is false
// for NaN and the infinities, which encoding/json refuses.
func appendFloat(dst []byte, f float64) ([]byte, bool) {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return dst, false
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
	return dst, true
}
