package protocol

import (
	"bytes"
	"errors"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/segmentio/encoding/json"
)

// The wire's JSON. Every message, document, match file and journal line
// is written and read from its Go type through this seam: a field added
// to a message is on the wire, in the files and in the journal with no
// other edit. The codec is github.com/segmentio/encoding/json, which
// writes encoding/json's bytes and reads its values from the same struct
// tags at less CPU. Only a result's facts, which lie flat beside its
// fields, are written and read by hand (flatten.go, matchresult.go, the
// result shapes in liberal.go). TestEveryFieldCrossesTheWire,
// FuzzCodecReads and FuzzCodecWrites hold the codec to encoding/json on
// every type of the message table; docs/architecture.md says why this
// codec, and where it differs.

// appendFlags are the flags under which json.Append writes what
// encoding/json's Marshal writes (HTML escaped, map keys sorted).
const appendFlags = json.EscapeHTML | json.SortMapKeys

// Marshal is json.Marshal through the wire's codec.
func Marshal(v any) ([]byte, error) { return json.Marshal(v) }

// AppendJSON appends v as Marshal writes it: a journal line or a feed
// page written into a buffer already there.
func AppendJSON(dst []byte, v any) ([]byte, error) { return json.Append(dst, v, appendFlags) }

// MarshalIndent is json.MarshalIndent through the wire's codec.
func MarshalIndent(v any, prefix, indent string) ([]byte, error) {
	return json.MarshalIndent(v, prefix, indent)
}

// Unmarshal is json.Unmarshal through the wire's codec, and refuses what
// encoding/json refuses for its depth: the codec itself walks any depth,
// so a hostile body nested past encoding/json's limit is refused here, as
// every reader of the wire reads through Unmarshal.
func Unmarshal(data []byte, v any) error {
	if nestedTooDeep(data) {
		return errTooDeep
	}
	return withoutInput(json.Unmarshal(data, v))
}

// withoutInput is a decoding error that quotes none of the input. The
// codec's errors carry the first bytes of the value they stopped at, and
// a decoding error reaches the peer in the reply and the log: a token
// one agent sent in the wrong field must not come back in them. Its
// errors are then what encoding/json says: the kind of value, the type
// it did not fit, or the syntax error without the text.
func withoutInput(err error) error {
	var typeErr *json.UnmarshalTypeError
	switch {
	case err == nil:
		return nil
	case errors.As(err, &typeErr):
		shown := *typeErr
		shown.Value = valueKind(typeErr.Value)
		return &shown
	}
	msg, _, _ := strings.Cut(strings.TrimPrefix(err.Error(), "json: "), ": ")
	return errors.New("json: " + msg)
}

// valueKind is the kind of JSON value the codec quotes the start of (as
// a Go string, or as it is), as encoding/json names it in its errors.
func valueKind(quoted string) string {
	if strings.HasPrefix(quoted, "number ") { // "number 1e400 overflows"
		return "number"
	}
	raw := quoted
	if unquoted, err := strconv.Unquote(quoted); err == nil {
		raw = unquoted
	}
	raw = strings.TrimLeft(raw, " \t\r\n")
	switch {
	case raw == "":
		return "value"
	case raw[0] == '"':
		return "string"
	case raw[0] == '{':
		return "object"
	case raw[0] == '[':
		return "array"
	case raw[0] == 't' || raw[0] == 'f':
		return "bool"
	case raw[0] == 'n':
		return "null"
	}
	return "number"
}

// Valid is json.Valid through the wire's codec, with encoding/json's
// limit on depth (see Unmarshal).
func Valid(data []byte) bool { return !nestedTooDeep(data) && json.Valid(data) }

// maxNesting is encoding/json's limit on the objects and arrays open at
// once.
const maxNesting = 10000

var errTooDeep = errors.New("json: exceeded max depth")

// nestedTooDeep reports JSON text that opens more than maxNesting
// objects and arrays at once. Most bodies hold fewer brackets than that
// in all, which two counts tell without a walk.
func nestedTooDeep(data []byte) bool {
	if bytes.Count(data, []byte{'['})+bytes.Count(data, []byte{'{'}) <= maxNesting {
		return false
	}
	depth, inString := 0, false
	for i := 0; i < len(data); i++ {
		switch c := data[i]; {
		case inString && c == '\\':
			i++
		case c == '"':
			inString = !inString
		case inString:
		case c == '[' || c == '{':
			if depth++; depth > maxNesting {
				return true
			}
		case c == ']' || c == '}':
			depth--
		}
	}
	return false
}

// AppendString appends s as encoding/json writes a string.
func AppendString(dst []byte, s string) []byte { return json.AppendEscape(dst, s, json.EscapeHTML) }

// AppendFloat appends f as encoding/json writes a float64; it is false
// for NaN and the infinities, which encoding/json refuses.
func AppendFloat(dst []byte, f float64) ([]byte, bool) {
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

// SortedKeys is m's keys in the order encoding/json writes a map's, in
// room's array when they fit: a map of a few facts costs no allocation.
func SortedKeys[V any](m map[string]V, room []string) []string {
	keys := room[:0]
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
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
