package wirejson

import (
	"encoding/json"
	"testing"
)

// result is a struct with the kinds of fields a result has, for Flatten.
type result struct {
	Status  string            `json:"status"`
	Winner  *string           `json:"winner_player_id"`
	Choices map[string]string `json:"choices,omitempty"`
	Round   int               `json:"round,omitempty"`
}

// FuzzFlatten: Flatten writes a struct's fields and any facts beside them
// as encoding/json writes them merged through a map (flattenThroughMap),
// and AppendObject and AppendMember write what encoding/json writes of
// the same members.
func FuzzFlatten(f *testing.F) {
	f.Add(`{"drawn_number":8,"number_parity":"even"}`, "WIN", "P05", 0)
	f.Add(`{"status":"x","a<b":[1,{"c":null}],"é":"\u2028"}`, "<&>\xff", "", 3)
	f.Add(`{"":true,"z":"\ud800","choices":{}}`, "\x00\"\\", "P\u00e9", -1)
	f.Fuzz(func(t *testing.T, facts, text, winner string, round int) {
		var extra map[string]any
		if json.Unmarshal([]byte(facts), &extra) != nil {
			extra = map[string]any{text: text}
		}
		v := result{Status: text, Winner: &winner, Choices: map[string]string{winner: text}, Round: round}
		got, err := Flatten(v, extra)
		base, _ := json.Marshal(v)
		want, wantErr := base, error(nil)
		if len(extra) > 0 {
			want, wantErr = flattenThroughMap(base, extra)
		}
		if string(got) != string(want) || (err == nil) != (wantErr == nil) {
			t.Errorf("Flatten(%+v, %v) = %s, %v; through a map: %s, %v", v, extra, got, err, want, wantErr)
		}
		checkAppended(t, text, base)
	})
}

// checkAppended: a name is written as encoding/json writes a map's key,
// and AppendObject and AppendMember write the members they are given
// where encoding/json puts them.
func checkAppended(t *testing.T, name string, base []byte) {
	quoted, _ := json.Marshal(name)
	key := string(appendName(nil, name))
	if want, _ := json.Marshal(map[string]json.RawMessage{name: quoted}); string(want) != "{"+key+":"+string(quoted)+"}" {
		t.Errorf("name %q written %s; encoding/json writes %s", name, key, want)
	}
	if got, want := AppendObject(nil, Member{"base", base}, Member{name, quoted}), `{"base":`+string(base)+","+key+":"+string(quoted)+"}"; string(got) != want {
		t.Errorf("AppendObject: %s, want %s", got, want)
	}
	if got, want := AppendMember(nil, base, Member{name, quoted}), string(base[:len(base)-1])+","+key+":"+string(quoted)+"}"; string(got) != want {
		t.Errorf("AppendMember: %s, want %s", got, want)
	}
	if got := AppendMember(nil, []byte("{}"), Member{name, quoted}); string(got) != "{"+key+":"+string(quoted)+"}" {
		t.Errorf("AppendMember to {}: %s", got)
	}
}
