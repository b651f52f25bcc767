package engine

import (
	"reflect"
	"testing"
)

// TestStalledChangesNothing: a stalled event is journaled and replayed
// like any other, and leaves the league as it was.
func TestStalledChangesNothing(t *testing.T) {
	events := suspensionLeague(t)
	without := applyAll(t, events)
	stalled := Event{Kind: EventStalled, MatchID: "R1M1", Referee: "REF01", Detail: "league stalled"}
	with := applyAll(t, append(events[:len(events):len(events)], stalled))
	if with.State != without.State || !reflect.DeepEqual(with.Table.Rows(), without.Table.Rows()) ||
		with.LastSeq() != without.LastSeq()+1 {
		t.Errorf("a stalled event changed the league: state %s, last seq %d; want %s, %d",
			with.State, with.LastSeq(), without.State, without.LastSeq()+1)
	}
}
