package protocol

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/leaguetui/leaguetui/internal/fill"
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
			fill.Every(msg.Elem(), typ.Name(), nil)
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
