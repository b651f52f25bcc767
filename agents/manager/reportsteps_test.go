package manager_test

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/leaguetui/leaguetui/agents/protocol"
	"github.com/leaguetui/leaguetui/engine"
	"github.com/leaguetui/leaguetui/internal/leaguetest"
	"github.com/leaguetui/leaguetui/league/control"
)

// TestReportSteps runs a real manager process with two fake referees and
// sends it result reports that carry their match's last steps: the steps of
// a report it takes reach the feed before the result, in order; a report
// it refuses, or takes a second time, brings none; a report without steps
// and a MATCH_STEP are taken as before.
func TestReportSteps(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	mgr := leaguetest.StartManager(t, dir, adminToken, "--seed", "11", "--retry-delay", "50ms")
	url := mgr.Endpoint
	ctl := control.New(url, adminToken)

	starts1, starts2 := make(chan string, 8), make(chan string, 8)
	ref1 := register(t, url, "referee", ackingPeer(t, starts1, nil).Endpoint)
	ref2 := register(t, url, "referee", ackingPeer(t, starts2, nil).Endpoint)
	for range 4 {
		register(t, url, "player", ackingPeer(t, nil, nil).Endpoint)
	}
	if err := ctl.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	first := func(starts <-chan string, ref agent) string {
		t.Helper()
		select {
		case id := <-starts:
			return id
		case <-time.After(30 * time.Second):
			t.Fatalf("no start_match reached %s", ref.id)
			return ""
		}
	}
	m1, m2 := first(starts1, ref1), first(starts2, ref2)

	steps := func(matchID string, names ...string) []protocol.StepEntry {
		var out []protocol.StepEntry
		for _, name := range names {
			out = append(out, protocol.StepEntry{RoundID: 1, MatchID: matchID, Step: name})
		}
		return out
	}
	report := func(ref agent, token, matchID string, carried []protocol.StepEntry) map[string]any {
		msg := leaguetest.With(leaguetest.Envelope("MATCH_RESULT_REPORT", ref.sender), map[string]any{
			"auth_token": token, "league_id": "league_2025_even_odd", "round_id": 1, "match_id": matchID,
			"game_type": "even_odd", "result": map[string]any{"status": "DRAW"},
		})
		if carried != nil {
			msg["match_steps"] = carried
		}
		return msg
	}
	m1Steps := steps(m1, "invited", "joined", "choosing", "drawn 8")
	tooMany := make([]protocol.StepEntry, protocol.MaxStepsPerMessage+1)
	for i := range tooMany {
		tooMany[i] = protocol.StepEntry{RoundID: 1, MatchID: m1, Step: engine.TurnStep(i + 1)}
	}

	t.Run("refused reports bring no step", func(t *testing.T) {
		tests := []struct {
			name     string
			msg      map[string]any
			wantCode string // a LEAGUE_ERROR code, or a JSON-RPC error
		}{
			{"a step of another referee's match", report(ref1, ref1.token, m1, append(steps(m1, "invited"), steps(m2, "invited")...)), ""},
			{"more steps than one message may carry", report(ref1, ref1.token, m1, tooMany), ""},
			{"the match of another referee", report(ref2, ref2.token, m1, m1Steps), ""},
			{"another referee's token", report(ref1, ref2.token, m1, m1Steps), "E012"},
			{"a match that does not exist", report(ref1, ref1.token, "R9M9", steps("R9M9", "invited")), ""},
		}
		for _, tt := range tests {
			reply := leaguetest.Call(t, url, "report_match_result", tt.msg)
			if tt.wantCode != "" {
				wantLeagueError(t, reply, tt.wantCode)
			} else if reply.Error == nil || reply.Result != nil {
				t.Errorf("%s: reply %s, want a JSON-RPC error", tt.name, reply.Body)
			}
		}
	})

	reply := leaguetest.Call(t, url, "report_match_result", report(ref1, ref1.token, m1, m1Steps))
	if reply.String("message_type") != "MATCH_RESULT_ACK" {
		t.Fatalf("REF01's report of %s with its steps: %s, want MATCH_RESULT_ACK", m1, reply.Body)
	}
	// The same report again, as a retry whose first reply was lost.
	if reply := leaguetest.Call(t, url, "report_match_result", report(ref1, ref1.token, m1, m1Steps)); reply.Error == nil {
		t.Errorf("the report of %s again: %s, want a JSON-RPC error", m1, reply.Body)
	}
	// A referee of another implementation: steps by MATCH_STEP, a report
	// without them.
	step := leaguetest.With(leaguetest.Envelope("MATCH_STEP", ref2.sender), map[string]any{
		"auth_token": ref2.token, "round_id": 1, "match_id": m2, "step": "invited"})
	if reply := leaguetest.Call(t, url, "report_match_step", step); reply.Error != nil {
		t.Fatalf("REF02's MATCH_STEP: %s", reply.Body)
	}
	if reply := leaguetest.Call(t, url, "report_match_result", report(ref2, ref2.token, m2, nil)); reply.String("message_type") != "MATCH_RESULT_ACK" {
		t.Fatalf("REF02's report of %s without steps: %s, want MATCH_RESULT_ACK", m2, reply.Body)
	}

	// Every step and result the manager took is on the feed before the
	// result of m2, the last thing it was sent.
	got := map[string][]string{}
	resulted := map[string]bool{}
	var cursor int64
	for !resulted[m2] {
		var events []engine.Event
		events, cursor = leaguetest.NextEvents(t, ctl, cursor, 30*time.Second, engine.EventMatchResult)
		for _, ev := range events {
			switch ev.Kind {
			case engine.EventMatchStep:
				if resulted[ev.MatchID] {
					t.Errorf("%s: step %q after its result", ev.MatchID, ev.Step)
				}
				got[ev.MatchID] = append(got[ev.MatchID], ev.Step)
			case engine.EventMatchResult:
				resulted[ev.MatchID] = true
			}
		}
	}
	if want := []string{"invited", "joined", "choosing", "drawn 8"}; !slices.Equal(got[m1], want) || !resulted[m1] {
		t.Errorf("%s on the feed: steps %q (result: %v), want %q then the result", m1, got[m1], resulted[m1], want)
	}
	if want := []string{"invited"}; !slices.Equal(got[m2], want) {
		t.Errorf("%s on the feed: steps %q, want %q", m2, got[m2], want)
	}
	if len(got) != 2 {
		t.Errorf("steps on the feed for %d matches, want %s and %s only: %v", len(got), m1, m2, got)
	}
}
