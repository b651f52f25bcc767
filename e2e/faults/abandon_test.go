package faults_test

import (
	"context"
	"encoding/json"
	"os"
	"testing"
	"time"

	"github.com/leaguetui/leaguetui/agents/protocol"
	"github.com/leaguetui/leaguetui/agents/store"
	"github.com/leaguetui/leaguetui/engine"
)

// abandonedFile is the part of a match file an abandoned match changes.
type abandonedFile struct {
	MatchID    string                     `json:"match_id"`
	Players    map[string]string          `json:"players"`
	Lifecycle  protocol.Lifecycle         `json:"lifecycle"`
	Transcript []protocol.TranscriptEntry `json:"transcript"`
	Result     struct {
		Status string         `json:"status"`
		Winner *string        `json:"winner_player_id"`
		Score  map[string]int `json:"score"`
		Reason string         `json:"reason"`
	} `json:"result"`
}

// checkAbandoned fails the test unless data is match id's file saying the
// match was abandoned: no winner, no points, its transcript kept.
func checkAbandoned(t *testing.T, where, id string, data []byte) {
	t.Helper()
	var f abandonedFile
	if err := json.Unmarshal(data, &f); err != nil {
		t.Fatalf("%s: %v", where, err)
	}
	if f.MatchID != id || f.Lifecycle.State != protocol.MatchAbandoned || f.Result.Status != protocol.MatchAbandoned ||
		f.Result.Winner != nil || len(f.Result.Score) != 0 || f.Result.Reason == "" || len(f.Players) != 2 || len(f.Transcript) == 0 {
		t.Errorf("%s: match %s, state %q, result %+v, players %v, %d exchanges; want %s abandoned, with no winner nor points, "+
			"its players and transcript", where, f.MatchID, f.Lifecycle.State, f.Result, f.Players, len(f.Transcript), id)
	}
}

// TestStoppedLeagueAbandonsMatchFiles (issue 24, item 6): the admin stops
// a league while a match runs. Its referee finishes the match, writes its
// file and reports; the report is refused, and the file then says the
// match was abandoned, as GET /matches/{id} does, while the journal and
// the standings count no result for it. A file written as played after
// that (a referee of the stopped league, late) is never served as played,
// and a manager started again on the stopped league marks it abandoned.
func TestStoppedLeagueAbandonsMatchFiles(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	l := startCrashLeague(t)
	abandoned, before, cursor := l.inFlight(t, 0, "", 0)
	if err := l.ctl.Stop(ctx); err != nil {
		t.Fatal(err)
	}
	path, err := store.Layout{Root: l.dir, LeagueID: leagueID}.Match(abandoned)
	if err != nil {
		t.Fatal(err)
	}
	// The slow player answers within slowDelay; its referee then writes
	// the file and reports, and the manager marks it once it refuses the
	// report.
	data := awaitFile(t, path, func(data []byte) bool { return protocol.IsAbandonedMatchFile(data) })
	checkAbandoned(t, "the file", abandoned, data)
	served, err := l.ctl.MatchFile(ctx, abandoned)
	if err != nil {
		t.Fatal(err)
	}
	checkAbandoned(t, "GET /matches/"+abandoned, abandoned, served)

	page, err := l.ctl.Events(ctx, cursor, 0)
	if err != nil {
		t.Fatal(err)
	}
	all := append(before, page.Events...)
	for _, r := range results(all) {
		if r.MatchID == abandoned {
			t.Errorf("the journal holds a result for %s, abandoned by the stop: %+v", abandoned, r)
		}
	}
	standings, err := l.ctl.Standings(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if standings.State != engine.LeagueStopped || standings.MatchesDone != len(results(all)) {
		t.Errorf("standings: %s with %d matches done; want stopped with the journal's %d", standings.State,
			standings.MatchesDone, len(results(all)))
	}

	// A referee of the stopped league writes its file as played, late.
	var played map[string]any
	if err := json.Unmarshal(data, &played); err != nil {
		t.Fatal(err)
	}
	players := played["players"].(map[string]any)
	winner := players["player_A"]
	played["lifecycle"].(map[string]any)["state"] = "FINISHED"
	played["result"] = map[string]any{"status": "WIN", "winner_player_id": winner, "score": map[string]any{winner.(string): 3}}
	late, err := json.Marshal(played)
	if err != nil {
		t.Fatal(err)
	}
	if err := store.WriteFileAtomic(path, late); err != nil {
		t.Fatal(err)
	}
	if served, err = l.ctl.MatchFile(ctx, abandoned); err != nil {
		t.Fatal(err)
	}
	checkAbandoned(t, "GET /matches/"+abandoned+" of a file written as played", abandoned, served)

	stopManager(t, l.manager)
	l.manager = l.startManager(t)
	if data, err = os.ReadFile(path); err != nil {
		t.Fatal(err)
	}
	checkAbandoned(t, "the file once a manager started again on the stopped league", abandoned, data)
	stopManager(t, l.manager)
}

// awaitFile polls the file at path, every 10 ms, until ready says what it
// holds is what the test waits for, and returns it.
func awaitFile(t *testing.T, path string, ready func([]byte) bool) []byte {
	t.Helper()
	tick := time.NewTicker(10 * time.Millisecond)
	defer tick.Stop()
	deadline := time.After(leagueTimeout)
	var last []byte
	for {
		data, err := os.ReadFile(path)
		if err == nil && ready(data) {
			return data
		}
		if err == nil {
			last = data
		}
		select {
		case <-tick.C:
		case <-deadline:
			t.Fatalf("%s never became what the test waits for within %s; it holds:\n%.2000s", path, leagueTimeout, last)
		}
	}
}
