package manager

import (
	"bufio"
	"bytes"
	"encoding/json"
	"math"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/leaguetui/leaguetui/agents/protocol"
	"github.com/leaguetui/leaguetui/agents/store"
	"github.com/leaguetui/leaguetui/engine"
	"github.com/leaguetui/leaguetui/internal/leaguetest"
)

// TestEventJSONIsEncodingJSON: every line of a real league's journal is
// the bytes encoding/json writes for its event, and the feed's pages too. The league (a headless round robin of real agent
// processes) journals registrations, the start, rounds, assignments,
// steps and results; the events it does not (a pause, a stop, a
// suspension, a technical loss, odd strings and numbers) are checked on
// their own.
func TestEventJSONIsEncodingJSON(t *testing.T) {
	dir := t.TempDir()
	run := leaguetest.RunLeaguetui(t, dir, 3*time.Minute, nil, "--no-ui", "--quiet", "--free-ports", "--data", dir,
		"--seed", "11", "--referees", "2", "--players", "4")
	if run.Err != nil {
		t.Fatalf("leaguetui: %v\n%s", run.Err, run.Stderr)
	}
	var events []engine.Event
	for _, line := range journalLines(t, store.Layout{Root: dir, LeagueID: leaguetest.LeagueIn(t, dir)}.Journal()) {
		var ev engine.Event
		if err := json.Unmarshal(line, &ev); err != nil {
			t.Fatalf("journal line %s: %v", line, err)
		}
		if want := mustMarshal(t, ev); !bytes.Equal(line, want) {
			t.Errorf("the journal holds\n%s\nencoding/json writes\n%s", line, want)
		}
		checkEventJSON(t, ev)
		events = append(events, ev)
	}
	checkFeedPages(t, events)
	for _, ev := range unusualEvents() {
		checkEventJSON(t, ev)
	}
	checkFeedPages(t, slices.DeleteFunc(unusualEvents(), func(ev engine.Event) bool {
		_, err := journalLine(nil, &ev)
		return err != nil // never journaled, never on the feed
	}))
}

// checkFeedPages holds the feed's pages to json.Marshal on pages of events
// as the feed serves them (without secrets), a page of all of them and
// one of each, and on pages without events, with a storage failure.
func checkFeedPages(t *testing.T, events []engine.Event) {
	t.Helper()
	pages := []protocol.FeedPage{{LastSeq: 9, State: engine.LeagueRunning}, {Events: []engine.Event{}, State: engine.LeaguePaused,
		StorageFailure: "cannot write the league journal in /data <x>: no space left on device"}}
	pages = append(pages, protocol.FeedPage{Events: withoutSecrets(slices.Clone(events)), LastSeq: int64(len(events)),
		State: engine.LeagueCompleted})
	for _, ev := range withoutSecrets(slices.Clone(events)) {
		pages = append(pages, protocol.FeedPage{Events: []engine.Event{ev}, LastSeq: ev.Seq, State: engine.LeagueRunning})
	}
	for _, page := range pages {
		want, wantErr := json.Marshal(page)
		got, err := protocol.AppendJSON(nil, &page)
		if (err != nil) != (wantErr != nil) || err == nil && !bytes.Equal(got, want) {
			t.Fatalf("the feed wrote\n%s (%v)\nencoding/json writes\n%s (%v)", got, err, want, wantErr)
		}
	}
}

// journalLines are the lines of a journal file.
func journalLines(t *testing.T, path string) [][]byte {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var lines [][]byte
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, 16<<20)
	for sc.Scan() {
		lines = append(lines, bytes.Clone(sc.Bytes()))
	}
	if len(lines) == 0 {
		t.Fatalf("%s is empty", path)
	}
	return lines
}

func mustMarshal(t testing.TB, v any) []byte {
	t.Helper()
	data, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// checkEventJSON holds the journal's line of ev (journalLine, after what
// the buffer held) to json.Marshal.
func checkEventJSON(t testing.TB, ev engine.Event) {
	t.Helper()
	want, wantErr := json.Marshal(ev)
	prefix := []byte("prefix ")
	got, err := journalLine(bytes.Clone(prefix), &ev)
	if !bytes.HasPrefix(got, prefix) || (err != nil) != (wantErr != nil) || err == nil && !bytes.Equal(got[len(prefix):], want) {
		t.Fatalf("the journal wrote\n%s (%v)\nencoding/json writes\n%s (%v)", got, err, want, wantErr)
	}
}

// unusualEvents are events a short league does not journal, and values
// encoding/json escapes or formats in its own way.
func unusualEvents() []engine.Event {
	at := time.Date(2026, 3, 4, 5, 6, 7, 890, time.UTC)
	tech := engine.Result{MatchID: "R2M3", Round: 2, PlayerA: "P01", PlayerB: "P02", Status: engine.StatusTechnicalLoss,
		Winner: "P02", Offenders: []string{"P01"}}
	both := engine.Result{MatchID: "R2M4", Round: 2, PlayerA: "P03", PlayerB: "P04", Status: engine.StatusTechnicalLoss,
		Offenders: []string{"P03", "P04"}}
	none := engine.Result{MatchID: "x", Status: "ODD", Offenders: []string{}}
	odd := "a \"quoted\" <b>&amp;</b> back\\slash\ttab\nline\u2028sep\u2029 é \xff\x01 \U0001F600"
	facts := &engine.MatchFacts{Moves: map[string]string{"P01": "even", "P02": odd},
		Details: map[string]any{"drawn_number": 8.0, "tiny": 1e-7, "huge": 1e21, "big": 1e20, "neg": -0.5, "zero": math.Copysign(0, -1),
			"parity": "even", "won": true, odd: false}, Reason: odd}
	return []engine.Event{
		{Seq: 1, Time: at, Kind: engine.EventPaused, Detail: "paused by the admin"},
		{Seq: 2, Time: at, Kind: engine.EventResumed},
		{Seq: 3, Time: at, Kind: engine.EventStopped, Detail: odd},
		{Seq: 4, Time: at, Kind: engine.EventPlayerSuspended, AgentID: "P01", Detail: "3 technical losses in a row"},
		{Seq: 5, Time: at, Kind: engine.EventRefereeSuspended, AgentID: "REF01"},
		{Seq: 6, Time: at, Kind: engine.EventStalled, MatchID: "R1M1", Referee: "REF02", Detail: "no referee could take it"},
		{Seq: 7, Time: at, Kind: engine.EventRestarted},
		{Seq: 8, Time: at, Kind: engine.EventMatchResult, Round: 2, MatchID: "R2M3", Referee: "REF01", Result: &tech,
			Facts: &engine.MatchFacts{Reason: "P01 did not answer"}},
		{Seq: 9, Time: at, Kind: engine.EventMatchResult, Round: 2, MatchID: "R2M4", Referee: "REF01", Result: &both,
			Facts: &engine.MatchFacts{}},
		{Seq: 10, Time: at, Kind: engine.EventMatchResult, MatchID: "x", Result: &none, Facts: facts},
		{Seq: 11, Time: at, Kind: engine.EventMatchStep, Round: 1, MatchID: "R1M1", Referee: "REF01", Step: odd, Detail: odd},
		{Seq: 12, Time: at.In(time.FixedZone("CET", 3600)), Kind: engine.EventPaused},
		{Seq: 13, Time: time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC), Kind: engine.EventPaused},
		{Seq: 14, Time: at, Kind: engine.EventMatchResult, Facts: &engine.MatchFacts{Details: map[string]any{"nan": math.NaN()}}},
		{Seq: 15, Time: at, Kind: engine.EventMatchResult, Facts: &engine.MatchFacts{Details: map[string]any{"n": json.Number("12")}}},
		{Seq: 16, Time: at, Kind: engine.EventAgentRegistered, Agent: &engine.AgentInfo{ID: "P01", Role: engine.RolePlayer}},
		{Kind: engine.EventStorageFailed},
	}
}

// FuzzEventJSON: the journal writes any event as json.Marshal does.
//
//	go test -run '^$' -fuzz FuzzEventJSON -fuzztime 60s ./agents/manager
func FuzzEventJSON(f *testing.F) {
	f.Add(int64(42), int64(1772600000), int64(123456789), "match_result", 3, "R3M2", "REF01", "P01 wins", "WIN",
		"P01", "P01,P02", "even", "odd", "drawn_number", 8.0, true, "P01 chose even, 8 is even", "", "")
	f.Add(int64(-1), int64(-62135596800-1), int64(0), "<&>", -2, "\u2028", "é", "\xff", "", "", "", "", "\x00",
		"", 1e-7, false, "", "P09", "a\nb")
	f.Fuzz(func(t *testing.T, seq, sec, nsec int64, kind string, round int, matchID, referee, step, status, winner,
		offenders, moveA, moveB, factKey string, number float64, flag bool, reason, agentID, detail string) {
		ev := engine.Event{Seq: seq, Time: time.Unix(sec, nsec).UTC(), Kind: engine.EventKind(kind), Round: round,
			MatchID: matchID, Referee: referee, Step: step, AgentID: agentID, Detail: detail}
		if status != "" {
			ev.Result = &engine.Result{MatchID: matchID, Round: round, PlayerA: moveA, PlayerB: moveB,
				Status: engine.Status(status), Winner: winner}
			if offenders != "" {
				ev.Result.Offenders = strings.Split(offenders, ",")
			}
		}
		if reason != "" || factKey != "" || moveA != "" {
			ev.Facts = &engine.MatchFacts{Moves: map[string]string{}, Details: map[string]any{}, Reason: reason}
			if moveA != "" {
				ev.Facts.Moves["P01"], ev.Facts.Moves[moveB] = moveA, moveB
			}
			if factKey != "" {
				ev.Facts.Details[factKey], ev.Facts.Details[factKey+"?"], ev.Facts.Details[reason] = number, flag, factKey
			}
		}
		if flag && sec%7 == 0 {
			ev.Time = ev.Time.In(time.FixedZone("", int(nsec%100000)))
		}
		checkEventJSON(t, ev)
	})
}
