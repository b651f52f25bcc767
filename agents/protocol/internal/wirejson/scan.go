// Package wirejson is the JSON machinery behind the league wire
// (agents/protocol): a one-pass scanner that walks JSON text and checks it
// as it goes, the readers and the generic one-pass reader built on it, the
// splicing of encoded members into objects and the redaction of keys. It
// knows nothing of league messages; protocol says which keys matter. Every
// piece reads and writes as encoding/json does, or says it cannot and
// leaves the work to encoding/json (its fuzzers hold it to that, with
// encoding/json as the oracle), so that a hostile body gets what
// encoding/json would give it.
package wirejson

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"math/bits"
)

// MaxDepth is the nesting the scanner walks; deeper JSON is left to
// encoding/json, which has its own limit.
const MaxDepth = 256

// Scanner walks JSON text in one pass, checking that it is valid JSON.
type Scanner struct {
	b     []byte
	i     int
	depth int // objects and arrays open
}

// NewScanner is a scanner at the start of b's first value.
func NewScanner(b []byte) Scanner {
	s := Scanner{b: b}
	s.space()
	return s
}

// ScanObject walks a JSON object in one pass, checking that it is valid
// JSON, and hands take each top-level key with its value as it stands in
// body (both sub-slices, not copies). It is false, and the caller decodes
// with encoding/json instead, for anything that is not a valid object,
// for a key with an escape or a byte beyond ASCII (encoding/json folds
// those its own way), and when take says so.
func ScanObject(body []byte, take func(key, raw []byte) bool) bool {
	s := NewScanner(body)
	return s.Object(func(key []byte, plain bool) bool {
		if !plain {
			return false
		}
		raw, ok := s.RawValue()
		return ok && take(key, raw)
	}) && s.End()
}

// Object walks the object at the scanner, handing member each key, plain
// or not (see PlainASCII), with the scanner at the key's value: member
// skips or reads that value (RawValue, RawValueMembers) and says whether
// to go on.
func (s *Scanner) Object(member func(key []byte, plain bool) bool) bool {
	if !s.eat('{') {
		return false
	}
	s.space()
	if s.eat('}') {
		return true
	}
	for {
		s.space()
		start := s.i
		if s.i >= len(s.b) || s.b[s.i] != '"' || !s.str() {
			return false
		}
		key := s.b[start+1 : s.i-1]
		s.space()
		if !s.eat(':') {
			return false
		}
		s.space()
		if !member(key, PlainASCII(key)) {
			return false
		}
		s.space()
		if s.eat('}') {
			return true
		}
		if !s.eat(',') {
			return false
		}
	}
}

// RawValue skips one JSON value and gives it as it stands in the text.
func (s *Scanner) RawValue() (raw []byte, ok bool) {
	start := s.i
	ok = s.value()
	return s.b[start:s.i], ok
}

// RawValueMembers is RawValue handing take, on the same pass, each
// top-level member of the value when it is an object, as ScanObject
// would: plainObject is false for any other value, and for an object with
// a key ScanObject would leave to encoding/json (take sees no member from
// that key on).
func (s *Scanner) RawValueMembers(take func(key, raw []byte)) (raw []byte, plainObject, ok bool) {
	if s.i >= len(s.b) || s.b[s.i] != '{' {
		raw, ok = s.RawValue()
		return raw, false, ok
	}
	start := s.i
	plainKeys := true
	ok = s.Object(func(key []byte, plain bool) bool {
		value, ok := s.RawValue()
		if plainKeys = plainKeys && plain; plainKeys && ok {
			take(key, value)
		}
		return ok
	})
	return s.b[start:s.i], ok && plainKeys, ok
}

// End reports that nothing but white space follows.
func (s *Scanner) End() bool {
	s.space()
	return s.i == len(s.b)
}

// ReadString decodes a JSON string into dst; null leaves dst as it was.
// It is false for any other value.
func ReadString(raw []byte, dst *string) bool {
	switch {
	case string(raw) == "null":
		return true
	case len(raw) < 2 || raw[0] != '"':
		return false
	}
	if inner := raw[1 : len(raw)-1]; PlainASCII(inner) {
		*dst = string(inner) // what encoding/json makes of it, without its machinery
		return true
	}
	var decoded string // not dst: encoding/json would move what dst points into to the heap
	if json.Unmarshal(raw, &decoded) != nil {
		return false
	}
	*dst = decoded
	return true
}

// PlainASCII reports the inside of a scanned JSON string that decodes to
// itself: printable ASCII with no escape.
func PlainASCII(inner []byte) bool {
	for _, c := range inner {
		if c < 0x20 || c >= 0x80 || c == '\\' {
			return false
		}
	}
	return true
}

// space skips white space. Our peers' JSON is compact: most calls find
// none, and return on their first comparison.
func (s *Scanner) space() {
	if s.i < len(s.b) && s.b[s.i] > ' ' {
		return
	}
	for s.i < len(s.b) {
		switch s.b[s.i] {
		case ' ', '\t', '\r', '\n':
			s.i++
		default:
			return
		}
	}
}

func (s *Scanner) eat(c byte) bool {
	if s.i < len(s.b) && s.b[s.i] == c {
		s.i++
		return true
	}
	return false
}

// key reads an object key; plain is false for a key with an escape or
// anything but a string.
func (s *Scanner) key() (key []byte, plain bool) {
	if !s.eat('"') {
		return nil, false
	}
	start := s.i
	for s.i < len(s.b) {
		switch c := s.b[s.i]; {
		case c == '"':
			s.i++
			return s.b[start : s.i-1], true
		case c == '\\' || c < 0x20 || c >= 0x80:
			return nil, false // escapes and non-ASCII keys: left to encoding/json
		}
		s.i++
	}
	return nil, false
}

// value skips one JSON value, checking it is valid JSON as it goes.
func (s *Scanner) value() bool {
	if s.i >= len(s.b) {
		return false
	}
	switch c := s.b[s.i]; {
	case c == '"':
		return s.str()
	case c == '{':
		return s.container('}', true)
	case c == '[':
		return s.container(']', false)
	case c == 't':
		return s.literal("true")
	case c == 'f':
		return s.literal("false")
	case c == 'n':
		return s.literal("null")
	case c == '-' || c >= '0' && c <= '9':
		return s.number()
	}
	return false
}

func (s *Scanner) literal(word string) bool {
	if !bytes.HasPrefix(s.b[s.i:], []byte(word)) {
		return false
	}
	s.i += len(word)
	return true
}

// number skips -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?.
func (s *Scanner) number() bool {
	s.eat('-')
	if s.eat('0') {
		// no more integer digits after a leading zero
	} else if !s.digits() {
		return false
	}
	if s.eat('.') && !s.digits() {
		return false
	}
	if s.eat('e') || s.eat('E') {
		if !s.eat('+') {
			s.eat('-')
		}
		if !s.digits() {
			return false
		}
	}
	return true
}

// digits skips one digit or more.
func (s *Scanner) digits() bool {
	start := s.i
	for s.i < len(s.b) && s.b[s.i] >= '0' && s.b[s.i] <= '9' {
		s.i++
	}
	return s.i > start
}

// str skips a string, checking its escapes; bytes that are not valid UTF-8
// are taken, as encoding/json takes them.
func (s *Scanner) str() bool {
	s.i++ // the opening quote
	for {
		s.i += PlainRun(s.b[s.i:])
		if s.i >= len(s.b) {
			return false
		}
		switch s.b[s.i] {
		case '"':
			s.i++
			return true
		case '\\':
			if !s.escape() {
				return false
			}
		default:
			return false // a control byte
		}
	}
}

// PlainRun counts the bytes at the start of b that a JSON string holds as
// they are: up to a quote, a backslash or a control byte (< 0x20). It reads
// eight bytes at a time while eight are left, which is nearly always: a
// string is followed by the rest of its message.
func PlainRun(b []byte) int {
	n := 0
	for ; n+8 <= len(b); n += 8 {
		if stops := stringStops(binary.LittleEndian.Uint64(b[n:])); stops != 0 {
			return n + bits.TrailingZeros64(stops)/8
		}
	}
	for n < len(b) && b[n] >= 0x20 && b[n] != '"' && b[n] != '\\' {
		n++
	}
	return n
}

// Every byte of a word set to 0x01, and to 0x80.
const (
	eachByte01 = 0x0101010101010101
	eachByte80 = 0x8080808080808080
)

// stringStops marks with its high bit each byte of w (eight bytes of a
// string, the first lowest) that is a quote, a backslash or below 0x20.
// For a byte x below 0x80, x - 1 has its high bit set only when x is 0,
// and x - 0x20 only when x < 0x20: w - 0x20 in each byte marks the control
// bytes, w xor '"' in each byte, less 1 in each, the quotes, and likewise
// the backslashes; &^ w drops the bytes of 0x80 and above. A subtraction
// borrows only from a byte it marks, so the lowest mark is exact; those
// above it need not be.
func stringStops(w uint64) uint64 {
	quote, backslash := w^('"'*eachByte01), w^('\\'*eachByte01)
	return ((w - 0x20*eachByte01) | (quote - eachByte01) | (backslash - eachByte01)) &^ w & eachByte80
}

func (s *Scanner) escape() bool {
	if s.i+1 >= len(s.b) {
		return false
	}
	switch s.b[s.i+1] {
	case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
		s.i += 2
		return true
	case 'u':
		if s.i+6 > len(s.b) {
			return false
		}
		for _, h := range s.b[s.i+2 : s.i+6] {
			if !('0' <= h && h <= '9' || 'a' <= h && h <= 'f' || 'A' <= h && h <= 'F') {
				return false
			}
		}
		s.i += 6
		return true
	}
	return false
}

// container skips an object (keyed) or an array up to its closing byte.
func (s *Scanner) container(closing byte, keyed bool) bool {
	s.i++ // the opening bracket
	if s.depth++; s.depth > MaxDepth {
		return false
	}
	ok := s.members(closing, keyed)
	s.depth--
	return ok
}

// members skips a container's members and its closing byte.
func (s *Scanner) members(closing byte, keyed bool) bool {
	s.space()
	if s.eat(closing) {
		return true
	}
	for {
		s.space()
		if keyed {
			if s.i >= len(s.b) || s.b[s.i] != '"' || !s.str() {
				return false
			}
			s.space()
			if !s.eat(':') {
				return false
			}
			s.space()
		}
		if !s.value() {
			return false
		}
		s.space()
		if s.eat(closing) {
			return true
		}
		if !s.eat(',') {
			return false
		}
	}
}
