package protocol

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"reflect"
	"sync"
	"unicode/utf8"

	fastjson "github.com/segmentio/encoding/json"
)

// The hot paths' JSON: every message a match sends or receives, in every
// agent, is encoded and decoded through Marshal and Unmarshal, which use
// github.com/segmentio/encoding/json (a drop-in for encoding/json that
// skips most of its reflection) and give the result encoding/json gives:
// the same bytes out, the same values in (FuzzCodecDecode and
// FuzzCodecEncode hold them to it with encoding/json as the oracle).
// Wherever the fast library fails, encoding/json does the same work again,
// so a failure is always encoding/json's own, with its error (the types
// callers inspect with errors.As, the text a peer is sent back) and the
// value it leaves: a hostile body gets what it got before, for at most
// twice the decoding.

// codec is the implementation Marshal and Unmarshal use; the benchmarks
// compare it with encoding/json's.
var codec = fastCodec

type jsonCodec struct {
	marshal       func(any) ([]byte, error)
	marshalIndent func(any, string, string) ([]byte, error)
	unmarshal     func([]byte, any) error
}

var (
	fastCodec = jsonCodec{marshal: fastjson.Marshal, marshalIndent: fastjson.MarshalIndent, unmarshal: fastjson.Unmarshal}
	stdCodec  = jsonCodec{marshal: json.Marshal, marshalIndent: json.MarshalIndent, unmarshal: json.Unmarshal}
)

// Marshal encodes v as json.Marshal does, byte for byte.
func Marshal(v any) ([]byte, error) {
	if _, generic := v.(map[string]any); generic {
		return json.Marshal(v)
	}
	if data, err := codec.marshal(v); err == nil {
		return data, nil
	}
	return json.Marshal(v)
}

// MarshalIndent encodes v as json.MarshalIndent does, byte for byte.
func MarshalIndent(v any, prefix, indent string) ([]byte, error) {
	if data, err := codec.marshalIndent(v, prefix, indent); err == nil {
		return data, nil
	}
	return json.MarshalIndent(v, prefix, indent)
}

// Unmarshal decodes data into v as json.Unmarshal does. Where the fast
// library fails, v is put back as it was and encoding/json decodes it
// again, so v is left as encoding/json leaves it (it touches nothing on
// a syntax error, the fast library may have filled some fields by then).
// Putting v back is a shallow copy: a value given to Unmarshal already
// holding maps or pointers could see them changed, as the hot paths' fresh
// messages cannot.
func Unmarshal(data []byte, v any) error {
	target := reflect.ValueOf(v)
	if !fastDecodable(data) || generic(v) || target.Kind() != reflect.Pointer || target.IsNil() {
		return json.Unmarshal(data, v) // and a v that is no pointer gets its InvalidUnmarshalError
	}
	value := target.Elem()
	var saved reflect.Value
	if !value.IsZero() {
		saved = reflect.New(value.Type()).Elem()
		saved.Set(value)
	}
	if codec.unmarshal(data, v) == nil {
		return nil
	}
	if saved.IsValid() {
		value.Set(saved)
	} else {
		value.SetZero()
	}
	return json.Unmarshal(data, v)
}

// maxNesting is encoding/json's limit on nested arrays and objects, past
// which it fails and the fast library does not.
const maxNesting = 10000

// fastDecodable reports a body the fast library reads as encoding/json
// does: plain ASCII without escapes, so that its keys can only match a
// field's name the way both fold ASCII (encoding/json also folds 'ſ' to
// 's' and the Kelvin sign to 'k'; the fast library does not), and too few
// brackets to nest past maxNesting. Leaguetui's own messages are; what is
// not goes to encoding/json alone.
func fastDecodable(data []byte) bool {
	if bytes.IndexByte(data, '\\') >= 0 || bytes.Count(data, []byte("["))+bytes.Count(data, []byte("{")) > maxNesting {
		return false
	}
	for len(data) >= 8 {
		if binary.LittleEndian.Uint64(data)&0x8080808080808080 != 0 {
			return false
		}
		data = data[8:]
	}
	for _, c := range data {
		if c >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// generic reports what the fast library decodes more slowly than
// encoding/json: the generic forms (a map of raw fields or of any value,
// an any), which the games' facts beside a result go through, and a
// struct with a map of strings among its own fields (a result's
// choices), which it makes room for 64 entries in (4.7 KB for two).
func generic(v any) bool {
	switch v.(type) {
	case *map[string]any, *map[string]json.RawMessage, *any:
		return true
	}
	t := reflect.TypeOf(v).Elem()
	if known, ok := holdsStringMap.Load(t); ok {
		return known.(bool)
	}
	holds := ownsStringMap(t)
	holdsStringMap.Store(t, holds)
	return holds
}

// holdsStringMap caches ownsStringMap by type.
var holdsStringMap sync.Map

// ownsStringMap reports a struct with a map of string keys to strings,
// any values, raw fields, booleans or lists of strings among its own
// fields or those of the structs it embeds or holds by value, skipping
// those that decode themselves.
func ownsStringMap(t reflect.Type) bool {
	if t.Kind() != reflect.Struct || reflect.PointerTo(t).Implements(unmarshalerType) {
		return false
	}
	for i := range t.NumField() {
		switch f := t.Field(i).Type; {
		case f.Kind() == reflect.Map && f.Key().Kind() == reflect.String && presized(f.Elem()):
			return true
		case ownsStringMap(f):
			return true
		}
	}
	return false
}

var unmarshalerType = reflect.TypeFor[json.Unmarshaler]()

// presized: the map values the fast library makes room for 64 of.
func presized(elem reflect.Type) bool {
	switch {
	case elem.Kind() == reflect.String, elem.Kind() == reflect.Bool, elem.Kind() == reflect.Interface && elem.NumMethod() == 0:
		return true
	case elem == reflect.TypeFor[json.RawMessage](), elem == reflect.TypeFor[[]string]():
		return true
	}
	return false
}
