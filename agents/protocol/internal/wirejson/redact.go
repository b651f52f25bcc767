package wirejson

import (
	"strconv"
	"unicode/utf8"
	"unsafe"
)

// Redact copies the JSON object raw in one pass, without white space and
// without every member, at any depth, whose key drop names, and returns
// the copy with the value of the object's top-level member named, when it
// is a string. It keeps the members' order and their values' bytes, so it
// costs a scan where decoding into a map and encoding again cost
// reflection and allocations for each value. ok is false, and the caller
// decodes with encoding/json instead (DeleteKeys), for anything that is
// not a valid object of valid UTF-8, and for a key with an escape or a
// byte beyond ASCII (see ScanObject): a key drop must see as
// encoding/json decodes it. drop must not keep the key it is handed
// beyond its call: it is the body's own bytes, not a string of its own.
func Redact(raw []byte, drop func(key string) bool, named string) (content []byte, value string, ok bool) {
	if !utf8.Valid(raw) {
		return nil, "", false // encoding/json would write U+FFFD in its place
	}
	r := redactor{Scanner: NewScanner(raw), drop: drop, named: named, out: make([]byte, 0, len(raw))}
	if r.i >= len(r.b) || r.b[r.i] != '{' || !r.object() || !r.End() {
		return nil, "", false
	}
	if v := r.namedValue; len(v) > 0 && v[0] == '"' {
		if value, ok = decodeString(v); !ok { // a scanned string of valid UTF-8, as RedactValid's
			return nil, "", false
		}
	}
	return r.out, value, true
}

// redactor is a Scanner that copies what it reads to out.
type redactor struct {
	Scanner
	drop       func(key string) bool
	named      string // the top-level member whose value Redact returns
	out        []byte
	namedValue []byte // that member's value, as it stands in b
}

// copyValue copies one JSON value to out.
func (r *redactor) copyValue() bool {
	if r.i >= len(r.b) {
		return false
	}
	switch r.b[r.i] {
	case '{':
		return r.object()
	case '[':
		return r.array()
	}
	start := r.i
	if !r.Scanner.value() {
		return false
	}
	if c := r.b[start]; c == '-' || c >= '0' && c <= '9' {
		if _, err := strconv.ParseFloat(string(r.b[start:r.i]), 64); err != nil {
			return false // beyond float64: encoding/json refuses the whole message
		}
	}
	r.out = append(r.out, r.b[start:r.i]...)
	return true
}

// object copies an object without the members drop names; the comma goes
// before each member kept but the first.
func (r *redactor) object() bool {
	if !r.open('{') {
		return false
	}
	defer func() { r.depth-- }()
	if r.eat('}') {
		r.out = append(r.out, '}')
		return true
	}
	kept := 0
	for {
		r.space()
		start := r.i
		key, plain := r.key()
		if !plain {
			return false
		}
		quoted := r.b[start:r.i]
		r.space()
		if !r.eat(':') {
			return false
		}
		r.space()
		if r.drop(unsafe.String(unsafe.SliceData(key), len(key))) {
			mark := len(r.out)
			if !r.copyValue() { // checked as the rest is, then cut
				return false
			}
			r.out = r.out[:mark]
		} else {
			if kept++; kept > 1 {
				r.out = append(r.out, ',')
			}
			r.out = append(append(r.out, quoted...), ':')
			valueStart := r.i
			if !r.copyValue() {
				return false
			}
			if r.depth == 1 && string(key) == r.named {
				r.namedValue = r.b[valueStart:r.i] // the last one wins, as in encoding/json
			}
		}
		r.space()
		if r.eat('}') {
			r.out = append(r.out, '}')
			return true
		}
		if !r.eat(',') {
			return false
		}
	}
}

// array copies an array.
func (r *redactor) array() bool {
	if !r.open('[') {
		return false
	}
	defer func() { r.depth-- }()
	if r.eat(']') {
		r.out = append(r.out, ']')
		return true
	}
	for n := 0; ; n++ {
		if n > 0 {
			r.out = append(r.out, ',')
		}
		r.space()
		if !r.copyValue() {
			return false
		}
		r.space()
		if r.eat(']') {
			r.out = append(r.out, ']')
			return true
		}
		if !r.eat(',') {
			return false
		}
	}
}

// open copies an opening bracket, within MaxDepth, and skips the white
// space after it. The caller closes the level (depth--) when it is done.
func (r *redactor) open(bracket byte) bool {
	r.i++
	if r.depth++; r.depth > MaxDepth {
		return false
	}
	r.out = append(r.out, bracket)
	r.space()
	return true
}

// DeleteKeys deletes every member drop names from a decoded JSON value, at
// any depth: what Redact does, for a body it leaves to encoding/json.
func DeleteKeys(v any, drop func(key string) bool) {
	switch v := v.(type) {
	case map[string]any:
		for k, inner := range v {
			if drop(k) {
				delete(v, k)
				continue
			}
			DeleteKeys(inner, drop)
		}
	case []any:
		for _, inner := range v {
			DeleteKeys(inner, drop)
		}
	}
}
