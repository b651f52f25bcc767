package protocol

import (
	"github.com/segmentio/encoding/json"
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
	base, err := r.GameResult.flatten()
	if err != nil {
		return nil, err
	}
	var fields map[string]any
	if err := Unmarshal(base, &fields); err != nil {
		return nil, err
	}
	fields["score"] = r.Score
	if len(r.Offenders) > 0 {
		fields["offending_players"] = r.Offenders
	}
	return json.Marshal(fields)
}

// resultMember is one member of a result being written, its value not
// yet encoded. decoded says the value went through a map[string]any on
// the way: its numbers are then float64s, and its strings must read back
// as themselves.
type resultMember struct {
	name    string
	value   any
	decoded bool
}

// appendMatchResult appends r as marshalThroughMap encodes it, and is
// false where it cannot be sure to (dst is then to be dropped).
func appendMatchResult(dst []byte, r MatchResult) ([]byte, bool) {
	var stack [16]resultMember
	members := gameResultFields(stack[:0], &r.GameResult, true)
	// The score and the offenders go into the map as they are, not
	// decoded: the score's numbers are written as ints.
	members = append(members, resultMember{"score", r.Score, false})
	if len(r.Offenders) > 0 {
		members = append(members, resultMember{"offending_players", r.Offenders, false})
	}
	return appendSortedMembers(dst, withFacts(members, r.Details, true))
}

// gameResultFields adds a game result's own fields to members, in their
// order; decoded, as they read back from their encoding. Its strings go
// by pointer, which an any holds without a copy.
func gameResultFields(members []resultMember, r *GameResult, decoded bool) []resultMember {
	return append(members, resultMember{"status", &r.Status, decoded}, resultMember{"winner_player_id", r.WinnerPlayerID, decoded},
		resultMember{"choices", r.Choices, decoded}, resultMember{"reason", &r.Reason, decoded})
}

// withFacts adds a game's facts to members; the members already there
// win over a fact of the same name.
func withFacts(members []resultMember, facts map[string]any, decoded bool) []resultMember {
	for name, value := range facts {
		if !slices.ContainsFunc(members, func(m resultMember) bool { return m.name == name }) {
			members = append(members, resultMember{name, value, decoded})
		}
	}
	return members
}

// appendSortedMembers appends members as encoding/json writes a
// map[string]any that holds them: sorted by name.
func appendSortedMembers(dst []byte, members []resultMember) ([]byte, bool) {
	slices.SortFunc(members, func(a, b resultMember) int { return strings.Compare(a.name, b.name) })
	return appendMembers(dst, members)
}

// appendMembers appends an object of members in their order, as
// encoding/json writes a struct's fields.
func appendMembers(dst []byte, members []resultMember) ([]byte, bool) {
	dst = append(dst, '{')
	for i, m := range members {
		if i > 0 {
			dst = append(dst, ',')
		}
		var ok bool
		if dst, ok = appendKey(dst, m.name); !ok {
			return dst, false
		}
		if dst, ok = appendValue(dst, m.value, m.decoded); !ok {
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

// appendValue appends v as encoding/json writes it: as it is, or, when
// decoded, as it writes v once encoded and decoded into an any (numbers
// as float64, strings as they read back). It is false for a type it does
// not know and for a value encoding/json would refuse or write otherwise.
func appendValue(dst []byte, v any, decoded bool) ([]byte, bool) {
	switch v := v.(type) {
	case nil:
		return append(dst, "null"...), true
	case string:
		return appendText(dst, v, decoded)
	case *string:
		if v == nil {
			return append(dst, "null"...), true
		}
		return appendText(dst, *v, decoded)
	case bool:
		return strconv.AppendBool(dst, v), true
	case int:
		return appendInt(dst, int64(v), decoded)
	case int64:
		return appendInt(dst, v, decoded)
	case float64:
		return AppendFloat(dst, v)
	case map[string]string:
		return appendSortedMap(dst, v, decoded, appendText)
	case map[string]int:
		return appendSortedMap(dst, v, decoded, func(dst []byte, n int, decoded bool) ([]byte, bool) { return appendInt(dst, int64(n), decoded) })
	case map[string]any:
		return appendSortedMap(dst, v, decoded, appendValue)
	case []string:
		return appendSlice(dst, v, decoded, appendText)
	case *[]string: // a field's, without a copy
		return appendSlice(dst, *v, decoded, appendText)
	case []any:
		return appendSlice(dst, v, decoded, appendValue)
	case []map[string]any: // link race's errors
		return appendSlice(dst, v, decoded, func(dst []byte, m map[string]any, decoded bool) ([]byte, bool) {
			return appendSortedMap(dst, m, decoded, appendValue)
		})
	}
	return dst, false
}

// appendText appends a string; decoded, only one that reads back as
// itself (see appendPlainString).
func appendText(dst []byte, s string, decoded bool) ([]byte, bool) {
	if decoded {
		return appendPlainString(dst, s)
	}
	return AppendString(dst, s), true
}

// appendInt appends n as encoding/json writes an int, or, decoded, the
// float64 it reads back as.
func appendInt(dst []byte, n int64, decoded bool) ([]byte, bool) {
	if decoded {
		return AppendFloat(dst, float64(n))
	}
	return strconv.AppendInt(dst, n, 10), true
}

// appendPlainString appends s as encoding/json writes it, if it decodes
// back to s: valid UTF-8 (an invalid byte is written \ufffd, which reads
// back as another string).
func appendPlainString(dst []byte, s string) ([]byte, bool) {
	if !utf8.ValidString(s) {
		return dst, false
	}
	return AppendString(dst, s), true
}

// appendSortedMap appends m with its keys sorted, as encoding/json writes
// a map; nil is null.
func appendSortedMap[V any](dst []byte, m map[string]V, decoded bool, appendValue func([]byte, V, bool) ([]byte, bool)) ([]byte, bool) {
	if m == nil {
		return append(dst, "null"...), true
	}
	var room [8]string
	keys := SortedKeys(m, room[:])
	dst = append(dst, '{')
	for i, k := range keys {
		if i > 0 {
			dst = append(dst, ',')
		}
		var ok bool
		if dst, ok = appendKey(dst, k); !ok {
			return dst, false
		}
		if dst, ok = appendValue(dst, m[k], decoded); !ok {
			return dst, false
		}
	}
	return append(dst, '}'), true
}

// appendSlice appends s as encoding/json writes a slice; nil is null.
func appendSlice[V any](dst []byte, s []V, decoded bool, appendValue func([]byte, V, bool) ([]byte, bool)) ([]byte, bool) {
	if s == nil {
		return append(dst, "null"...), true
	}
	dst = append(dst, '[')
	for i, v := range s {
		if i > 0 {
			dst = append(dst, ',')
		}
		var ok bool
		if dst, ok = appendValue(dst, v, decoded); !ok {
			return dst, false
		}
	}
	return append(dst, ']'), true
}
