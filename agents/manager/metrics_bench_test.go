package manager

import (
	"io"
	"net/http/httptest"
	"testing"

	"github.com/leaguetui/leaguetui/agents/metrics"
	"github.com/leaguetui/leaguetui/engine"
)

// What GET /metrics costs the league: counting one match's events (the
// hot path, under the manager's lock), and one scrape.
//
//	go test -run '^$' -bench Metrics -benchmem ./agents/manager
func BenchmarkMetricsObserveMatch(b *testing.B) {
	lm := newLeagueMetrics(metrics.NewRegistry(), func() float64 { return 0 }, func() float64 { return 0 })
	// A match as the journal has it: assigned, four steps, its result.
	assigned := engine.Event{Kind: engine.EventMatchAssigned, MatchID: "R1M1", Referee: "REF01"}
	step := engine.Event{Kind: engine.EventMatchStep, MatchID: "R1M1", Step: "choosing"}
	result := engine.Event{Kind: engine.EventMatchResult, MatchID: "R1M1",
		Result: &engine.Result{MatchID: "R1M1", PlayerA: "P01", PlayerB: "P02", Status: engine.StatusWin, Winner: "P01"}}
	b.ReportAllocs()
	for b.Loop() {
		lm.observe(assigned, 0)
		for range 4 {
			lm.observe(step, 1)
		}
		lm.observe(result, 1)
	}
}

func BenchmarkMetricsScrape(b *testing.B) {
	reg := metrics.NewRegistry()
	lm := newLeagueMetrics(reg, func() float64 { return 3 }, func() float64 { return 100 })
	for _, kind := range eventKinds {
		lm.observe(engine.Event{Kind: kind}, 0)
	}
	h := metrics.Handler(reg)
	req := httptest.NewRequest("GET", "/metrics", nil)
	b.ReportAllocs()
	for b.Loop() {
		w := httptest.NewRecorder()
		h.ServeHTTP(w, req)
		_, _ = io.Copy(io.Discard, w.Body)
	}
}
