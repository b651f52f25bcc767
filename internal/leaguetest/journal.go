package leaguetest

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"testing"

	"github.com/leaguetui/leaguetui/agents/store"
	"github.com/leaguetui/leaguetui/engine"
)

// Journal reads the events of the league leagueID's journal in the data
// folder dataDir, as they are on disk now. A line that is not an event
// fails the test, except a last one cut short by a write under way.
func Journal(t testing.TB, dataDir, leagueID string) []engine.Event {
	t.Helper()
	f, err := os.Open(store.Layout{Root: dataDir, LeagueID: leagueID}.Journal())
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var events []engine.Event
	cut := "" // a line that is no event: only the last may be, a write under way
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 16<<20)
	for sc.Scan() {
		if cut != "" {
			t.Fatalf("the journal in %s holds a line that is no event: %.200s", dataDir, cut)
		}
		var ev engine.Event
		if json.Unmarshal(sc.Bytes(), &ev) != nil || ev.Kind == "" {
			cut = sc.Text()
			continue
		}
		events = append(events, ev)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return events
}

// JournaledResults counts the results in a league's journal now, 0 while
// it has none; a line under way is not counted. For a test that acts at a
// moment of a league (kill it after its second result).
func JournaledResults(dataDir, leagueID string) int {
	data, _ := os.ReadFile(store.Layout{Root: dataDir, LeagueID: leagueID}.Journal())
	n := 0
	for line := range bytes.Lines(data) {
		if bytes.HasSuffix(line, []byte("\n")) && bytes.Contains(line, []byte(`"kind":"match_result"`)) {
			n++
		}
	}
	return n
}
