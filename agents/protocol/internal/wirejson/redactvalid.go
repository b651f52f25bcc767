package wirejson

import (
	"bytes"
	"encoding/json"
	"strconv"
	"unicode/utf8"
	"unsafe"
)

// RedactValid is Redact for compact JSON known to be valid, as json.Marshal
// writes it (a message we encoded ourselves): it checks only what could
// make Redact refuse valid JSON (invalid UTF-8, a key with an escape or a
// byte beyond ASCII, a number beyond float64, nesting beyond MaxDepth),
// copies the runs between the members it cuts instead of each value, and
// hands drop each key without copying it to a string of its own. When ok,
// its copy and value are Redact's; ok is false, and the caller uses
// Redact, for those cases and for white space. Text that is not valid JSON
// gives no promise: pass only what json.Marshal wrote. drop must not keep
// the key it is handed beyond its call.
func RedactValid(raw []byte, drop func(key string) bool, named string) (content []byte, value string, ok bool) {
	if len(raw) == 0 || raw[0] != '{' || !utf8.Valid(raw) {
		return nil, "", false
	}
	r := validRedactor{b: raw, drop: drop, named: named, out: make([]byte, 0, len(raw))}
	if !r.object(false) || r.i != len(raw) {
		return nil, "", false
	}
	r.out = append(r.out, raw[r.copied:]...)
	if v := r.namedValue; len(v) > 0 && v[0] == '"' {
		if value, ok = decodeString(v); !ok {
			return nil, "", false
		}
	}
	return r.out, value, true
}

// decodeString decodes a valid JSON string, by hand when it has no escape.
func decodeString(quoted []byte) (string, bool) {
	if inner := quoted[1 : len(quoted)-1]; bytes.IndexByte(inner, '\\') < 0 {
		return string(inner), true
	}
	var decoded string // not a result: encoding/json would move it to the heap
	return decoded, json.Unmarshal(quoted, &decoded) == nil
}

// validRedactor walks valid compact JSON and cuts the members drop names:
// out holds b up to copied, less the cuts.
type validRedactor struct {
	b          []byte
	i, depth   int
	copied     int
	drop       func(key string) bool
	named      string
	out        []byte
	namedValue []byte
}

// value skips one value; inCut says it is part of a member already cut,
// whose own members are not cut again.
func (r *validRedactor) value(inCut bool) bool {
	if r.i >= len(r.b) {
		return false
	}
	switch c := r.b[r.i]; {
	case c == '{':
		return r.object(inCut)
	case c == '[':
		return r.array(inCut)
	case c == '"':
		return r.str()
	case c == 't':
		r.i += len("true")
	case c == 'f':
		r.i += len("false")
	case c == 'n':
		r.i += len("null")
	default:
		return r.number()
	}
	return r.i <= len(r.b)
}

// number skips a number, checking it as Redact does where it could be
// beyond float64: one with an exponent or of more than fifteen bytes.
func (r *validRedactor) number() bool {
	start := r.i
	long := false
	for ; r.i < len(r.b); r.i++ {
		c := r.b[r.i]
		if c == 'e' || c == 'E' {
			long = true
		} else if !(c >= '0' && c <= '9' || c == '-' || c == '+' || c == '.') {
			break
		}
	}
	if long || r.i-start > 15 {
		// A syntax error is impossible in valid JSON; a range error is Redact's refusal.
		if _, err := strconv.ParseFloat(string(r.b[start:r.i]), 64); err != nil {
			return false
		}
	}
	return r.i > start
}

// str skips a string, its escapes included.
func (r *validRedactor) str() bool {
	r.i++
	for r.i < len(r.b) {
		r.i += PlainRun(r.b[r.i:])
		if r.i >= len(r.b) {
			return false
		}
		switch r.b[r.i] {
		case '"':
			r.i++
			return true
		case '\\':
			r.i += 2
		default:
			return false // a control byte: not what json.Marshal writes
		}
	}
	return false
}

// key reads a key and its colon; plain is false for one Redact leaves to
// encoding/json.
func (r *validRedactor) key() (key []byte, plain bool) {
	if r.i >= len(r.b) || r.b[r.i] != '"' {
		return nil, false
	}
	start := r.i + 1
	for j := start; j < len(r.b); j++ {
		switch c := r.b[j]; {
		case c == '"':
			if j+1 >= len(r.b) || r.b[j+1] != ':' {
				return nil, false
			}
			r.i = j + 2
			return r.b[start:j], true
		case c == '\\' || c < 0x20 || c >= 0x80:
			return nil, false
		}
	}
	return nil, false
}

// object walks an object, cutting each member drop names unless inCut:
// the comma before it when a member was kept before, else the one after.
func (r *validRedactor) object(inCut bool) bool {
	r.i++
	if r.depth++; r.depth > MaxDepth {
		return false
	}
	defer func() { r.depth-- }()
	if r.i < len(r.b) && r.b[r.i] == '}' {
		r.i++
		return true
	}
	kept := false
	for {
		start := r.i
		key, plain := r.key()
		if !plain {
			return false
		}
		valueStart := r.i
		cut := !inCut && r.drop(unsafe.String(unsafe.SliceData(key), len(key)))
		if !r.value(inCut || cut) {
			return false
		}
		if r.depth == 1 && string(key) == r.named && !cut {
			r.namedValue = r.b[valueStart:r.i] // the last one wins, as in encoding/json
		}
		if r.i >= len(r.b) {
			return false
		}
		closing := r.b[r.i] == '}'
		switch {
		case cut && kept:
			r.cut(start-1, r.i)
		case cut && closing:
			r.cut(start, r.i)
		case cut:
			r.cut(start, r.i+1)
		default:
			kept = true
		}
		r.i++
		if closing {
			return true
		}
		if r.b[r.i-1] != ',' {
			return false
		}
	}
}

// cut leaves b[from:to] out of the copy.
func (r *validRedactor) cut(from, to int) {
	r.out = append(r.out, r.b[r.copied:from]...)
	r.copied = to
}

// array walks an array.
func (r *validRedactor) array(inCut bool) bool {
	r.i++
	if r.depth++; r.depth > MaxDepth {
		return false
	}
	defer func() { r.depth-- }()
	if r.i < len(r.b) && r.b[r.i] == ']' {
		r.i++
		return true
	}
	for {
		if !r.value(inCut) || r.i >= len(r.b) {
			return false
		}
		c := r.b[r.i]
		r.i++
		switch c {
		case ']':
			return true
		case ',':
		default:
			return false
		}
	}
}
