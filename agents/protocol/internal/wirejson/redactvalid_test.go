package wirejson

import (
	"bytes"
	"encoding/json"
	"testing"
)

// TestRedactValidAsRedact: on the compact form of every sample, RedactValid
// copies what Redact copies, or leaves it to Redact; on a message as the
// referee encodes it, it does the work itself.
func TestRedactValidAsRedact(t *testing.T) {
	for _, body := range redactSamples {
		checkRedactValid(t, []byte(body))
	}
	own := `{"protocol":"league.v2","message_type":"GAME_OVER","sender":"referee:REF01","auth_token":"tok","league_id":"l",` +
		`"round_id":3,"game_result":{"status":"WIN","choices":{"P01":"odd"},"drawn_number":7,"ticket":{"a":[1,{"token":2}]}},"reason":"x"}`
	got, messageType, ok := RedactValid([]byte(own), secret, "message_type")
	want := `{"protocol":"league.v2","message_type":"GAME_OVER","sender":"referee:REF01","league_id":"l",` +
		`"round_id":3,"game_result":{"status":"WIN","choices":{"P01":"odd"},"drawn_number":7},"reason":"x"}`
	if !ok || string(got) != want || messageType != "GAME_OVER" {
		t.Errorf("RedactValid = %s, %q, %v; want %s", got, messageType, ok, want)
	}
	for _, spaced := range []string{`{ "a":1}`, `{"a" :1}`, `{"a":[1, 2]}`, "{\"a\":1}\n", ` {}`} {
		if _, _, ok := RedactValid([]byte(spaced), secret, "message_type"); ok {
			t.Errorf("RedactValid took %q, which is not compact", spaced)
		}
	}
}

func FuzzRedactValid(f *testing.F) {
	for _, body := range redactSamples {
		f.Add([]byte(body))
	}
	f.Fuzz(checkRedactValid)
}

// checkRedactValid gives RedactValid the compact form of body, when body
// is JSON (what json.Marshal would write of it), and holds its copy and
// value to Redact's.
func checkRedactValid(t *testing.T, body []byte) {
	var compact bytes.Buffer
	if json.Compact(&compact, body) != nil {
		return // RedactValid is only for valid JSON
	}
	valid := compact.Bytes()
	got, gotValue, ok := RedactValid(valid, secret, "message_type")
	if !ok {
		return // left to Redact
	}
	want, wantValue, wantOK := Redact(valid, secret, "message_type")
	if !wantOK || !bytes.Equal(got, want) || gotValue != wantValue {
		t.Errorf("%.80q: RedactValid = %s, %q; Redact = %s, %q, %v", valid, got, gotValue, want, wantValue, wantOK)
	}
}
