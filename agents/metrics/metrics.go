// Package metrics declares what each agent exposes on GET /metrics, in the
// Prometheus text format, through the Prometheus Go client. Each agent has
// a registry of its own (never the client's global one), so agents in one
// process, as in tests, do not mix their counts. docs/metrics.md lists
// every metric; a metric added here is added there.
//
// What the league's hot path pays is a counter's or a histogram's atomic
// update; values that are state (matches running, the journal's syncs)
// are read only when scraped.
package metrics

import (
	"net/http"
	"strings"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// Namespace prefixes every metric.
const Namespace = "leaguetui"

// NewRegistry is an agent's own registry, with the Go runtime's and the
// process's collectors.
func NewRegistry() *prometheus.Registry {
	reg := prometheus.NewRegistry()
	reg.MustRegister(collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	return reg
}

// Handler serves reg on GET /metrics.
func Handler(reg *prometheus.Registry) http.Handler {
	return promhttp.HandlerFor(reg, promhttp.HandlerOpts{Registry: reg})
}

// Durations' buckets, in seconds: a move from a millisecond (a built-in
// strategy on the same host) to the 30 s move timeout; a match up to
// minutes (a link race of a model player).
var (
	moveBuckets  = []float64{.0005, .001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10, 30}
	matchBuckets = []float64{.001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10, 30, 60, 120, 300}
)

// Manager is the league manager's metrics.
type Manager struct {
	Events           *prometheus.CounterVec // kind
	MatchesDone      prometheus.Counter
	MatchesAbandoned prometheus.Counter
	TechnicalLosses  *prometheus.CounterVec // reason
	MatchDuration    prometheus.Histogram
	Registrations    *prometheus.CounterVec // role
}

// NewManager registers the manager's metrics in reg; running and syncs are
// read when scraped.
func NewManager(reg prometheus.Registerer, running func() float64, syncs func() float64) *Manager {
	f := factory{reg, "manager"}
	m := &Manager{
		Events:           f.counterVec("events_total", "League events journaled, by kind.", "kind"),
		MatchesDone:      f.counter("matches_done_total", "Match results journaled."),
		MatchesAbandoned: f.counter("matches_abandoned_total", "Matches that ended without a result: stopped by the admin, or cut short by a manager restart (and played again)."),
		TechnicalLosses:  f.counterVec("technical_losses_total", "Match results that were technical losses, by the failure's kind (timeout, unreachable, declined, invalid_move, model_error, other).", "reason"),
		MatchDuration:    f.histogram("match_duration_seconds", "From a match's assignment to its journaled result.", matchBuckets),
		Registrations:    f.counterVec("registrations_total", "Agents registered (again, after a restart, included), by role.", "role"),
	}
	f.gaugeFunc("matches_running", "Matches assigned to a referee and without a result.", running)
	f.counterFunc("journal_syncs_total", "fsyncs of the league's journal (one per group commit).", syncs)
	return m
}

// The referee's move_duration_seconds calls: what it asked the player.
const (
	CallJoin = "join" // an invitation, answered by the join ack
	CallMove = "move" // a move call
)

// Referee is a referee's metrics.
type Referee struct {
	MatchesDone   prometheus.Counter
	MatchDuration prometheus.Histogram
	MoveDuration  *prometheus.HistogramVec // call: join (an invitation's answer), move
}

// NewReferee registers a referee's metrics in reg.
func NewReferee(reg prometheus.Registerer) *Referee {
	f := factory{reg, "referee"}
	return &Referee{
		MatchesDone:   f.counter("matches_done_total", "Matches this referee played to a result and reported."),
		MatchDuration: f.histogram("match_duration_seconds", "From a match's start on this referee to its result.", matchBuckets),
		MoveDuration: f.histogramVec("move_duration_seconds", "From asking a player to join a match (call=join) or for a move (call=move) to its answer.",
			"call", moveBuckets),
	}
}

// Player is a player's metrics.
type Player struct {
	MoveDuration   prometheus.Histogram
	ModelTokens    *prometheus.CounterVec // direction: input, output
	ModelCost      prometheus.Counter     // USD at the model's price; stays 0 without one
	BudgetRefusals *prometheus.CounterVec // budget: player, league
	ModelLatency   prometheus.Histogram
	ProviderErrors *prometheus.CounterVec // kind: the seed's error type
}

// NewPlayer registers a player's metrics in reg.
func NewPlayer(reg prometheus.Registerer) *Player {
	f := factory{reg, "player"}
	return &Player{
		MoveDuration:   f.histogram("move_duration_seconds", "From a move call's arrival to this player's answer.", moveBuckets),
		ModelTokens:    f.counterVec("model_tokens_total", "A model player's tokens, as its provider counted them, by direction (input, output).", "direction"),
		ModelCost:      f.counter("model_cost_usd_total", "A model player's tokens at its price table's price, in US dollars: an estimate, 0 for a model with no price."),
		BudgetRefusals: f.counterVec("model_budget_refusals_total", "A model player's moves not asked of its model because a budget (player or league) was spent.", "budget"),
		ModelLatency:   f.histogram("model_latency_seconds", "A model player's time to its provider's answer, per move.", moveBuckets),
		ProviderErrors: f.counterVec("model_errors_total", "A model player's failed moves, by the seed's error type (MODEL_TIMEOUT, MODEL_RATE_LIMITED …).", "kind"),
	}
}

// factory makes an agent's metrics under leaguetui_<subsystem>_.
type factory struct {
	reg       prometheus.Registerer
	subsystem string
}

func (f factory) opts(name, help string) prometheus.Opts {
	return prometheus.Opts{Namespace: Namespace, Subsystem: f.subsystem, Name: name, Help: help}
}

func (f factory) counter(name, help string) prometheus.Counter {
	c := prometheus.NewCounter(prometheus.CounterOpts(f.opts(name, help)))
	f.reg.MustRegister(c)
	return c
}

func (f factory) counterVec(name, help, label string) *prometheus.CounterVec {
	c := prometheus.NewCounterVec(prometheus.CounterOpts(f.opts(name, help)), []string{label})
	f.reg.MustRegister(c)
	return c
}

func (f factory) histogram(name, help string, buckets []float64) prometheus.Histogram {
	o := f.opts(name, help)
	h := prometheus.NewHistogram(prometheus.HistogramOpts{Namespace: o.Namespace, Subsystem: o.Subsystem, Name: o.Name,
		Help: o.Help, Buckets: buckets})
	f.reg.MustRegister(h)
	return h
}

func (f factory) histogramVec(name, help, label string, buckets []float64) *prometheus.HistogramVec {
	o := f.opts(name, help)
	h := prometheus.NewHistogramVec(prometheus.HistogramOpts{Namespace: o.Namespace, Subsystem: o.Subsystem, Name: o.Name,
		Help: o.Help, Buckets: buckets}, []string{label})
	f.reg.MustRegister(h)
	return h
}

func (f factory) gaugeFunc(name, help string, value func() float64) {
	f.reg.MustRegister(prometheus.NewGaugeFunc(prometheus.GaugeOpts(f.opts(name, help)), value))
}

func (f factory) counterFunc(name, help string, value func() float64) {
	f.reg.MustRegister(prometheus.NewCounterFunc(prometheus.CounterOpts(f.opts(name, help)), value))
}

// TechnicalReason sorts a technical loss's free-text reason (the
// referee's, as the journal keeps it) into a few kinds, so that the label
// has a bounded set of values whatever players send.
func TechnicalReason(reason string) string {
	r := strings.ToLower(reason)
	switch {
	case strings.Contains(r, "model_"):
		return "model_error"
	case strings.Contains(r, "timeout"), strings.Contains(r, "deadline"), strings.Contains(r, "timed out"):
		return "timeout"
	case strings.Contains(r, "refused"), strings.Contains(r, "unreachable"), strings.Contains(r, "connection"),
		strings.Contains(r, "no such host"), strings.Contains(r, "eof"):
		return "unreachable"
	case strings.Contains(r, "declin"):
		return "declined"
	case strings.Contains(r, "invalid"), strings.Contains(r, "illegal"), strings.Contains(r, "not one of"):
		return "invalid_move"
	}
	return "other"
}
