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
// exactly as it was, and as encoding/json reads the same line. Twice:
// with every field, and without the three appendEvent leaves to
// encoding/json, so that the hand-written line is the one held. A field
// added to an event that the journal's line drops fails here.
func TestEveryEventFieldReachesTheJournal(t *testing.T) {
	every := filled(t)
	byHand := every
	byHand.Agent, byHand.Start, byHand.Schedule = nil, nil, nil
	if _, sure := appendEvent(nil, &byHand); !sure {
		t.Fatalf("appendEvent left an event of every field it writes to encoding/json: %+v", byHand)
	}
	for name, ev := range map[string]engine.Event{"every field": every, "written by hand": byHand} {
		t.Run(name, func(t *testing.T) {
			line, err := appendEventJSON(nil, &ev)
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
			page, err := appendFeedPage(nil, &protocol.FeedPage{Events: []engine.Event{ev}, LastSeq: ev.Seq})
			var served protocol.FeedPage
			if err != nil || json.Unmarshal(page, &served) != nil || len(served.Events) != 1 || !reflect.DeepEqual(served.Events[0], ev) {
				t.Errorf("served as %s (%v), read back as %+v", page, err, served.Events)
			}
		})
	}
}
