package protocol

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"
)

// TestEveryFieldCrossesTheWire: every message type of the message table,
// and every answer type, with every field set (nested structs, slices,
// maps and pointers included, and a result's facts, which travel flat
// beside its fields), comes out of the wire the way the league's agents
// send and read it exactly as it went in, and as encoding/json reads the
// same bytes: a field the codec dropped on send or on read fails here.
// The ways a message goes out: a request framed around the message
// (EncodeRequest), around the message encoded once for many peers
// (Encode), and an answer (EncodeResult); the ways it is read: a server's
// ParseRequest, Route and Decode, and a client's ParseReply and Decode.
func TestEveryFieldCrossesTheWire(t *testing.T) {
	seen := map[reflect.Type]bool{}
	for _, spec := range Messages {
		for i, zero := range []any{spec.Body, spec.Reply} {
			typ := reflect.TypeOf(zero)
			if seen[typ] {
				continue
			}
			seen[typ] = true
			msg := reflect.New(typ)
			fillEveryField(msg.Elem(), typ.Name(), 0)
			sent := msg.Interface().(Message)
			if i == 0 { // routed by its message_type, as the league's own are
				sent.Header().MessageType = spec.Type
			}
			method := spec.ToolName()
			t.Run(typ.Name(), func(t *testing.T) {
				encoded, err := Encode(sent)
				if err != nil {
					t.Fatal(err)
				}
				for _, params := range []any{sent, encoded} {
					body, err := EncodeRequest(method, params, 7)
					if err != nil {
						t.Fatal(err)
					}
					req, rpcErr := ParseRequest(body)
					if rpcErr != nil {
						t.Fatalf("%s: %v", body, rpcErr)
					}
					in, ok := req.Route()
					if !ok || (i == 0 && in.MessageType != spec.Type) {
						t.Fatalf("%s routed to %q (%v)", body, in.MessageType, ok)
					}
					checkSurvives(t, "request "+string(body), in.Body, sent)
				}
				reply, err := EncodeResult(json.RawMessage("7"), sent)
				if err != nil {
					t.Fatal(err)
				}
				raw, err := ParseReply(reply)
				if err != nil {
					t.Fatalf("%s: %v", reply, err)
				}
				checkSurvives(t, "reply "+string(reply), raw, sent)
			})
		}
	}
}

// checkSurvives decodes wire as the agents do and wants sent back, and
// what encoding/json reads of the same bytes.
func checkSurvives(t *testing.T, what string, wire []byte, sent Message) {
	t.Helper()
	got := reflect.New(reflect.TypeOf(sent).Elem()).Interface().(Message)
	if err := Decode(wire, got); err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	if !reflect.DeepEqual(got, sent) {
		t.Errorf("%s\nread back as %+v\nsent         %+v", what, got, sent)
	}
	oracle := reflect.New(reflect.TypeOf(sent).Elem()).Interface()
	if err := json.Unmarshal(wire, oracle); err != nil || !reflect.DeepEqual(got, oracle) {
		t.Errorf("%s\nread as %+v\nencoding/json reads %+v (%v)", what, got, oracle, err)
	}
}

// fillEveryField sets every field v's JSON carries to a value of its own,
// not zero, named after path: the fields of structs (a json:"-" field
// only when it is a map, a game's facts that travel flat), one element
// of each slice and map, through pointers. Strings are lower case, as a
// move is once read, and no "draw", which reads as no winner.
func fillEveryField(v reflect.Value, path string, depth int) {
	if depth > 8 {
		return
	}
	name := strings.ToLower(strings.NewReplacer(".", "-", "[", "-", "]", "").Replace(path))
	switch v.Kind() {
	case reflect.Struct:
		if v.Type() == reflect.TypeFor[time.Time]() {
			v.Set(reflect.ValueOf(time.Date(2026, 11, 23, 18, 0, 0, 123, time.UTC)))
			return
		}
		for i := range v.NumField() {
			f := v.Type().Field(i)
			if !f.IsExported() || (f.Tag.Get("json") == "-" && f.Type.Kind() != reflect.Map) {
				continue
			}
			fillEveryField(v.Field(i), path+"."+f.Name, depth+1)
		}
	case reflect.Pointer:
		v.Set(reflect.New(v.Type().Elem()))
		fillEveryField(v.Elem(), path, depth+1)
	case reflect.Slice:
		if v.Type() == reflect.TypeFor[json.RawMessage]() {
			v.SetBytes([]byte(fmt.Sprintf(`{"raw":%q}`, name)))
			return
		}
		v.Set(reflect.MakeSlice(v.Type(), 1, 1))
		fillEveryField(v.Index(0), path+"[0]", depth+1)
	case reflect.Map:
		v.Set(reflect.MakeMap(v.Type()))
		key := reflect.New(v.Type().Key()).Elem()
		fillEveryField(key, path+".key", depth+1)
		value := reflect.New(v.Type().Elem()).Elem()
		fillEveryField(value, path+".value", depth+1)
		v.SetMapIndex(key, value)
	case reflect.Interface:
		v.Set(reflect.ValueOf(name)) // a string decodes into an any as itself
	case reflect.String:
		v.SetString(name)
	case reflect.Bool:
		v.SetBool(true)
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		v.SetInt(int64(7 + depth))
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		v.SetUint(uint64(7 + depth))
	case reflect.Float32, reflect.Float64:
		v.SetFloat(1.5 + float64(depth))
	}
}
