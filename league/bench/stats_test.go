package bench

import (
	"fmt"
	"testing"
	"time"

	"github.com/leaguetui/leaguetui/engine"
)

func ms2d(v ...int) []time.Duration {
	out := make([]time.Duration, len(v))
	for i, n := range v {
		out[i] = time.Duration(n) * time.Millisecond
	}
	return out
}

func TestPercentile(t *testing.T) {
	hundred := make([]int, 100)
	for i := range hundred {
		hundred[i] = 100 - i // 100, 99, ... 1: unsorted on purpose
	}
	tests := []struct {
		name string
		in   []time.Duration
		p    float64
		want time.Duration
	}{
		{"empty", nil, 50, 0},
		{"one value p50", ms2d(7), 50, 7 * time.Millisecond},
		{"one value p99", ms2d(7), 99, 7 * time.Millisecond},
		{"1..100 p50", ms2d(hundred...), 50, 50 * time.Millisecond},
		{"1..100 p99", ms2d(hundred...), 99, 99 * time.Millisecond},
		{"1..100 p100", ms2d(hundred...), 100, 100 * time.Millisecond},
		{"four p50 is the 2nd", ms2d(40, 10, 30, 20), 50, 20 * time.Millisecond},
		{"four p99 is the largest", ms2d(40, 10, 30, 20), 99, 40 * time.Millisecond},
		{"three p50 is the middle", ms2d(5, 1, 3), 50, 3 * time.Millisecond},
		{"tiny p is the smallest", ms2d(5, 1, 3), 0.1, 1 * time.Millisecond},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Percentile(tt.in, tt.p); got != tt.want {
				t.Errorf("Percentile(%v, %v) = %v, want %v", tt.in, tt.p, got, tt.want)
			}
		})
	}
}

func TestPercentileLeavesInputAlone(t *testing.T) {
	in := ms2d(3, 1, 2)
	Percentile(in, 50)
	if in[0] != 3*time.Millisecond || in[1] != 1*time.Millisecond || in[2] != 2*time.Millisecond {
		t.Errorf("input reordered: %v", in)
	}
}

func TestRateAndRatio(t *testing.T) {
	tests := []struct {
		name string
		got  float64
		want float64
	}{
		{"2016 in 2s", Rate(2016, 2*time.Second), 1008},
		{"1 in 250ms", Rate(1, 250*time.Millisecond), 4},
		{"zero time", Rate(10, 0), 0},
		{"negative time", Rate(10, -time.Second), 0},
		{"ratio", Ratio(25000, 50000), 0.5},
		{"ratio over zero", Ratio(1, 0), 0},
	}
	for _, tt := range tests {
		if tt.got != tt.want {
			t.Errorf("%s: got %v, want %v", tt.name, tt.got, tt.want)
		}
	}
}

func TestLeagueResultRates(t *testing.T) {
	r := LeagueResult{Matches: 500, Exchanges: 10000, Wall: 4 * time.Second}
	if got := r.MatchesPerSecond(); got != 125 {
		t.Errorf("MatchesPerSecond = %v, want 125", got)
	}
	if got := r.ExchangesPerSecond(); got != 2500 {
		t.Errorf("ExchangesPerSecond = %v, want 2500", got)
	}
	if got := r.ExchangesPerMatch(); got != 20 {
		t.Errorf("ExchangesPerMatch = %v, want 20", got)
	}
	if got := (LeagueResult{}).ExchangesPerMatch(); got != 0 {
		t.Errorf("ExchangesPerMatch of nothing = %v, want 0", got)
	}
	report := Report{Raw: RawResult{ExchangeTally: ExchangeTally{Exchanges: 20000, Elapsed: 2 * time.Second}}, League: r}
	if got := report.Ratio(); got != 0.25 {
		t.Errorf("Ratio = %v, want 0.25", got)
	}
}

func TestTally(t *testing.T) {
	t0 := time.Date(2025, 1, 15, 10, 0, 0, 0, time.UTC)
	at := func(msec int) time.Time { return t0.Add(time.Duration(msec) * time.Millisecond) }
	start := &engine.StartInfo{LegacyRounds: []engine.Round{
		{Number: 1, Matches: make([]engine.Pairing, 2)},
		{Number: 2, Matches: make([]engine.Pairing, 1)},
	}}
	events := []engine.Event{
		{Kind: engine.EventLeagueStarted, Time: at(0), Start: start},
		{Kind: engine.EventMatchAssigned, Time: at(10), MatchID: "R1M1"},
		{Kind: engine.EventMatchAssigned, Time: at(12), MatchID: "R1M2"},
		{Kind: engine.EventMatchStep, Time: at(15), MatchID: "R1M1", Step: "invited"},
		{Kind: engine.EventMatchResult, Time: at(40), MatchID: "R1M1"},
		// R1M2's referee was busy: reassigned; it counts from the first.
		{Kind: engine.EventMatchAssigned, Time: at(50), MatchID: "R1M2"},
		{Kind: engine.EventMatchResult, Time: at(112), MatchID: "R1M2"},
		{Kind: engine.EventMatchAssigned, Time: at(120), MatchID: "R2M1"},
		{Kind: engine.EventMatchResult, Time: at(140), MatchID: "R2M1"},
		{Kind: engine.EventLeagueCompleted, Time: at(150)},
	}
	var tally Tally
	for i, ev := range events {
		over := tally.Add(ev)
		if over != (i == len(events)-1) {
			t.Fatalf("event %d (%s): over = %v", i, ev.Kind, over)
		}
	}
	if tally.Total != 3 || tally.Matches != 3 || tally.Stopped {
		t.Errorf("total %d, matches %d, stopped %v; want 3, 3, false", tally.Total, tally.Matches, tally.Stopped)
	}
	if got, want := tally.Wall(), 150*time.Millisecond; got != want {
		t.Errorf("Wall = %v, want %v", got, want)
	}
	want := ms2d(30, 100, 20)
	if len(tally.Durations) != len(want) {
		t.Fatalf("durations %v, want %v", tally.Durations, want)
	}
	for i := range want {
		if tally.Durations[i] != want[i] {
			t.Errorf("durations %v, want %v", tally.Durations, want)
			break
		}
	}
	if got := Percentile(tally.Durations, 50); got != 30*time.Millisecond {
		t.Errorf("p50 = %v, want 30ms", got)
	}
}

func TestTallyStopped(t *testing.T) {
	var tally Tally
	tally.Add(engine.Event{Kind: engine.EventLeagueStarted, Time: time.Now()})
	if !tally.Add(engine.Event{Kind: engine.EventStopped, Time: time.Now()}) || !tally.Stopped {
		t.Fatal("a stopped league should end the tally as stopped")
	}
	if tally.Wall() != 0 {
		t.Errorf("a league that never completed has no wall time, got %v", tally.Wall())
	}
}

// TestTallyTenths: 20 results, the first two in 1 s, the last two in 4 s.
func TestTallyTenths(t *testing.T) {
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	tally := &Tally{}
	tally.Add(engine.Event{Kind: engine.EventLeagueStarted, Time: t0})
	at := t0
	for i := range 20 {
		switch {
		case i < 2:
			at = at.Add(500 * time.Millisecond)
		default:
			at = at.Add(time.Second)
		}
		tally.Add(engine.Event{Kind: engine.EventMatchResult, MatchID: fmt.Sprintf("M%d", i), Time: at})
	}
	tally.Add(engine.Event{Kind: engine.EventLeagueCompleted, Time: at.Add(2 * time.Second)})
	first, last := tally.Tenths()
	if first != 2 || last != 0.5 {
		t.Errorf("tenths %v and %v matches/s, want 2 and 0.5", first, last)
	}
	if first, last := (&Tally{}).Tenths(); first != 0 || last != 0 {
		t.Errorf("an empty tally's tenths are %v and %v, want 0", first, last)
	}
}

// TestTallySwissRounds: a Swiss league's later rounds come as
// round_scheduled events, and the tally's total grows with them; the
// matches expected count them from the start.
func TestTallySwissRounds(t *testing.T) {
	var tally Tally
	tally.Add(engine.Event{Kind: engine.EventLeagueStarted, Time: time.Now(),
		Start: &engine.StartInfo{LegacyRounds: []engine.Round{{Number: 1, Matches: make([]engine.Pairing, 3)}}, RoundsPlanned: 2}})
	if tally.Expected != 6 {
		t.Errorf("expected %d at the start of two rounds of 3, want 6", tally.Expected)
	}
	tally.Add(engine.Event{Kind: engine.EventRoundScheduled, Round: 2, Schedule: &engine.Round{Number: 2, Matches: make([]engine.Pairing, 3)}})
	if tally.Total != 6 || tally.Expected != 6 {
		t.Errorf("total %d, expected %d after two rounds of 3, want 6 and 6", tally.Total, tally.Expected)
	}
}

// TestTallyRebuiltSchedule: a league_started as journals now write it
// carries the players, seed and format, not the rounds; the tally counts
// the rounds they give.
func TestTallyRebuiltSchedule(t *testing.T) {
	ids := []string{"P01", "P02", "P03", "P04", "P05", "P06"}
	for _, tc := range []struct {
		start           engine.StartInfo
		total, expected int
	}{
		{engine.StartInfo{Seed: 3, Players: ids}, 15, 15},
		{engine.StartInfo{Seed: 3, Players: ids, Format: &engine.FormatSpec{Format: engine.FormatSwiss, Rounds: 4}, RoundsPlanned: 4}, 3, 12},
	} {
		var tally Tally
		tally.Add(engine.Event{Kind: engine.EventLeagueStarted, Time: time.Now(), Start: &tc.start})
		if tally.Total != tc.total || tally.Expected != tc.expected {
			t.Errorf("%+v: total %d, expected %d; want %d and %d", tc.start.Format, tally.Total, tally.Expected, tc.total, tc.expected)
		}
	}
}
