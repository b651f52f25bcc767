package manager

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/leaguetui/leaguetui/agents/protocol"
	"github.com/leaguetui/leaguetui/config"
	"github.com/leaguetui/leaguetui/engine"
)

// BenchmarkHandleReport is the manager's whole handling of a referee's
// MATCH_RESULT_REPORT as it comes off the wire, its steps included:
// decoding, checking, journaling the steps and the result with their
// fsync, the log line and the standings' request. Each op reports one
// match of a 64-player league, all assigned to one referee; when every
// match has been reported a new league takes over, off the clock.
func BenchmarkHandleReport(b *testing.B) {
	var m *Manager
	var reports []protocol.Inbound
	defer func() {
		if m != nil {
			m.closeAll()
		}
	}()
	b.ReportAllocs()
	for i := range b.N {
		if len(reports) == 0 {
			b.StopTimer()
			if m != nil {
				m.closeAll()
			}
			m, reports = leagueToReport(b)
			b.StartTimer()
		}
		if _, err := m.handleReport(context.Background(), reports[0]); err != nil {
			b.Fatalf("report %d: %v", i, err)
		}
		reports = reports[1:]
	}
}

// leagueToReport starts a round robin of 64 players whose matches are all
// assigned to referee REF01, their files already in the data folder, and
// gives the report REF01 sends for each.
func leagueToReport(b testing.TB) (*Manager, []protocol.Inbound) {
	b.Helper()
	m, err := New(Options{Config: config.Default(), DataDir: b.TempDir(), AdminToken: "adm-report-bench"})
	if err != nil {
		b.Fatal(err)
	}
	const token = "tok-REF01"
	if _, err := m.record(engine.Event{Kind: engine.EventAgentRegistered, Agent: &engine.AgentInfo{ID: "REF01",
		Role: engine.RoleReferee, Endpoint: "http://127.0.0.1:1/ref", TokenHash: hashToken(token)}}); err != nil {
		b.Fatal(err)
	}
	var reports []protocol.Inbound
	for _, r := range startRoundRobin(b, m, 64) {
		err := m.journaled(func(bt *batch) error {
			for _, p := range r.Matches {
				if _, err := bt.stage(engine.Event{Kind: engine.EventMatchAssigned, Round: p.Round, MatchID: p.MatchID, Referee: "REF01"}); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			b.Fatal(err)
		}
		for _, p := range r.Matches {
			reports = append(reports, reportOf(b, m, p, token))
		}
	}
	return m, reports
}

// reportOf is REF01's report of match p, a win for its first player, as
// the referee writes it, with the match's file in place.
func reportOf(b testing.TB, m *Manager, p engine.Pairing, token string) protocol.Inbound {
	path, err := m.Layout().Match(p.MatchID)
	if err != nil {
		b.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		b.Fatal(err)
	}
	if err := os.WriteFile(path, []byte("{}\n"), 0o644); err != nil {
		b.Fatal(err)
	}
	env := protocol.NewEnvelope(protocol.TypeMatchResultReport, "referee:REF01", "conv-"+p.MatchID)
	env.AuthToken, env.LeagueID, env.RoundID, env.MatchID = token, m.league.ID, protocol.RoundID(p.Round), p.MatchID
	winner := p.PlayerA
	report := protocol.MatchResultReport{Envelope: env, GameType: "even_odd",
		Result: protocol.ReportResult{Winner: &winner, Score: map[string]int{p.PlayerA: 1, p.PlayerB: 0}, Status: "WIN",
			Details: protocol.ReportDetails{Choices: map[string]string{p.PlayerA: "even", p.PlayerB: "odd"},
				Game: map[string]any{"drawn_number": 8.0, "number_parity": "even"}, Reason: p.PlayerA + " chose even, 8 is even"}},
		Steps: []protocol.StepEntry{{RoundID: protocol.RoundID(p.Round), MatchID: p.MatchID, Step: "choosing"},
			{RoundID: protocol.RoundID(p.Round), MatchID: p.MatchID, Step: p.PlayerA + " wins", Detail: "8 is even"}}}
	body, err := json.Marshal(report)
	if err != nil {
		b.Fatal(err)
	}
	return protocol.Inbound{Method: "report_match_result", MessageType: protocol.TypeMatchResultReport, Body: body,
		Protocol: protocol.Version, ConversationID: env.ConversationID}
}

// BenchmarkMatchKeys is the keys START_MATCH carries: the referee's key
// from its manager and a ticket for each player, for a match of a running
// league.
func BenchmarkMatchKeys(b *testing.B) {
	m, _ := leagueToReport(b)
	defer m.closeAll()
	referee, ok := m.league.Agent("REF01")
	if !ok {
		b.Fatal("no REF01")
	}
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		match := fmt.Sprintf("R%dM1", i%63+1)
		if m.managerKey(referee) == "" || m.matchTicket("P01", match, "REF01") == m.matchTicket("P02", match, "REF01") {
			b.Fatal("no key, or two players with the same ticket")
		}
	}
}
