package wirejson

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

// secret names a token field, as store.SecretKey does (wirejson cannot
// import store).
func secret(key string) bool {
	key = strings.ToLower(key)
	return strings.HasSuffix(key, "token") || strings.HasSuffix(key, "ticket")
}

// redactSamples are messages Redact must copy as decoding, deleting
// the tokens and encoding again would, or leave to that.
var redactSamples = append([]string{
	`{"message_type":"GAME_JOIN_ACK","auth_token":"tok-1","player_id":"P01","accept":true}`,
	` { "message_type" : "A" , "authToken" : "t" , "inner" : { "token" : "t2", "keep" : [ 1 , { "Match_Ticket" : "m", "x" : "y" } ] } } `,
	`{"auth_token":"t"}`, `{"a":1,"auth_token":"t"}`, `{"auth_token":"t","a":1}`, `{"a":{"auth_token":{"deep":[1,2]}},"b":[]}`,
	`{"message_type":null}`, `{"message_type":"A","message_type":"B"}`, `{"Message_Type":"A"}`,
	`{"a":"<&>\u2028","n":1e400,"big":12345678901234567890,"f":-0.5e-3,"s":"\"\\\/\b\f\n\r\t\u00e9"}`,
	"{\"a\":\"é ✓ 𝄞\",\"message_type\":\"GAME_OVER\"}",
	`{"auth\u005ftoken":"t"}`, `{"a":"x","token":"t"} `, "{}\n",
}, scanSamples...)

func TestRedactKeepsWhatDecodingKeeps(t *testing.T) {
	for _, body := range redactSamples {
		checkRedacted(t, []byte(body))
	}
	plain := `{"message_type":"GAME_JOIN_ACK","auth_token":"tok-1","player_id":"P01","accept":true}`
	got, messageType, ok := Redact([]byte(plain), secret, "message_type")
	if want := `{"message_type":"GAME_JOIN_ACK","player_id":"P01","accept":true}`; !ok || string(got) != want || messageType != "GAME_JOIN_ACK" {
		t.Errorf("Redact(%s) = %s, %q, %v; want %s in the same order", plain, got, messageType, ok, want)
	}
}

func FuzzRedact(f *testing.F) {
	for _, body := range redactSamples {
		f.Add([]byte(body))
	}
	f.Fuzz(checkRedacted)
}

// checkRedacted compares Redact's copy of body, when it makes one,
// with what decoding into a map, deleting the tokens and encoding again
// gives: the same members and values, and the same message_type.
func checkRedacted(t *testing.T, body []byte) {
	got, messageType, ok := Redact(body, secret, "message_type")
	var want map[string]any
	if json.Unmarshal(body, &want) != nil || want == nil {
		if ok {
			t.Errorf("%.80q: copied %s, but encoding/json reads no object", body, got)
		}
		return
	}
	if !ok {
		return // left to encoding/json
	}
	DeleteKeys(want, secret)
	wantType, _ := want["message_type"].(string)
	var decoded map[string]any
	if err := json.Unmarshal(got, &decoded); err != nil || !json.Valid(got) {
		t.Fatalf("%.80q: copy %q is not JSON: %v", body, got, err)
	}
	if !reflect.DeepEqual(decoded, want) || messageType != wantType {
		t.Errorf("%.80q: copy %s (message_type %q), encoding/json keeps %v (%q)", body, got, messageType, want, wantType)
	}
	var compact bytes.Buffer
	if err := json.Compact(&compact, got); err != nil || compact.String() != string(got) {
		t.Errorf("%.80q: copy %q is not compact (%v)", body, got, err)
	}
}
