package bench

import (
	"fmt"
	"math"
)

// The targets a league of separate processes can meet, each a verdict: the
// last tenth of a league within 20% of its first, and the manager's peak
// memory for a league of 1,000 players. Speed is no target: no league of
// separate processes goes under the CPU that HTTP between them costs (the
// floor, floor.go), so the bench sets the league's matches/s and CPU per
// match against the floor's (Report.FloorToLeagueMatches,
// Report.LeagueToFloorCPU) instead of against a fixed figure.
const (
	TargetTenthsRatio       = 0.8
	TargetManagerPeakBytes  = 200_000_000 // 200 MB
	TargetManagerPeakAtSize = 1000        // players: the memory target is set for this league size
)

// Verdict is one target set against what the run measured.
type Verdict struct {
	Name   string  `json:"name"`
	Target float64 `json:"target"`
	// AtMost says the value must stay under Target; otherwise it must
	// reach it.
	AtMost bool    `json:"at_most"`
	Value  float64 `json:"value"`
	Met    bool    `json:"met"`
	// ShortBy is how many times the value misses the target (target ÷
	// value, or value ÷ target for an upper bound), 1 when met; 0 when the
	// value is 0 and no factor says the distance.
	ShortBy float64 `json:"short_by"`
}

func atLeast(name string, value, target float64) Verdict {
	v := Verdict{Name: name, Target: target, Value: value, Met: value >= target, ShortBy: 1}
	if !v.Met {
		v.ShortBy = Ratio(target, value)
	}
	return v
}

func atMost(name string, value, target float64) Verdict {
	v := Verdict{Name: name, Target: target, AtMost: true, Value: value, Met: value < target, ShortBy: 1}
	if !v.Met {
		v.ShortBy = Ratio(value, target)
	}
	return v
}

// String is what the table shows beside the figure: "met" or "short by ×N".
func (v Verdict) String() string {
	switch {
	case v.Met:
		return "met"
	case v.ShortBy == 0 || math.IsInf(v.ShortBy, 0):
		return "short: nothing measured"
	}
	return fmt.Sprintf("short by ×%.2f", v.ShortBy)
}

// Verdicts set the run against each target that applies to it: the tenths
// when the league had ten matches or more; the manager's peak memory for a
// league of 1,000 players or more where /proc says it. A run may have
// none.
func (r Report) Verdicts() []Verdict {
	lg := r.League
	out := []Verdict{}
	if lg.FirstTenth > 0 {
		out = append(out, atLeast("last_tenth_to_first", lg.TenthsRatio(), TargetTenthsRatio))
	}
	if lg.ManagerPeakKnown && lg.Players >= TargetManagerPeakAtSize {
		out = append(out, atMost("manager_peak_memory_bytes", float64(lg.ManagerPeakBytes), TargetManagerPeakBytes))
	}
	return out
}

// verdictOf is the verdict named name, or "" when that target does not
// apply to this run.
func verdictOf(verdicts []Verdict, name string) string {
	for _, v := range verdicts {
		if v.Name == name {
			return v.String()
		}
	}
	return ""
}
