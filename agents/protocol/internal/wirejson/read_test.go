package wirejson

import (
	"encoding/json"
	"reflect"
	"slices"
	"testing"
)

// sample has a field of each kind a result has.
type sample struct {
	Name    string            `json:"name"`
	Winner  *string           `json:"winner"`
	Choices map[string]string `json:"choices"`
	Done    bool              `json:"done"`
	Score   map[string]int    `json:"score"`
	Facts   map[string]any    `json:"-"`
}

var sampleShape = Shape[sample]{
	Fields: []Field[sample]{
		{"name", func(s *sample, raw []byte) bool { return ReadString(raw, &s.Name) }},
		{"winner", func(s *sample, raw []byte) bool { return ReadOptional(raw, &s.Winner) }},
		{"choices", func(s *sample, raw []byte) bool { return ReadMap(raw, &s.Choices, ReadString) }},
		{"done", func(s *sample, raw []byte) bool { return ReadBool(raw, &s.Done) }},
		{"score", func(s *sample, raw []byte) bool { return ReadMap(raw, &s.Score, ReadInt) }},
	},
	Aliases: map[string][]string{"winner": {"winner_id", "champion"}},
	Facts:   func(s *sample) *map[string]any { return &s.Facts },
}

// FuzzReadObject: where ReadObject reads an object, it reads what
// decoding it through a map of raw fields reads (sampleThroughMap).
func FuzzReadObject(f *testing.F) {
	for _, body := range append([]string{
		`{"name":"a","winner":"P1","choices":{"P1":"even"},"done":true,"score":{"P1":3},"drawn":8,"x":[1,{"y":null}]}`,
		`{"winner_id":"P2","champion":"P3","winner_id":"P4","facts":"\u00e9"}`, `{"winner":null,"champion":"P3"}`,
		`{"Name":"a"}`, `{"name":"a","name":"b"}`, `{"score":{"P1":1.5}}`, `{"choices":{"a":null},"done":null}`,
	}, scanSamples...) {
		f.Add([]byte(body))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		var got sample
		if !ReadObject(body, &got, &sampleShape) {
			return // left to the map
		}
		want, err := sampleThroughMap(body)
		if err != nil || !reflect.DeepEqual(got, want) {
			t.Errorf("%.200q: read %+v; through a map %+v, %v", body, got, want, err)
		}
	})
}

// sampleThroughMap decodes body as a result was decoded before the one
// pass: into a map of raw fields, each absent field filled in from the
// first of its other spellings present, then into the struct; every
// other member among the facts.
func sampleThroughMap(body []byte) (sample, error) {
	var s sample
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(body, &fields); err != nil {
		return s, err
	}
	for key, spellings := range sampleShape.Aliases {
		if _, ok := fields[key]; ok {
			continue
		}
		for _, other := range spellings {
			if v, ok := fields[other]; ok {
				fields[key] = v
				break
			}
		}
	}
	normalized, err := json.Marshal(fields)
	if err != nil {
		return s, err
	}
	if err := json.Unmarshal(normalized, &s); err != nil {
		return s, err
	}
	for key, raw := range fields {
		if slices.ContainsFunc(sampleShape.Fields, func(f Field[sample]) bool { return f.Name == key }) || spellsAlias(sampleShape.Aliases, []byte(key)) {
			continue
		}
		var v any
		if json.Unmarshal(raw, &v) == nil {
			if s.Facts == nil {
				s.Facts = map[string]any{}
			}
			s.Facts[key] = v
		}
	}
	return s, nil
}

func TestReadObjectHoldingSomething(t *testing.T) {
	held := sample{Name: "x"}
	if ReadObject([]byte(`{"done":true}`), &held, &sampleShape) {
		t.Errorf("read into a value that held %+v", held)
	}
}
