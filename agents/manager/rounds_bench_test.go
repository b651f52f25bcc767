package manager

import (
	"fmt"
	"io"
	"testing"

	"github.com/leaguetui/leaguetui/config"
	"github.com/leaguetui/leaguetui/engine"
)

// BenchmarkEncodeRounds writes rounds.json for a league of 32 players half
// played, as the manager's writer does every interval while results come
// in.
func BenchmarkEncodeRounds(b *testing.B) {
	m, err := New(Options{Config: config.Default(), DataDir: b.TempDir(), AdminToken: "adm-rounds-bench"})
	if err != nil {
		b.Fatal(err)
	}
	defer m.journal.Close()
	rounds := startRoundRobin(b, m, 32)
	for _, r := range rounds[:len(rounds)/2] {
		err := m.journaled(func(bt *batch) error {
			for _, p := range r.Matches {
				res := engine.Result{MatchID: p.MatchID, Round: p.Round, PlayerA: p.PlayerA, PlayerB: p.PlayerB, Status: engine.StatusWin, Winner: p.PlayerA}
				if _, err := bt.stage(engine.Event{Kind: engine.EventMatchResult, Round: p.Round, MatchID: p.MatchID, Result: &res}); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			b.Fatal(err)
		}
	}
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		if err := m.encodeRounds(io.Discard); err != nil {
			b.Fatal(err)
		}
	}
}

// startRoundRobin registers players P01... and starts a round robin of
// them, returning its rounds.
func startRoundRobin(tb testing.TB, m *Manager, players int) []engine.Round {
	tb.Helper()
	var ids []string
	err := m.journaled(func(bt *batch) error {
		for i := 1; i <= players; i++ {
			id := fmt.Sprintf("P%02d", i)
			ids = append(ids, id)
			if _, err := bt.stage(engine.Event{Kind: engine.EventAgentRegistered,
				Agent: &engine.AgentInfo{ID: id, Role: engine.RolePlayer, Endpoint: "http://127.0.0.1:1/" + id}}); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		tb.Fatal(err)
	}
	rounds, err := engine.RoundRobin(ids)
	if err != nil {
		tb.Fatal(err)
	}
	if _, err := m.record(engine.Event{Kind: engine.EventLeagueStarted, Start: &engine.StartInfo{Players: ids, LegacyRounds: rounds}}); err != nil {
		tb.Fatal(err)
	}
	return rounds
}
