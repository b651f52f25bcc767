package manager

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/leaguetui/leaguetui/agents/protocol"
	"github.com/leaguetui/leaguetui/engine"
	"github.com/leaguetui/leaguetui/internal/fill"
)

// filled is every field an event's journal line carries, set by
// reflection: a field added to engine.Event, or to anything it holds, is
// set here without anyone writing it down.
func filled(t *testing.T) engine.Event {
	var ev engine.Event
	// ParseTiebreakers accepts only the names it knows.
	order, err := engine.ParseTiebreakers([]string{string(engine.TiebreakWins)})
	if err != nil {
		t.Fatal(err)
	}
	given := map[reflect.Type]any{reflect.TypeFor[engine.Tiebreakers](): order}
	fill.Every(reflect.ValueOf(&ev).Elem(), "event", given)
	return ev
}

// TestEveryEventFieldReachesTheJournal: an event with every field set
// (nested structs, slices, maps and pointers included) is journaled and
// read back, as the manager replays its journal and serves its feed,
// exactly as it was, and as encoding/json reads the same line. A field
// added to an event that the journal's line drops fails here.
func TestEveryEventFieldReachesTheJournal(t *testing.T) {
	for name, ev := range map[string]engine.Event{"every field": filled(t)} {
		t.Run(name, func(t *testing.T) {
			line, err := protocol.AppendJSON(nil, &ev)
			if err != nil {
				t.Fatal(err)
			}
			var back engine.Event
			if err := json.Unmarshal(line, &back); err != nil {
				t.Fatalf("%s: %v", line, err)
			}
			if !reflect.DeepEqual(back, ev) {
				t.Errorf("journaled as %s\nread back as %+v\nwritten      %+v", line, back, ev)
			}
			page, err := protocol.AppendJSON(nil, &protocol.FeedPage{Events: []engine.Event{ev}, LastSeq: ev.Seq})
			var served protocol.FeedPage
			if err != nil || json.Unmarshal(page, &served) != nil || len(served.Events) != 1 || !reflect.DeepEqual(served.Events[0], ev) {
				t.Errorf("served as %s (%v), read back as %+v", page, err, served.Events)
			}
		})
	}
}
