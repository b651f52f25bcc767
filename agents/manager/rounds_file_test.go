package manager

import (
	"bytes"
	"encoding/json"
	"fmt"
	"regexp"
	"testing"

	"github.com/leaguetui/leaguetui/config"
	"github.com/leaguetui/leaguetui/engine"
)

// TestEncodeRoundsMatchesSchedule: rounds.json written a round at a time is
// byte for byte what encoding the whole Schedule() gives, apart from the
// time it was written, before the league starts, part-way and at the end.
func TestEncodeRoundsMatchesSchedule(t *testing.T) {
	m, err := New(Options{Config: config.Default(), DataDir: t.TempDir(), AdminToken: "adm-rounds-test"})
	if err != nil {
		t.Fatal(err)
	}
	defer m.journal.Close()
	check := func(when string) {
		t.Helper()
		var streamed bytes.Buffer
		if err := m.encodeRounds(&streamed); err != nil {
			t.Fatal(err)
		}
		whole, err := json.MarshalIndent(m.Schedule(), "", "  ")
		if err != nil {
			t.Fatal(err)
		}
		stamp := regexp.MustCompile(`"last_updated": "[^"]*"`)
		got, want := stamp.ReplaceAll(streamed.Bytes(), nil), stamp.ReplaceAll(append(whole, '\n'), nil)
		if !bytes.Equal(got, want) {
			t.Errorf("%s: streamed rounds.json differs:\n%s\nwant:\n%s", when, got, want)
		}
	}
	check("before any round")

	var ids []string
	for i := 1; i <= 4; i++ {
		id := fmt.Sprintf("P%02d", i)
		ids = append(ids, id)
		if _, err := m.record(engine.Event{Kind: engine.EventAgentRegistered,
			Agent: &engine.AgentInfo{ID: id, Role: engine.RolePlayer, Endpoint: "http://127.0.0.1:1/" + id}}); err != nil {
			t.Fatal(err)
		}
	}
	rounds, err := engine.RoundRobin(ids)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := m.record(engine.Event{Kind: engine.EventLeagueStarted, Start: &engine.StartInfo{Players: ids, LegacyRounds: rounds}}); err != nil {
		t.Fatal(err)
	}
	check("started")
	for i, r := range rounds {
		for _, p := range r.Matches {
			res := engine.Result{MatchID: p.MatchID, Round: p.Round, PlayerA: p.PlayerA, PlayerB: p.PlayerB, Status: engine.StatusWin, Winner: p.PlayerB}
			if _, err := m.record(engine.Event{Kind: engine.EventMatchResult, Round: p.Round, MatchID: p.MatchID, Result: &res}); err != nil {
				t.Fatal(err)
			}
		}
		check(fmt.Sprintf("after round %d", i+1))
	}
}
