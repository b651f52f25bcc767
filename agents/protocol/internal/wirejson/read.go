package wirejson

import (
	"bytes"
	"encoding/json"
	"reflect"
	"slices"
	"strconv"
)

// Shape is how ReadObject reads an object into a T: each field's key, the
// other spellings a field may come under, and where the other members go.
// ReadObject reads an object as decoding it through a map of raw fields
// would (filling each field from its key, else from the first other
// spelling present; keeping every other member, decoded as encoding/json
// decodes it into an any, among the facts), in one walk of its text.
// Where its reading could differ from the map's, it says so and leaves the
// object to the map:
//   - a key that names a field in another case (encoding/json folds case,
//     and the map kept it as a fact too);
//   - a field given twice (encoding/json merges a map given twice; the
//     map, when an alias is filled in, keeps the last);
//   - a value its field does not take as encoding/json would (a number for
//     a string, a float for an int, a string with an escaped key...);
//   - a receiver that already holds something (encoding/json decodes into
//     what is there);
//   - anything ScanObject does not walk.
type Shape[T any] struct {
	Fields  []Field[T]
	Aliases map[string][]string      // a field's name → its other spellings, the first present wins; nil for none
	Facts   func(*T) *map[string]any // where the other members go; nil: they are dropped
}

// Field reads the value of one field's key into a T, as encoding/json
// would, or says it cannot.
type Field[T any] struct {
	Name string // as the field's json tag spells it
	Read func(into *T, raw []byte) bool
}

// ReadObject decodes data into *into in one pass, as shape says, and is
// true; or it is false and leaves *into as it was.
func ReadObject[T any](data []byte, into *T, shape *Shape[T]) bool {
	if !reflect.ValueOf(into).Elem().IsZero() {
		return false
	}
	var got T
	var present uint64 // bit i: Fields[i] is in data
	var spelled []aliasValue
	ok := ScanObject(data, func(key, raw []byte) bool {
		for i, f := range shape.Fields {
			switch {
			case string(key) == f.Name:
				if present&(1<<i) != 0 {
					return false
				}
				present |= 1 << i
				return f.Read(&got, raw)
			case bytes.EqualFold(key, []byte(f.Name)):
				return false
			}
		}
		if spellsAlias(shape.Aliases, key) {
			spelled = append(spelled, aliasValue{string(key), raw}) // the last of a repeated one wins, as in the map
			return true
		}
		if shape.Facts == nil {
			return true
		}
		return readFact(shape.Facts(&got), key, raw)
	})
	if !ok {
		return false
	}
	for i, f := range shape.Fields {
		if present&(1<<i) != 0 || shape.Aliases == nil {
			continue
		}
		if raw := firstSpelled(shape.Aliases[f.Name], spelled); raw != nil && !f.Read(&got, raw) {
			return false
		}
	}
	*into = got
	return true
}

// aliasValue is the value under another spelling of a field.
type aliasValue struct {
	key string
	raw []byte
}

// spellsAlias reports key as one of aliases' other spellings.
func spellsAlias(aliases map[string][]string, key []byte) bool {
	for _, list := range aliases {
		if slices.Contains(list, string(key)) {
			return true
		}
	}
	return false
}

// firstSpelled is the value of the first of spellings that was present,
// the last one given of it; nil if none was.
func firstSpelled(spellings []string, spelled []aliasValue) []byte {
	for _, s := range spellings {
		var raw []byte
		for _, v := range spelled {
			if v.key == s {
				raw = v.raw
			}
		}
		if raw != nil {
			return raw
		}
	}
	return nil
}

// readFact puts a member that is no field among the facts, decoded as
// encoding/json decodes it into an any; the last of a repeated key wins.
func readFact(facts *map[string]any, key, raw []byte) bool {
	var v any
	switch raw[0] {
	case '"':
		var s string
		if !ReadString(raw, &s) {
			return false
		}
		v = s
	case 't', 'f':
		v = raw[0] == 't'
	case 'n':
		v = nil
	case '{', '[':
		if json.Unmarshal(raw, &v) != nil { // the map's decoding of a fact went to encoding/json too
			return false
		}
	default:
		f, err := strconv.ParseFloat(string(raw), 64)
		if err != nil {
			return false // out of range: the map dropped it, silently
		}
		v = f
	}
	if *facts == nil {
		*facts = make(map[string]any, 2)
	}
	(*facts)[string(key)] = v
	return true
}

// ReadOptional decodes a JSON string into a new *string, null into nil.
func ReadOptional(raw []byte, dst **string) bool {
	if string(raw) == "null" {
		*dst = nil
		return true
	}
	var s string
	if raw[0] != '"' || !ReadString(raw, &s) {
		return false
	}
	*dst = &s
	return true
}

// ReadBool decodes true or false; null leaves dst, as encoding/json does.
func ReadBool(raw []byte, dst *bool) bool {
	switch string(raw) {
	case "true", "false":
		*dst = raw[0] == 't'
	case "null":
	default:
		return false
	}
	return true
}

// ReadInt reads an integer as encoding/json reads it into an int or an
// int64 (a float such as 3.0 is an error there, and so is a number out of
// the type's range); null leaves dst.
func ReadInt[T int | int64](raw []byte, dst *T) bool {
	if string(raw) == "null" {
		return true
	}
	bits := 64
	if _, isInt := any(*dst).(int); isInt {
		bits = strconv.IntSize
	}
	n, err := strconv.ParseInt(string(raw), 10, bits)
	if err != nil {
		return false
	}
	*dst = T(n)
	return true
}

// ReadMap decodes an object into a new map, each value with read, or null
// into nil. A null value is the zero value, as encoding/json makes it.
func ReadMap[V any](raw []byte, dst *map[string]V, read func([]byte, *V) bool) bool {
	if string(raw) == "null" {
		*dst = nil
		return true
	}
	if raw[0] != '{' {
		return false
	}
	m := make(map[string]V, 2)
	*dst = m
	return ScanObject(raw, func(key, value []byte) bool {
		var v V
		if !read(value, &v) {
			return false
		}
		m[string(key)] = v
		return true
	})
}
