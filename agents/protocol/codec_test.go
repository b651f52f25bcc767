package protocol

import (
	"bytes"
	"encoding/json"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// The wire codec against encoding/json. The wire's JSON is written and
// read through one codec (jsontext.go); these fuzzers hold it to
// encoding/json on every type that crosses the wire: each message and
// answer type of the message table, the parts with their own JSON
// methods, the files' types, and each of them again as the bare struct
// of its fields, which is what its own MarshalJSON or UnmarshalJSON
// hands to the codec. One table, so a message added to it is fuzzed
// with no other edit.

// wireTypes are the types the fuzzers hold to encoding/json.
func wireTypes() []reflect.Type {
	var types []reflect.Type
	add := func(typ reflect.Type) {
		if !slices.Contains(types, typ) {
			types = append(types, typ)
			if bare, ok := bareStruct(typ); ok {
				types = append(types, bare)
			}
		}
	}
	for _, spec := range Messages {
		add(reflect.TypeOf(spec.Body))
		add(reflect.TypeOf(spec.Reply))
	}
	for _, part := range []any{GameResult{}, ReportResult{}, ReportDetails{}, MatchResult{}, MatchFile{},
		TranscriptEntry{}, AgentMeta{}, AnnouncedMatch{}, ModelMove{}, Envelope{}} {
		add(reflect.TypeOf(part))
	}
	return types
}

// bareStruct is typ's fields in a struct of their own, without typ's
// methods; false for a type with an unexported field.
func bareStruct(typ reflect.Type) (reflect.Type, bool) {
	fields := make([]reflect.StructField, 0, typ.NumField())
	for field := range typ.Fields() {
		if !field.IsExported() {
			return nil, false
		}
		field.Index, field.Offset = nil, 0
		fields = append(fields, field)
	}
	return reflect.StructOf(fields), true
}

// codecSeeds are bodies in leaguetui's own spellings, in other
// implementations', and hostile ones.
func codecSeeds() [][]byte {
	var seeds [][]byte
	for _, msg := range matchMessages() {
		wire, _ := json.Marshal(msg)
		seeds = append(seeds, wire)
	}
	for _, body := range slices.Concat(spellingSamples, resultSamples, hostileSamples) {
		seeds = append(seeds, []byte(body))
	}
	return seeds
}

// FuzzCodecReads: the wire codec reads any body into every wire type as
// encoding/json reads it (the same value, an error where it errs), and
// Decode reads every message type as encoding/json reads the body once
// its aliases are filled in.
func FuzzCodecReads(f *testing.F) {
	for _, seed := range codecSeeds() {
		f.Add(seed)
	}
	types := wireTypes()
	f.Fuzz(func(t *testing.T, body []byte) {
		if foldsBeyondASCII(body) {
			return
		}
		for _, typ := range types {
			got, want := reflect.New(typ).Interface(), reflect.New(typ).Interface()
			gotErr, wantErr := Unmarshal(body, got), json.Unmarshal(body, want)
			if (gotErr == nil) != (wantErr == nil) || gotErr == nil && !reflect.DeepEqual(got, want) {
				t.Errorf("%.200q into %v: %+v, %v; encoding/json: %+v, %v", body, typ, got, gotErr, want, wantErr)
			}
		}
		for _, spec := range Messages {
			checkDecodedAlike(t, body, newBody(spec))
		}
	})
}

// FuzzCodecWrites: what the wire codec writes of any value encoding/json
// reads from a body, in every wire type, is encoding/json's bytes.
func FuzzCodecWrites(f *testing.F) {
	for _, seed := range codecSeeds() {
		f.Add(seed)
	}
	types := wireTypes()
	f.Fuzz(func(t *testing.T, body []byte) {
		for _, typ := range types {
			v := reflect.New(typ).Interface()
			if json.Unmarshal(body, v) != nil {
				continue
			}
			got, gotErr := Marshal(v)
			want, wantErr := json.Marshal(v)
			if (gotErr == nil) != (wantErr == nil) || !bytes.Equal(got, want) {
				t.Errorf("%v %+v: %s, %v; encoding/json: %s, %v", typ, v, got, gotErr, want, wantErr)
			}
			appended, _ := AppendJSON([]byte("x"), v)
			if gotErr == nil && !bytes.Equal(appended[1:], want) {
				t.Errorf("%v %+v appended: %s; encoding/json: %s", typ, v, appended[1:], want)
			}
		}
	})
}

// foldsBeyondASCII reports a body that may hold a key spelled with the
// Kelvin sign or the long s, which encoding/json folds to k and s (it
// matches keys to fields by Unicode case folding) and the wire codec does
// not (it matches a key to its field exactly or in another ASCII case):
// the one place the two are known to read differently. A peer that
// spells "ſtatus" for "status" is not read as saying status; every
// reader of the wire is the codec, so none reads it otherwise.
func foldsBeyondASCII(body []byte) bool {
	escaped := bytes.ToLower(body) // \u212A is \u212a
	return bytes.ContainsRune(body, '\u212a') || bytes.ContainsRune(body, '\u017f') ||
		bytes.Contains(escaped, []byte(`\u212a`)) || bytes.Contains(escaped, []byte(`\u017f`))
}

// checkDecodedAlike decodes body into a fresh message of proto's type
// with Decode, and again with encoding/json once Decode's aliases are
// filled in, and wants the same value, or an error from both.
func checkDecodedAlike(t *testing.T, body []byte, proto Message) {
	got, want := newOfSameType(proto), newOfSameType(proto)
	gotErr := Decode(body, got)
	if _, custom := proto.(*MoveAnswer); custom {
		return // its own reading (decodeChoice) is the wire types' MoveAnswer and MoveData
	}
	normalized, wantErr := canonical(body, aliasTablesOf(proto)...)
	if wantErr == nil {
		wantErr = json.Unmarshal(normalized, want)
	}
	if (gotErr == nil) != (wantErr == nil) || gotErr == nil && !reflect.DeepEqual(got, want) {
		t.Errorf("Decode %.100q into %T: %+v, %v; encoding/json: %+v, %v", body, proto, got, gotErr, want, wantErr)
	}
}

// newBody is a zero message of spec's type.
func newBody(spec MessageSpec) Message {
	return reflect.New(reflect.TypeOf(spec.Body)).Interface().(Message)
}

// TestDecodingErrorsQuoteNoInput: a value of the wrong type, a number
// past its type and a syntax error are reported without the body's bytes
// (a token sent in the wrong field would come back in the reply), as
// encoding/json reports them: the kind of value and the type.
func TestDecodingErrorsQuoteNoInput(t *testing.T) {
	const secret = "tok-5ecret"
	for body, kind := range map[string]string{
		`{"league_seed":"` + secret + `"}`:     "string",
		`{"league_seed":{"` + secret + `":1}}`: "object",
		`{"match_id":["` + secret + `"]}`:      "array",
		`{"league_seed":1e400}`:                "number",
		`{"round_id":"` + secret + `"}`:        "",
		`{"match_id":"` + secret + `",}`:       "",
		`{"match_id":` + secret + `}`:          "",
	} {
		err := Unmarshal([]byte(body), &StartMatch{})
		if err == nil || strings.Contains(err.Error(), secret) || strings.Contains(err.Error(), "1e400") ||
			kind != "" && !strings.Contains(err.Error(), "cannot unmarshal "+kind+" ") {
			t.Errorf("%s: %v", body, err)
		}
	}
}
