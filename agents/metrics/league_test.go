package metrics_test

import (
	"context"
	"encoding/json"
	"math"
	"net/http"
	"strings"
	"testing"
	"time"

	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"

	"github.com/leaguetui/leaguetui/agents/metrics"
	"github.com/leaguetui/leaguetui/engine"
	"github.com/leaguetui/leaguetui/internal/leaguetest"
	"github.com/leaguetui/leaguetui/internal/leaguetest/fakellm"
	"github.com/leaguetui/leaguetui/league/control"
)

func TestMain(m *testing.M) { leaguetest.Main(m) }

const (
	leagueID   = "league_2025_even_odd"
	adminToken = "adm-metrics-test-0123456789abcdef"
)

// A real league (a model player, built-in ones and one that answers
// invalid moves, each its own process): the manager's /metrics, read with
// the Prometheus text parser, counts what its journal holds, and the
// referee's and the model player's count what the match files hold.
func TestMetricsAgreeWithTheJournal(t *testing.T) {
	fake := fakellm.Start(fakellm.Good)
	defer fake.Close()
	t.Setenv("OPENAI_API_KEY", "sk-metrics-test-key")
	dir := t.TempDir()
	args := []string{"--move-timeout", "3s", "--retry-delay", "50ms"}
	mgr := leaguetest.StartManager(t, dir, adminToken, append([]string{"--seed", "9"}, args...)...)
	ref := leaguetest.StartReferee(t, dir, mgr.Endpoint, "REF01", args...)
	model := leaguetest.StartPlayer(t, dir, mgr.Endpoint, "model", append([]string{"--strategy", "llm",
		"--llm-provider", "openai", "--llm-base-url", fake.OpenAIURL(), "--llm-model", "fake", "--llm-price", "2.5,10"}, args...)...)
	leaguetest.StartPlayer(t, dir, mgr.Endpoint, "random", append([]string{"--strategy", "random"}, args...)...)
	leaguetest.StartPlayer(t, dir, mgr.Endpoint, "pattern", append([]string{"--strategy", "pattern"}, args...)...)
	leaguetest.StartBadPlayer(t, dir, mgr.Endpoint, "invalid", "invalid")
	ctl := control.New(mgr.Endpoint, adminToken)
	if err := ctl.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	leaguetest.UntilCompleted(t, ctl, 0, 3*time.Minute)

	journal := readJournal(t, dir)
	kinds, roles, reasons := map[string]float64{}, map[string]float64{}, map[string]float64{}
	for _, ev := range journal {
		kinds[string(ev.Kind)]++
		if ev.Kind == engine.EventAgentRegistered {
			roles[string(ev.Agent.Role)]++
		}
		if ev.Kind == engine.EventMatchResult && ev.Result.Status == engine.StatusTechnicalLoss {
			reasons[metrics.TechnicalReason(ev.Facts.Reason)]++
		}
	}
	if len(reasons) == 0 {
		t.Fatal("no technical loss in the journal: the invalid player should have lost some")
	}
	m := scrape(t, mgr.Endpoint)
	for kind, n := range kinds {
		if got := m.value("leaguetui_manager_events_total", "kind", kind); got != n {
			t.Errorf("events_total{kind=%q} = %v, the journal holds %v", kind, got, n)
		}
	}
	for role, n := range roles {
		if got := m.value("leaguetui_manager_registrations_total", "role", role); got != n {
			t.Errorf("registrations_total{role=%q} = %v, the journal holds %v", role, got, n)
		}
	}
	for reason, n := range reasons {
		if got := m.value("leaguetui_manager_technical_losses_total", "reason", reason); got != n {
			t.Errorf("technical_losses_total{reason=%q} = %v, the journal holds %v", reason, got, n)
		}
	}
	if got := m.value("leaguetui_manager_matches_done_total", "", ""); got != kinds["match_result"] || got != 6 {
		t.Errorf("matches_done_total = %v, the journal holds %v results of 6", got, kinds["match_result"])
	}
	if got := m.histogramCount("leaguetui_manager_match_duration_seconds"); got != uint64(kinds["match_result"]) {
		t.Errorf("the manager's match_duration_seconds count = %d, the journal holds %v results", got, kinds["match_result"])
	}
	if sum := m.histogramSum("leaguetui_manager_match_duration_seconds"); sum <= 0 {
		t.Errorf("the manager's match_duration_seconds sum = %v s for 6 matches played", sum)
	}
	if m.value("leaguetui_manager_matches_running", "", "") != 0 || m.value("leaguetui_manager_matches_abandoned_total", "", "") != 0 {
		t.Errorf("a completed league: %v running, %v abandoned", m.value("leaguetui_manager_matches_running", "", ""),
			m.value("leaguetui_manager_matches_abandoned_total", "", ""))
	}
	if syncs := m.value("leaguetui_manager_journal_syncs_total", "", ""); syncs < 1 || syncs > float64(len(journal)) {
		t.Errorf("journal_syncs_total = %v for %d records", syncs, len(journal))
	}

	// The referee played every match; the model player's tokens are its
	// moves' in the match files.
	r := scrape(t, ref.Endpoint)
	if got := r.value("leaguetui_referee_matches_done_total", "", ""); got != 6 {
		t.Errorf("the referee's matches_done_total = %v, want 6", got)
	}
	if got := r.histogramCount("leaguetui_referee_match_duration_seconds"); got != 6 {
		t.Errorf("the referee's match_duration_seconds count = %d, want 6", got)
	}
	if got := r.labelledHistogramCount("leaguetui_referee_move_duration_seconds", "call", "join"); got != 6*2 { // each match: 2 joins
		t.Errorf("the referee's move_duration_seconds{call=join} count = %d, want 12", got)
	}
	if got := r.labelledHistogramCount("leaguetui_referee_move_duration_seconds", "call", "move"); got < 6*2 { // 2 moves at least
		t.Errorf("the referee's move_duration_seconds{call=move} count = %d, want at least 12", got)
	}
	moves := modelMoves(t, dir)
	p := scrape(t, model.Endpoint)
	if got := p.value("leaguetui_player_model_tokens_total", "direction", "input"); got != float64(moves*fakellm.InputTokens) || moves != 3 {
		t.Errorf("model_tokens_total{input} = %v for %d model moves of %d tokens", got, moves, fakellm.InputTokens)
	}
	if got := p.value("leaguetui_player_model_tokens_total", "direction", "output"); got != float64(moves*fakellm.OutputTokens) {
		t.Errorf("model_tokens_total{output} = %v for %d model moves", got, moves)
	}
	wantCost := (float64(moves*fakellm.InputTokens)*2.5 + float64(moves*fakellm.OutputTokens)*10) / 1e6
	if got := p.value("leaguetui_player_model_cost_usd_total", "", ""); math.Abs(got-wantCost) > 1e-12 {
		t.Errorf("model_cost_usd_total = %v, want %d moves' tokens at 2.5 and 10 USD per million: %v", got, moves, wantCost)
	}
	if got := p.histogramCount("leaguetui_player_move_duration_seconds"); got != uint64(moves) {
		t.Errorf("the model player's move_duration_seconds count = %d, want %d", got, moves)
	}
}

// families is a scrape, parsed.
type families map[string]*dto.MetricFamily

// scrape reads an agent's GET /metrics with the Prometheus text parser.
func scrape(t *testing.T, endpoint string) families {
	t.Helper()
	resp, err := http.Get(strings.TrimSuffix(endpoint, "/mcp") + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/plain") {
		t.Fatalf("GET /metrics: %s, %s", resp.Status, resp.Header.Get("Content-Type"))
	}
	parser := expfmt.NewTextParser(model.UTF8Validation)
	fams, err := parser.TextToMetricFamilies(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return fams
}

// value is a counter's or a gauge's value, the one with label=value when label is set.
func (f families) value(name, label, value string) float64 {
	fam := f[name]
	if fam == nil {
		return -1
	}
	for _, m := range fam.GetMetric() {
		if label != "" && !hasLabel(m, label, value) {
			continue
		}
		switch {
		case m.GetCounter() != nil:
			return m.GetCounter().GetValue()
		case m.GetGauge() != nil:
			return m.GetGauge().GetValue()
		}
	}
	return 0
}

func (f families) histogramCount(name string) uint64 {
	if fam := f[name]; fam != nil && len(fam.GetMetric()) == 1 {
		return fam.GetMetric()[0].GetHistogram().GetSampleCount()
	}
	return 0
}

// labelledHistogramCount is the count of the histogram with label=value.
func (f families) labelledHistogramCount(name, label, value string) uint64 {
	if fam := f[name]; fam != nil {
		for _, m := range fam.GetMetric() {
			if hasLabel(m, label, value) {
				return m.GetHistogram().GetSampleCount()
			}
		}
	}
	return 0
}

func (f families) histogramSum(name string) float64 {
	if fam := f[name]; fam != nil && len(fam.GetMetric()) == 1 {
		return fam.GetMetric()[0].GetHistogram().GetSampleSum()
	}
	return 0
}

func hasLabel(m *dto.Metric, name, value string) bool {
	for _, l := range m.GetLabel() {
		if l.GetName() == name && l.GetValue() == value {
			return true
		}
	}
	return false
}

func readJournal(t *testing.T, dir string) []engine.Event {
	t.Helper()
	return leaguetest.Journal(t, dir, leagueID)
}

// modelMoves counts the model blocks of the match files' move replies.
func modelMoves(t *testing.T, dir string) int {
	t.Helper()
	n := 0
	for _, f := range leaguetest.ReadMatchFiles[leaguetest.MatchFile[json.RawMessage]](t, dir, leagueID) {
		for _, e := range f.Transcript {
			if _, ok := e.Content["model"]; ok {
				n++
			}
		}
	}
	if n == 0 {
		t.Fatalf("no model move in %s's match files", dir)
	}
	return n
}
