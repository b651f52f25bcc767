package manager

import (
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/leaguetui/leaguetui/agents/metrics"
	"github.com/leaguetui/leaguetui/engine"
)

// leagueMetrics is the manager's GET /metrics: counts of the events it
// applies, so that they equal the journal's for a league this process
// played from its start. Applying an event costs an atomic add or two;
// matches running and the journal's syncs are read when scraped.
type leagueMetrics struct {
	*metrics.Manager
	events map[engine.EventKind]prometheus.Counter // made once: no label lookup per event
	// assigned holds when each running match was assigned, for
	// MatchDuration once its result is applied (under m.mu, as observe).
	assigned map[string]time.Time
}

func (m *Manager) newMetrics() {
	running := func() float64 {
		m.mu.Lock()
		defer m.mu.Unlock()
		return float64(m.league.RunningCount())
	}
	syncs := func() float64 { return float64(m.journal.Syncs()) }
	m.metrics = newLeagueMetrics(m.Metrics, running, syncs)
}

func newLeagueMetrics(reg prometheus.Registerer, running, syncs func() float64) *leagueMetrics {
	lm := &leagueMetrics{Manager: metrics.NewManager(reg, running, syncs), events: map[engine.EventKind]prometheus.Counter{},
		assigned: map[string]time.Time{}}
	for _, kind := range eventKinds {
		lm.events[kind] = lm.Events.WithLabelValues(string(kind))
	}
	return lm
}

// observe counts an event the league has applied; running is how many
// matches ran before it. Call with m.mu held.
func (lm *leagueMetrics) observe(ev engine.Event, running int) {
	if c := lm.events[ev.Kind]; c != nil {
		c.Inc()
	}
	switch ev.Kind {
	case engine.EventMatchAssigned:
		lm.assigned[ev.MatchID] = ev.Time
	case engine.EventMatchResult:
		lm.MatchesDone.Inc()
		if at, ok := lm.assigned[ev.MatchID]; ok {
			lm.MatchDuration.Observe(ev.Time.Sub(at).Seconds())
			delete(lm.assigned, ev.MatchID)
		}
		if ev.Result != nil && ev.Result.Status == engine.StatusTechnicalLoss {
			reason := ""
			if ev.Facts != nil {
				reason = ev.Facts.Reason
			}
			lm.TechnicalLosses.WithLabelValues(metrics.TechnicalReason(reason)).Inc()
		}
	case engine.EventStopped, engine.EventRestarted:
		lm.MatchesAbandoned.Add(float64(running)) // every running match ends without a result
		clear(lm.assigned)
	case engine.EventAgentRegistered:
		if ev.Agent != nil {
			lm.Registrations.WithLabelValues(string(ev.Agent.Role)).Inc()
		}
	}
}

// eventKinds are the kinds a journal holds (storage_failed never is).
var eventKinds = []engine.EventKind{engine.EventAgentRegistered, engine.EventLeagueStarted, engine.EventRoundAnnounced,
	engine.EventMatchAssigned, engine.EventMatchStep, engine.EventMatchResult, engine.EventRoundCompleted,
	engine.EventLeagueCompleted, engine.EventPaused, engine.EventResumed, engine.EventStopped,
	engine.EventPlayerSuspended, engine.EventRoundScheduled, engine.EventStalled, engine.EventRestarted}
