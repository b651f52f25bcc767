package noui_test

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/leaguetui/leaguetui/league/noui"
)

// TestJSONOutput runs `leaguetui --no-ui --json` and reads its stdout as a
// script would: one JSON object a line, every feed event in order, then the
// final standings.
func TestJSONOutput(t *testing.T) {
	t.Parallel()
	const players = 4
	run := runHeadless(t, players, 1, 17, "--json")
	lines := strings.Split(strings.TrimSpace(run.stdout), "\n")
	var results, registered int
	for i, line := range lines[:len(lines)-1] {
		var ev noui.JSONEvent
		dec := json.NewDecoder(strings.NewReader(line))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&ev); err != nil {
			t.Fatalf("line %d %q: %v", i+1, line, err)
		}
		if ev.Seq != int64(i+1) || ev.Kind == "" || ev.Time.IsZero() {
			t.Errorf("line %d: seq %d kind %q time %v; want seq %d, a kind and a time", i+1, ev.Seq, ev.Kind, ev.Time, i+1)
		}
		switch ev.Kind {
		case "agent_registered":
			registered++
			if ev.Agent == nil || ev.Agent.ID == "" || ev.Agent.Endpoint == "" {
				t.Errorf("line %d: agent_registered without its agent: %s", i+1, line)
			}
		case "match_result":
			results++
			if r := ev.Result; r == nil || r.MatchID != ev.MatchID || r.Status == "" || r.PlayerA == "" {
				t.Errorf("line %d: match_result without its result: %s", i+1, line)
			}
		case "league_started":
			if ev.Start == nil || len(ev.Start.Players) != players || ev.Start.Seed != 17 || len(ev.Start.Rounds) != players-1 {
				t.Errorf("line %d: league_started without its schedule: %s", i+1, line)
			}
		}
	}
	if registered != players+1 || results != players*(players-1)/2 {
		t.Errorf("%d agent_registered and %d match_result lines, want %d and %d", registered, results, players+1, players*(players-1)/2)
	}
	if kind := lastKind(t, lines); kind != "league_completed" {
		t.Errorf("the last event is %q, want league_completed", kind)
	}
	final := readStandingsLine(t, lines[len(lines)-1])
	if final.Standings.State != "completed" || len(final.Standings.Standings) != players || final.Standings.Seed != 17 {
		t.Errorf("final standings: %+v", final.Standings)
	}
	if strings.Contains(run.stdout, "token") {
		t.Error("--json printed something about a token")
	}
	if !strings.Contains(run.stderr, "league completed") {
		t.Errorf("--json without --quiet keeps the progress on stderr; got %q", run.stderr)
	}

	// --quiet: the same league's standings alone, as its one line or as
	// the table; nothing on stderr.
	quietJSON := runHeadless(t, players, 1, 17, "--json", "--quiet")
	if quietJSON.stderr != "" || strings.Count(quietJSON.stdout, "\n") != 1 {
		t.Fatalf("--json --quiet: stdout %q, stderr %q; want one line and nothing on stderr", quietJSON.stdout, quietJSON.stderr)
	}
	again := readStandingsLine(t, strings.TrimSpace(quietJSON.stdout))
	if got, want := again.Standings.Standings, final.Standings.Standings; len(got) != len(want) || got[0] != want[0] {
		t.Errorf("the same seed gave other standings: %+v, want %+v", got, want)
	}
	if r := final.Standings.Ratings; r == nil || len(r.Players) != players || r.MatchesFitted != final.Standings.MatchesDone ||
		!reflect.DeepEqual(again.Standings.Ratings, r) {
		t.Errorf("--json's standings carry no ratings of every match, or the same seed gave others: %+v and %+v", r, again.Standings.Ratings)
	}
	quiet := runHeadless(t, players, 1, 17, "--quiet")
	var table bytes.Buffer
	noui.PrintStandings(&table, again.Standings)
	if quiet.stderr != "" || quiet.stdout != table.String() {
		t.Errorf("--quiet: stdout %q, stderr %q; want only the table\n%s", quiet.stdout, quiet.stderr, table.String())
	}
}

func lastKind(t *testing.T, lines []string) string {
	t.Helper()
	if len(lines) < 2 {
		t.Fatalf("stdout has %d lines", len(lines))
	}
	var ev noui.JSONEvent
	if err := json.Unmarshal([]byte(lines[len(lines)-2]), &ev); err != nil {
		t.Fatal(err)
	}
	return ev.Kind
}

func readStandingsLine(t *testing.T, line string) noui.JSONStandings {
	t.Helper()
	var final noui.JSONStandings
	if err := json.Unmarshal([]byte(line), &final); err != nil || final.Kind != noui.KindStandings {
		t.Fatalf("last line %q: %v, kind %q; want the standings", line, err, final.Kind)
	}
	return final
}
