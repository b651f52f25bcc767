package bench

import (
	"bytes"
	"encoding/json"
	"math"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"
)

// sampleFloor is sampleReport with a floor of 100 µs of CPU per exchange:
// 20,000 exchanges in 2 s using 2 s of CPU.
func sampleFloor() Report {
	r := sampleReport()
	r.Raw.CPU, r.Raw.CPUKnown = 3*time.Second, true // 20 µs an exchange
	r.Floor = FloorResult{Servers: 64, Clients: 8, InFlight: 32,
		ExchangeTally: ExchangeTally{Elapsed: 2 * time.Second, Exchanges: 20000, CPU: 2 * time.Second, CPUKnown: true}}
	return r
}

func TestFloorFigures(t *testing.T) {
	r := sampleFloor()
	perMatch := 100 * time.Microsecond * 40000 / 2016 // the league's 19.84 exchanges per match
	if got := r.FloorCPUPerMatch(); got != perMatch {
		t.Errorf("floor CPU per match %s, want %s", got, perMatch)
	}
	for name, got := range map[string][2]float64{
		"floor matches/s":                      {r.FloorMatchesPerSecond(), 2 / perMatch.Seconds()},
		"league CPU ÷ floor":                   {r.LeagueToFloorCPU(), (27.0 / 2016) / perMatch.Seconds()},
		"floor matches/s ÷ league's":           {r.FloorToLeagueMatches(), 2 / perMatch.Seconds() / 126},
		"raw's CPU per exchange ÷ the floor's": {r.FloorRatio(), 0.2},
	} {
		if math.Abs(got[0]-got[1]) > 1e-6*got[1] { // durations are whole nanoseconds
			t.Errorf("%s = %v, want %v", name, got[0], got[1])
		}
	}
}

func TestFloorTable(t *testing.T) {
	var out bytes.Buffer
	if err := sampleFloor().Table(&out); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"floor CPU per exchange   100 µs", "64 server and 8 client processes, one P each, 32 in flight", "20000 exchanges in 2s used 2.0 s of 2 CPUs x 2.0 s",
		"floor CPU per match      1.98 ms", "x 19.8 exchanges per match; league CPU per match 13.39 ms = x6.75 the floor",
		"floor matches/s          1008.0", "league matches/s 126.0 = x8.00 below the floor's",
		"raw being both ends in one process without JSON; an exchange used 20 µs of CPU in raw, 100 µs at the floor (HTTP alone between processes), which would make 0.200",
	} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("table lacks %q:\n%s", want, out.String())
		}
	}
	r := sampleFloor()
	r.Floor.CPU *= 2 // 200 µs an exchange: 504 matches/s at the floor
	out.Reset()
	if err := r.Table(&out); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"floor matches/s          504.0", "league matches/s 126.0 = x4.00 below the floor's", "= x3.38 the floor"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("a floor twice as dear: table lacks %q:\n%s", want, out.String())
		}
	}
	if strings.Contains(out.String(), "target >=") || strings.Contains(out.String(), "out of reach") {
		t.Errorf("the floor is set against a target:\n%s", out.String())
	}
}

func TestFloorWithoutProc(t *testing.T) {
	for name, r := range map[string]Report{"floor": sampleFloor(), "league": sampleFloor()} {
		if name == "floor" {
			r.Floor.CPUKnown = false
		} else {
			r.League.CPUKnown = false
		}
		var table, doc bytes.Buffer
		if err := r.Table(&table); err != nil {
			t.Fatal(err)
		}
		if err := r.JSON(&doc); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(table.String(), "floor CPU per exchange   n/a") || strings.Contains(table.String(), "floor matches/s") {
			t.Errorf("without the %s's CPU the floor should read n/a:\n%s", name, table.String())
		}
		if !strings.Contains(doc.String(), `"floor": null`) {
			t.Errorf("without the %s's CPU the floor should be null:\n%s", name, doc.String())
		}
	}
}

func TestFloorJSON(t *testing.T) {
	var out bytes.Buffer
	if err := sampleFloor().JSON(&out); err != nil {
		t.Fatal(err)
	}
	var got struct {
		Floor map[string]float64 `json:"floor"`
	}
	if err := json.Unmarshal(out.Bytes(), &got); err != nil {
		t.Fatalf("%v\n%s", err, out.String())
	}
	want := map[string]float64{"servers": 64, "clients": 8, "in_flight": 32, "seconds": 2, "exchanges": 20000,
		"exchanges_per_second": 10000, "ratio_to_raw": 0.2, "cpu_seconds": 2, "cpu_per_exchange_us": 100}
	for k, v := range want {
		if got.Floor[k] != v {
			t.Errorf("floor.%s = %v, want %v", k, got.Floor[k], v)
		}
	}
	for _, k := range []string{"cpu_per_match_ms", "matches_per_second", "league_cpu_per_match_ms", "league_cpu_to_floor", "floor_to_league_matches_per_second"} {
		if got.Floor[k] <= 0 {
			t.Errorf("floor.%s = %v, want > 0", k, got.Floor[k])
		}
	}
}

// TestFloorRatioRefusedWhenCoarse: a league whose CPU, read in /proc's
// 10 ms ticks over its processes, could be off by more than a quarter gets
// no league/floor ratio, in the table or in JSON, and is told why; the
// same league read finer gets one.
func TestFloorRatioRefusedWhenCoarse(t *testing.T) {
	fine := sampleFloor()
	fine.League.Processes = 73 // 27 s of CPU, off by 148 ms at most
	if fine.CoarseCPU() != "" || fine.LeagueToFloorCPU() <= 0 {
		t.Fatalf("27 s of CPU over 73 processes said too coarse: %q, ratio %v", fine.CoarseCPU(), fine.LeagueToFloorCPU())
	}
	tiny := sampleFloor()
	tiny.League.Matches, tiny.League.Exchanges, tiny.League.Processes = 18, 260, 7
	tiny.League.CPU = CPU{Manager: 30 * time.Millisecond, Referees: 50 * time.Millisecond, Players: 70 * time.Millisecond}
	if got := CPUReadingError(7); got < 45*time.Millisecond || got > 46*time.Millisecond {
		t.Errorf("the error of 7 processes' CPU is %s, want 10 ms x √21 = 45.8 ms", got)
	}
	coarse := tiny.CoarseCPU()
	if !strings.Contains(coarse, "the league's CPU, 150.00 ms over 7 processes") || tiny.LeagueToFloorCPU() != 0 {
		t.Errorf("150 ms over 7 processes: %q, ratio %v", coarse, tiny.LeagueToFloorCPU())
	}
	var table, js bytes.Buffer
	if err := tiny.Table(&table); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(table.String(), "no ratio: "+coarse) || regexp.MustCompile(`= x[0-9.]+ the floor`).MatchString(table.String()) {
		t.Errorf("the table does not refuse the ratio:\n%s", table.String())
	}
	if err := tiny.JSON(&js); err != nil {
		t.Fatal(err)
	}
	var got struct {
		Floor map[string]any `json:"floor"`
	}
	if err := json.Unmarshal(js.Bytes(), &got); err != nil {
		t.Fatal(err)
	}
	if ratio, ok := got.Floor["league_cpu_to_floor"]; !ok || ratio != nil || got.Floor["league_cpu_to_floor_refused"] != coarse {
		t.Errorf("JSON floor: ratio %v (present %v), refused %q", ratio, ok, got.Floor["league_cpu_to_floor_refused"])
	}
	tiny.Floor.CPU = 500 * time.Millisecond // 72 processes: off by 147 ms
	tiny.League = fine.League
	if !strings.Contains(tiny.CoarseCPU(), "the floor's CPU, 500.00 ms over 72 processes") {
		t.Errorf("a floor of 500 ms over 72 processes: %q", tiny.CoarseCPU())
	}
	// Pooled from two measures, the floor's reading adds up two sets of
	// processes, and may be off by as much as their number says.
	half := tiny.Floor
	half.CPU = 340 * time.Millisecond
	tiny.Floor = PoolFloors(half, half) // 680 ms over 144 processes: off by 208 ms
	if !strings.Contains(tiny.CoarseCPU(), "the floor's CPU, 680.00 ms over 144 processes") {
		t.Errorf("a floor of 680 ms pooled from two measures of 72 processes: %q", tiny.CoarseCPU())
	}
}

func TestFloorShare(t *testing.T) {
	total := 0
	for i := range 3 {
		part := share(32, 3, i)
		if part < 10 || part > 11 {
			t.Errorf("client %d of 3 gets %d of 32 in flight", i, part)
		}
		total += part
	}
	if total != 32 {
		t.Errorf("3 clients get %d in flight in all, want 32", total)
	}
}

func TestFloorPeerArguments(t *testing.T) {
	for _, args := range [][]string{
		{}, {"player"}, {FloorServerCommand, "extra"},
		{FloorClientCommand}, {FloorClientCommand, "--in-flight", "0", "http://127.0.0.1:1/mcp"},
		{FloorClientCommand, "--duration", "-1s", "http://127.0.0.1:1/mcp"}, {FloorClientCommand, "--bogus"},
	} {
		if _, err := NewFloorPeer(args, &bytes.Buffer{}); err == nil {
			t.Errorf("NewFloorPeer(%q) takes them", args)
		}
	}
	for _, args := range [][]string{{FloorServerCommand}, {FloorClientCommand, "--in-flight", "4", "http://127.0.0.1:1/mcp"}} {
		if _, err := NewFloorPeer(args, &bytes.Buffer{}); err != nil {
			t.Errorf("NewFloorPeer(%q): %v", args, err)
		}
	}
}

// TestFloorKinds: with both profiled, the floor's CPU by kind of work sits
// beside the league's, per exchange, with what the league spends above it.
func TestFloorKinds(t *testing.T) {
	r := sampleFloor() // the league: 40,000 exchanges; the floor: 20,000
	http, json := kindIndex(t, "HTTP: net/http server and client, sockets, syscalls"), kindIndex(t, "JSON: encoding and decoding")
	r.League.Breakdown = &Breakdown{Profiles: 73, Kinds: make([]KindCPU, len(WorkKinds()))}
	for k, kind := range WorkKinds() {
		r.League.Breakdown.Kinds[k].Kind = kind.Name
	}
	r.League.Breakdown.Kinds[http].CPU = CPU{Players: 6 * time.Second}  // 150 µs an exchange
	r.League.Breakdown.Kinds[json].CPU = CPU{Referees: 2 * time.Second} // 50
	r.Floor.Kinds, r.Floor.Profiles = make([]time.Duration, len(WorkKinds())), 72
	r.Floor.Kinds[http] = 1600 * time.Millisecond // 80 µs an exchange
	var out bytes.Buffer
	if err := r.Table(&out); err != nil {
		t.Fatal(err)
	}
	table := out.String()[strings.Index(out.String(), "The floor by kind of work"):]
	for _, want := range []string{`from its 72 CPU profiles`, `20000 exchanges`,
		`\nHTTP: net/http[^\n]* +80 +150 +\+70\n`, `\nJSON: encoding[^\n]* +0 +50 +\+50\n`, `\nall +80 +200 +\+120\n`} {
		if !regexp.MustCompile(want).MatchString(table) {
			t.Errorf("floor by kind lacks %s:\n%s", want, table)
		}
	}
	kinds := r.jsonFloor().Kinds
	if last := kinds[len(kinds)-1]; len(kinds) != 3 || last.Kind != "all" || last.Floor != 80 || last.League != 200 {
		t.Errorf("floor.kinds = %+v, want HTTP, JSON and all (80 and 200 µs)", kinds)
	}
	r.League.Breakdown = nil
	if r.floorKinds() != nil {
		t.Error("floor kinds without the league's breakdown")
	}
}

// TestPoolFloors: a floor measured before and after the league is their
// exchanges, time, CPU and profiles added up, each measure kept with its
// own CPU per exchange for the table and --json; an unknown CPU in
// either makes the pool's unknown.
func TestPoolFloors(t *testing.T) {
	before := FloorResult{Servers: 64, Clients: 8, InFlight: 32, When: "before the league",
		ExchangeTally: ExchangeTally{Elapsed: 2 * time.Second, Exchanges: 20000, CPU: 2 * time.Second, CPUKnown: true},
		Kinds:         []time.Duration{time.Second, 2 * time.Second}, Profiles: 72}
	after := FloorResult{Servers: 64, Clients: 8, InFlight: 32, When: "after the league",
		ExchangeTally: ExchangeTally{Elapsed: 2 * time.Second, Exchanges: 10000, CPU: 1500 * time.Millisecond, CPUKnown: true},
		Kinds:         []time.Duration{500 * time.Millisecond, 500 * time.Millisecond}, Profiles: 72}
	pooled := PoolFloors(before, after)
	if pooled.Exchanges != 30000 || pooled.Elapsed != 4*time.Second || pooled.CPU != 3500*time.Millisecond || !pooled.CPUKnown {
		t.Errorf("pooled tally %+v, want 30000 exchanges in 4s using 3.5s of CPU", pooled.ExchangeTally)
	}
	if pooled.Servers != 64 || pooled.Clients != 8 || pooled.InFlight != 32 || pooled.Profiles != 144 {
		t.Errorf("pooled shape %+v", pooled)
	}
	if want := []time.Duration{1500 * time.Millisecond, 2500 * time.Millisecond}; !slices.Equal(pooled.Kinds, want) {
		t.Errorf("pooled kinds %v, want %v", pooled.Kinds, want)
	}
	if len(pooled.Measures) != 2 || pooled.Measures[0].When != "before the league" || pooled.Measures[1].CPUPerExchange() != 150*time.Microsecond {
		t.Errorf("measures %+v", pooled.Measures)
	}
	if before.Kinds[0] != time.Second {
		t.Errorf("pooling changed a measure's kinds: %v", before.Kinds)
	}
	unknown := after
	unknown.CPUKnown = false
	if PoolFloors(before, unknown).CPUKnown {
		t.Error("a pool with an unknown CPU reading says its CPU is known")
	}

	r := sampleFloor()
	r.Floor = pooled
	var table, doc bytes.Buffer
	if err := r.Table(&table); err != nil {
		t.Fatal(err)
	}
	if want := "floor CPU per exchange   117 µs"; !strings.Contains(table.String(), want) {
		t.Errorf("table lacks %q:\n%s", want, table.String())
	}
	if want := "; 2 measures pooled: 100 µs before the league, 150 µs after the league"; !strings.Contains(table.String(), want) {
		t.Errorf("table lacks %q:\n%s", want, table.String())
	}
	if err := r.JSON(&doc); err != nil {
		t.Fatal(err)
	}
	var got struct {
		Floor struct {
			CPUPerExchangeUs float64 `json:"cpu_per_exchange_us"`
			Measures         []struct {
				When             string  `json:"when"`
				Seconds          float64 `json:"seconds"`
				Exchanges        int64   `json:"exchanges"`
				CPUSeconds       float64 `json:"cpu_seconds"`
				CPUPerExchangeUs float64 `json:"cpu_per_exchange_us"`
			} `json:"measures"`
		} `json:"floor"`
	}
	if err := json.Unmarshal(doc.Bytes(), &got); err != nil {
		t.Fatalf("%v\n%s", err, doc.String())
	}
	m := got.Floor.Measures
	if len(m) != 2 || m[0].When != "before the league" || m[0].CPUPerExchangeUs != 100 || m[0].Exchanges != 20000 ||
		m[1].When != "after the league" || m[1].CPUPerExchangeUs != 150 || m[1].Seconds != 2 || m[1].CPUSeconds != 1.5 {
		t.Errorf("floor.measures = %+v", m)
	}
	if math.Abs(got.Floor.CPUPerExchangeUs-116.666) > 0.01 {
		t.Errorf("floor.cpu_per_exchange_us = %v, want the pool's 116.67", got.Floor.CPUPerExchangeUs)
	}
}
