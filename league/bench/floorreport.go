package bench

import (
	"fmt"
	"io"
	"math"
	"strings"
	"text/tabwriter"
	"time"
)

// The floor set against the league: what a match would cost, and how many
// the machine's CPUs would play a second, if its exchanges cost only what
// HTTP between processes costs (Floor).

// FloorCPUPerMatch is the floor's CPU per exchange times the league's
// exchanges per match; 0 when either is unknown.
func (r Report) FloorCPUPerMatch() time.Duration {
	return time.Duration(float64(r.Floor.CPUPerExchange()) * r.League.ExchangesPerMatch())
}

// FloorMatchesPerSecond is the matches per second the machine's CPUs would
// play at the floor: CPUs ÷ the floor's CPU per match.
func (r Report) FloorMatchesPerSecond() float64 {
	perMatch := r.FloorCPUPerMatch()
	if perMatch <= 0 {
		return 0
	}
	return float64(r.CPUs) / perMatch.Seconds()
}

// floorKnown says the floor and the league's CPU were both measured.
func (r Report) floorKnown() bool {
	return r.FloorCPUPerMatch() > 0 && r.League.CPUKnown && r.League.Matches > 0
}

// LeagueToFloorCPU is the league's CPU per match ÷ the floor's: how many
// times what HTTP between processes needs a match costs. 0 when either
// reading is too coarse to set against the other (CoarseCPU).
func (r Report) LeagueToFloorCPU() float64 {
	if r.CoarseCPU() != "" {
		return 0
	}
	return Ratio(float64(r.League.CPUPerMatch()), float64(r.FloorCPUPerMatch()))
}

// CPUReadingError is how far off the CPU that processes used, read from
// /proc before and after, may be: each process's user and system times
// count whole ticks of 1/userHZ s, and each of the four readings drops up
// to a tick. Taken as three standard deviations of the sum of those
// truncations (a tick × √(processes/3) each), a tick × √(3 × processes).
func CPUReadingError(processes int) time.Duration {
	return time.Duration(math.Sqrt(3*float64(processes)) * float64(time.Second/userHZ))
}

// coarseShare is the largest share of a CPU reading its error may make
// for the reading to be set against another: a quarter, which a league of
// 45 matches and 13 processes on two cores reads well within (some 16%),
// and one of 18 matches and 7 processes does not.
const coarseShare = 0.25

// CoarseCPU says why the league's or the floor's CPU reading is too coarse
// for the league/floor ratio (its error over a quarter of it, as in a tiny
// league, where the ratio could read 0 or double), or is "" when both
// are fine or unknown.
func (r Report) CoarseCPU() string {
	if !r.floorKnown() {
		return ""
	}
	for _, m := range []struct {
		what      string
		cpu       time.Duration
		processes int
	}{
		{"the league's", r.League.CPU.Total(), max(r.League.Processes, 1)},
		{"the floor's", r.Floor.CPU, r.Floor.processesRead()},
	} {
		if e := CPUReadingError(m.processes); float64(e) > coarseShare*float64(m.cpu) {
			return fmt.Sprintf("%s CPU, %s over %d processes read in ticks of %s, may be off by %s, over %.0f%% of it: too coarse for the ratio (a longer league or --raw-duration reads finer)",
				m.what, ms(m.cpu), m.processes, time.Second/userHZ, ms(e), 100*coarseShare)
		}
	}
	return ""
}

// FloorToLeagueMatches is the floor's matches/s ÷ the league's: how many
// times faster the league would play at the floor.
func (r Report) FloorToLeagueMatches() float64 {
	return Ratio(r.FloorMatchesPerSecond(), r.League.MatchesPerSecond())
}

// floorRows are the floor's rows of the table.
func (r Report) floorRows() [][4]string {
	f := r.Floor
	if !r.floorKnown() {
		return [][4]string{{"floor CPU per exchange", "n/a", "needs /proc for the CPU of the measure's processes and of the league", ""}}
	}
	lg := r.League
	return [][4]string{
		{"floor CPU per exchange", fmt.Sprintf("%.0f µs", micros(f.CPUPerExchange())),
			fmt.Sprintf("HTTP alone between processes: %d server and %d client processes, one P each, %d in flight, agents' server and transport, no JSON; %d exchanges in %s used %.1f s of %d CPUs x %.1f s",
				f.Servers, f.Clients, f.InFlight, f.Exchanges, f.Elapsed.Round(time.Millisecond), f.CPU.Seconds(), r.CPUs, f.Elapsed.Seconds()) +
				f.measuresNote(), ""},
		{"floor CPU per match", ms(r.FloorCPUPerMatch()), r.floorPerMatchNote(), ""},
		{"floor matches/s", fmt.Sprintf("%.1f", r.FloorMatchesPerSecond()),
			fmt.Sprintf("%d CPUs ÷ floor CPU per match; league matches/s %.1f = x%.2f below the floor's",
				r.CPUs, lg.MatchesPerSecond(), r.FloorToLeagueMatches()), ""},
	}
}

// belowFloor is the verdict column of the league's matches/s: how many
// times the floor's matches/s is above it; "" when the floor or the
// league's CPU is unknown.
func (r Report) belowFloor() string {
	if !r.floorKnown() || r.League.MatchesPerSecond() <= 0 {
		return ""
	}
	return fmt.Sprintf("x%.2f below floor", r.FloorToLeagueMatches())
}

// aboveFloor is the verdict column of the league's CPU: its CPU per match
// as a multiple of the floor's; "" when unknown or too coarse to say
// (CoarseCPU).
func (r Report) aboveFloor() string {
	if ratio := r.LeagueToFloorCPU(); r.floorKnown() && ratio > 0 {
		return fmt.Sprintf("x%.2f the floor", ratio)
	}
	return ""
}

// processesRead is how many processes' CPU the floor's reading adds up:
// each measure's servers and clients.
func (f FloorResult) processesRead() int {
	return (f.Servers + f.Clients) * max(len(f.Measures), 1)
}

// measuresNote gives each measure's CPU per exchange in a floor pooled
// from several, or nothing.
func (f FloorResult) measuresNote() string {
	if len(f.Measures) < 2 {
		return ""
	}
	var each []string
	for _, m := range f.Measures {
		each = append(each, fmt.Sprintf("%.0f µs %s", micros(m.CPUPerExchange()), m.When))
	}
	return fmt.Sprintf("; %d measures pooled: %s", len(f.Measures), strings.Join(each, ", "))
}

// floorPerMatchNote sets the league's CPU per match against the floor's,
// or says why it does not.
func (r Report) floorPerMatchNote() string {
	lg := r.League
	note := fmt.Sprintf("floor per exchange x %.1f exchanges per match; league CPU per match %s", lg.ExchangesPerMatch(), ms(lg.CPUPerMatch()))
	if coarse := r.CoarseCPU(); coarse != "" {
		return note + "; no ratio: " + coarse
	}
	return note + fmt.Sprintf(" = x%.2f the floor", r.LeagueToFloorCPU())
}

// FloorRatio is what the league/raw ratio would be for a league whose
// exchanges cost only the floor's CPU, on a machine both measures keep
// busy: the raw measure's CPU per exchange ÷ the floor's. Set from CPU
// rather than from exchanges/s, it holds on a loaded machine, where the
// raw measure, one process among many, gets less of the CPUs than the
// floor's 72. 0 when either is unknown.
func (r Report) FloorRatio() float64 {
	return Ratio(float64(r.Raw.CPUPerExchange()), float64(r.Floor.CPUPerExchange()))
}

// floorRatioNote puts the floor's ratio beside the league's.
func (r Report) floorRatioNote() string {
	if r.FloorRatio() == 0 {
		return ""
	}
	return fmt.Sprintf("; an exchange used %.0f µs of CPU in raw, %.0f µs at the floor (HTTP alone between processes), which would make %.3f",
		micros(r.Raw.CPUPerExchange()), micros(r.Floor.CPUPerExchange()), r.FloorRatio())
}

func micros(d time.Duration) float64 { return float64(d) / float64(time.Microsecond) }

// jsonFloor is the floor in --json: null where /proc is missing.
type jsonFloor struct {
	Servers            int     `json:"servers"`
	Clients            int     `json:"clients"`
	InFlight           int     `json:"in_flight"`
	Seconds            float64 `json:"seconds"`
	Exchanges          int64   `json:"exchanges"`
	ExchangesPerSecond float64 `json:"exchanges_per_second"`
	// RatioToRaw is the raw measure's CPU per exchange ÷ the floor's
	// (Report.FloorRatio), 0 when the raw's is unknown.
	RatioToRaw       float64 `json:"ratio_to_raw"`
	CPUSeconds       float64 `json:"cpu_seconds"`
	CPUPerExchangeUs float64 `json:"cpu_per_exchange_us"`
	CPUPerMatchMs    float64 `json:"cpu_per_match_ms"`
	MatchesPerSecond float64 `json:"matches_per_second"`
	// LeagueCPUPerMatchMs and the two distances set the league against
	// the floor: its CPU per match is LeagueCPUToFloor times the floor's,
	// its matches/s the floor's ÷ FloorToLeagueMatches. LeagueCPUToFloor
	// is null, and NoRatio says why, when a CPU reading is too coarse
	// (Report.CoarseCPU).
	LeagueCPUPerMatchMs  float64  `json:"league_cpu_per_match_ms"`
	LeagueCPUToFloor     *float64 `json:"league_cpu_to_floor"`
	NoRatio              string   `json:"league_cpu_to_floor_refused,omitempty"`
	FloorToLeagueMatches float64  `json:"floor_to_league_matches_per_second"`
	// Kinds, with --cpu-profile, is the profiled CPU per exchange by kind
	// of work at the floor and in the league, "all" last.
	Kinds []floorKind `json:"kinds,omitempty"`
	// Measures are the measures pooled into the figures above, each
	// with its own CPU per exchange.
	Measures []jsonFloorMeasure `json:"measures,omitempty"`
}

// jsonFloorMeasure is one measure of a pooled floor in --json.
type jsonFloorMeasure struct {
	When             string  `json:"when"`
	Seconds          float64 `json:"seconds"`
	Exchanges        int64   `json:"exchanges"`
	CPUSeconds       float64 `json:"cpu_seconds"`
	CPUPerExchangeUs float64 `json:"cpu_per_exchange_us"`
}

func (r Report) jsonFloor() *jsonFloor {
	if !r.floorKnown() {
		return nil
	}
	f := r.Floor
	out := &jsonFloor{Servers: f.Servers, Clients: f.Clients, InFlight: f.InFlight,
		Seconds: f.Elapsed.Seconds(), Exchanges: f.Exchanges, ExchangesPerSecond: f.PerSecond(), RatioToRaw: r.FloorRatio(),
		CPUSeconds: f.CPU.Seconds(), CPUPerExchangeUs: micros(f.CPUPerExchange()),
		CPUPerMatchMs: millis(r.FloorCPUPerMatch()), MatchesPerSecond: r.FloorMatchesPerSecond(),
		LeagueCPUPerMatchMs: millis(r.League.CPUPerMatch()), NoRatio: r.CoarseCPU(),
		FloorToLeagueMatches: r.FloorToLeagueMatches(), Kinds: r.floorKinds()}
	if out.NoRatio == "" {
		ratio := r.LeagueToFloorCPU()
		out.LeagueCPUToFloor = &ratio
	}
	for _, m := range f.Measures {
		out.Measures = append(out.Measures, jsonFloorMeasure{When: m.When, Seconds: m.Elapsed.Seconds(), Exchanges: m.Exchanges,
			CPUSeconds: m.CPU.Seconds(), CPUPerExchangeUs: micros(m.CPUPerExchange())})
	}
	return out
}

// byKind adds up the profiles' CPU by kind of work (an index in
// WorkKinds), whatever their role, once the processes that wrote them
// have exited.
func (p *cpuProfiles) byKind() ([]time.Duration, int, error) {
	total := make([]time.Duration, len(WorkKinds()))
	for path := range p.roles {
		kinds, err := readProfile(path)
		if err != nil {
			return nil, 0, err
		}
		for k, cpu := range kinds {
			total[k] += cpu
		}
	}
	return total, len(p.roles), nil
}

// floorKind is one kind of work's CPU per exchange at the floor and in the
// league, in µs.
type floorKind struct {
	Kind   string  `json:"kind"`
	Floor  float64 `json:"floor_us_per_exchange"`
	League float64 `json:"league_us_per_exchange"`
}

// floorKinds set the floor's profiles against the league's, kind by kind,
// with the total of each last ("all"); nil unless both were profiled.
func (r Report) floorKinds() []floorKind {
	f, b := r.Floor, r.League.Breakdown
	if f.Kinds == nil || b == nil || f.Exchanges == 0 {
		return nil
	}
	var out []floorKind
	var all floorKind
	for k, kind := range WorkKinds() {
		row := floorKind{Kind: kind.Name, Floor: micros(f.Kinds[k]) / float64(f.Exchanges), League: perExchange(b.Kinds[k].CPU, r.League)}
		all.Floor, all.League = all.Floor+row.Floor, all.League+row.League
		if row.Floor > 0 || row.League > 0 {
			out = append(out, row)
		}
	}
	all.Kind = "all"
	return append(out, all)
}

// floorKindsTable writes floorKinds for people, after the league's
// breakdown: what is left above the floor, kind by kind.
func (r Report) floorKindsTable(w io.Writer) error {
	kinds := r.floorKinds()
	if kinds == nil {
		return nil
	}
	fmt.Fprintf(w, "\nThe floor by kind of work, from its %d CPU profiles (floor-server-<pid>.pprof, floor-client-<pid>.pprof)\n"+
		"of the measure, %d exchanges, beside the league's: µs of profiled CPU per exchange, each sample counted as above.\n\n",
		r.Floor.Profiles, r.Floor.Exchanges)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "kind of work\tat the floor\tin the league\tleague above the floor")
	for _, k := range kinds {
		fmt.Fprintf(tw, "%s\t%.0f\t%.0f\t%+.0f\n", k.Kind, k.Floor, k.League, k.League-k.Floor)
	}
	return tw.Flush()
}
