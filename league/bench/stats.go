package bench

import (
	"math"
	"slices"
	"time"

	"github.com/leaguetui/leaguetui/engine"
)

// Rate is count per second over d, or 0 when d is not positive.
func Rate(count int64, d time.Duration) float64 {
	if d <= 0 {
		return 0
	}
	return float64(count) / d.Seconds()
}

// Ratio is a ÷ b, or 0 when b is 0.
func Ratio(a, b float64) float64 {
	if b == 0 {
		return 0
	}
	return a / b
}

// Percentile is the nearest-rank p-th percentile (0 < p <= 100) of ds: the
// smallest value with at least p% of the values at or below it, so it is
// always one of the measured values, never an interpolation. ds need not
// be sorted; it is left as it was. It is 0 for no values.
func Percentile(ds []time.Duration, p float64) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	sorted := slices.Clone(ds)
	slices.Sort(sorted)
	rank := int(math.Ceil(p / 100 * float64(len(sorted))))
	rank = min(max(rank, 1), len(sorted))
	return sorted[rank-1]
}

// Tally reads a league's event feed: when it started and completed, how
// many matches finished, and how long each took from match_assigned to
// match_result. A match assigned more than once (its referee failed) counts
// from its first assignment: that is how long the league waited for it.
type Tally struct {
	Started, Completed time.Time
	Total              int // matches scheduled, from league_started and round_scheduled
	// Expected is the matches the league will have as far as known: Total,
	// plus, for each round still to be paired (Swiss), as many as its
	// first round had. Progress is told against it.
	Expected    int
	Matches     int // match_result events seen
	Durations   []time.Duration
	Stopped     bool        // the league was stopped before it completed
	ResultTimes []time.Time // when each match_result happened, in feed order

	assigned map[string]time.Time
}

// Add takes one event and reports whether the league is over (completed or
// stopped).
func (t *Tally) Add(ev engine.Event) bool {
	switch ev.Kind {
	case engine.EventLeagueStarted:
		t.Started = ev.Time
		if ev.Start != nil {
			sizes, _ := ev.Start.RoundSizes() // not the rounds themselves: half a million matches at 1,000 players
			t.Total = 0
			for _, n := range sizes {
				t.Total += n
			}
			t.Expected = t.Total
			if n := len(sizes); n > 0 && ev.Start.RoundsPlanned > n {
				t.Expected += (ev.Start.RoundsPlanned - n) * sizes[0]
			}
		}
	case engine.EventRoundScheduled: // a Swiss round, paired when the one before ended
		if ev.Schedule != nil {
			t.Total += len(ev.Schedule.Matches)
			t.Expected = max(t.Expected, t.Total)
		}
	case engine.EventMatchAssigned:
		if t.assigned == nil {
			t.assigned = map[string]time.Time{}
		}
		if _, seen := t.assigned[ev.MatchID]; !seen {
			t.assigned[ev.MatchID] = ev.Time
		}
	case engine.EventMatchResult:
		t.Matches++
		t.ResultTimes = append(t.ResultTimes, ev.Time)
		if at, ok := t.assigned[ev.MatchID]; ok {
			t.Durations = append(t.Durations, ev.Time.Sub(at))
			delete(t.assigned, ev.MatchID)
		}
	case engine.EventLeagueCompleted:
		t.Completed = ev.Time
		return true
	case engine.EventStopped:
		t.Stopped = true
		return true
	}
	return false
}

// Wall is the league's wall time from league_started to league_completed.
func (t *Tally) Wall() time.Duration {
	if t.Started.IsZero() || t.Completed.IsZero() {
		return 0
	}
	return t.Completed.Sub(t.Started)
}

// Tenths are the matches per second over the first tenth of the matches
// (from league_started to the result that completes that tenth) and over
// the last tenth (from the result before it to league_completed). A league
// whose per-result cost grows as it goes shows a last tenth slower than its
// first. Both are 0 for a league with fewer than 10 matches or not over.
func (t *Tally) Tenths() (first, last float64) {
	n := len(t.ResultTimes)
	tenth := n / 10
	if tenth == 0 || t.Started.IsZero() || t.Completed.IsZero() {
		return 0, 0
	}
	first = Rate(int64(tenth), t.ResultTimes[tenth-1].Sub(t.Started))
	last = Rate(int64(tenth), t.Completed.Sub(t.ResultTimes[n-tenth-1]))
	return first, last
}
