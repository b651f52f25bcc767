package bench

import (
	"encoding/json"
	"fmt"
	"io"
	"text/tabwriter"
	"time"

	"github.com/leaguetui/leaguetui/league/launcher"
)

// Report is one bench run: the machine's raw capacity and the league's
// throughput, measured one after the other on the same machine.
type Report struct {
	Raw    RawResult
	League LeagueResult
	Floor  FloorResult // HTTP alone between processes (floor.go)
	CPUs   int         // the CPUs this process may use (runtime.NumCPU)
}

// Ratio is the league's exchanges per second ÷ the raw exchanges per
// second: the share of the machine's HTTP capacity the league uses. 1 would
// mean the league's agents cost nothing beyond HTTP itself.
func (r Report) Ratio() float64 {
	return Ratio(r.League.ExchangesPerSecond(), r.Raw.PerSecond())
}

// Table writes the report for people: figure, value, and what it was
// measured over.
func (r Report) Table(w io.Writer) error {
	raw, lg := r.Raw, r.League
	verdicts := r.Verdicts()
	rows := [][4]string{
		{"raw HTTP exchanges/s", fmt.Sprintf("%.0f", raw.PerSecond()),
			fmt.Sprintf("loopback, %d in flight, %d B request / %d B response, %s", raw.Concurrency, raw.RequestBytes, raw.ResponseBytes, raw.Elapsed.Round(time.Millisecond))},
		{"league matches/s", fmt.Sprintf("%.1f", lg.MatchesPerSecond()),
			fmt.Sprintf("%d matches, %d players%s, %d referees, in %s", lg.Matches, lg.Players, r.hosted(), lg.Referees, lg.Wall.Round(time.Millisecond)),
			r.belowFloor()},
		{"league turns/s", fmt.Sprintf("%.1f", lg.TurnsPerSecond()),
			fmt.Sprintf("%d turns of %s, %.1f per match", lg.Turns, r.game(), Ratio(float64(lg.Turns), float64(lg.Matches)))},
		{"first tenth matches/s", fmt.Sprintf("%.1f", lg.FirstTenth), "the first tenth of the matches, from league_started"},
		{"last tenth matches/s", fmt.Sprintf("%.1f", lg.LastTenth),
			fmt.Sprintf("the last tenth, to league_completed: %.2f x the first (target within 20%%)", lg.TenthsRatio()),
			verdictOf(verdicts, "last_tenth_to_first")},
		{"first tenth CPU/match", r.tenthCPU(lg.FirstTenthCPU), "the agents' CPU over the first tenth ÷ its matches"},
		{"last tenth CPU/match", r.tenthCPU(lg.LastTenthCPU), r.lastTenthCPUDetail()},
		{"league HTTP exchanges/s", fmt.Sprintf("%.0f", lg.ExchangesPerSecond()),
			fmt.Sprintf("%d exchanges, %.1f per match", lg.Exchanges, lg.ExchangesPerMatch())},
		{"match duration p50", ms(lg.MatchP50), "match_assigned to match_result"},
		{"match duration p99", ms(lg.MatchP99), ""},
		{"manager peak memory", r.peakMemory(), r.peakDetail(), verdictOf(verdicts, "manager_peak_memory_bytes")},
		{"league CPU", r.cpuUsed(), r.cpuDetail(), r.aboveFloor()},
		{"data file CPU", r.dataFileCPU(), r.dataFileDetail(), ""},
		{"start-up", fmt.Sprintf("%.1f s", lg.StartUp.Seconds()), fmt.Sprintf("%d agent processes started and registered, %d at a time: %s per agent", lg.Processes, launcher.StartParallelism(), ms(lg.StartUpPerAgent())), ""},
		{"agents' memory", r.agentsMemory(), "proportional set size of every agent process at the end" + r.hosted(), ""},
		{"ratio league/raw", fmt.Sprintf("%.3f", r.Ratio()), fmt.Sprintf("league exchanges/s ÷ raw exchanges/s, raw being both ends in one process without JSON%s", r.floorRatioNote()), ""},
	}
	rows = append(rows, r.floorRows()...)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "figure\tvalue\tverdict\tmeasured over") // verdict: a target's, or the league against the floor
	for _, row := range rows {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", row[0], row[1], row[3], row[2])
	}
	if err := tw.Flush(); err != nil || lg.Breakdown == nil {
		return err
	}
	if err := lg.Breakdown.table(w, lg); err != nil {
		return err
	}
	return r.floorKindsTable(w)
}

func (r Report) game() string {
	if r.League.Game == "" {
		return "the game"
	}
	return r.League.Game
}

func (r Report) agentsMemory() string {
	if !r.League.AgentsMemoryKnown {
		return "n/a"
	}
	return fmt.Sprintf("%.1f MiB", float64(r.League.AgentsMemoryBytes)/(1<<20))
}

func (r Report) hosted() string {
	if r.League.PlayersInProcess {
		return " (in one process)"
	}
	return ""
}

func (r Report) peakMemory() string {
	if !r.League.ManagerPeakKnown {
		return "n/a"
	}
	return fmt.Sprintf("%.1f MiB", float64(r.League.ManagerPeakBytes)/(1<<20))
}

// peakDetail says where the peak comes from, and the memory target for a
// league of the size it applies to.
func (r Report) peakDetail() string {
	if r.League.Players >= TargetManagerPeakAtSize {
		return fmt.Sprintf("VmHWM at the end of the league (target < %d MB at %d players)", TargetManagerPeakBytes/1_000_000, TargetManagerPeakAtSize)
	}
	return "VmHWM at the end of the league"
}

func (r Report) tenthCPU(perMatch time.Duration) string {
	if !r.League.TenthsCPUKnown {
		return "n/a"
	}
	return ms(perMatch)
}

// lastTenthCPUDetail sets the last tenth's CPU per match against the
// first's: the cost of a result, which other work on the machine moves
// far less than it moves matches/s.
func (r Report) lastTenthCPUDetail() string {
	if !r.League.TenthsCPUKnown || r.League.FirstTenthCPU <= 0 {
		return "the agents' CPU over the last tenth ÷ its matches"
	}
	return fmt.Sprintf("the agents' CPU over the last tenth ÷ its matches: %.2f x the first", r.League.TenthsCPURatio())
}

func (r Report) cpuUsed() string {
	if !r.League.CPUKnown {
		return "n/a"
	}
	return fmt.Sprintf("%.1f s", r.League.CPU.Total().Seconds())
}

// cpuDetail splits the CPU time by role and sets it against what the
// machine had: its CPUs times the wall time.
func (r Report) cpuDetail() string {
	lg := r.League
	if !lg.CPUKnown {
		return "no /proc"
	}
	available := time.Duration(r.CPUs) * lg.Wall
	games := ""
	if lg.CPU.Games > 0 { // a game program's league: the referees' reaped children
		games = fmt.Sprintf(", game programs %.1f s", lg.CPU.Games.Seconds())
	}
	return fmt.Sprintf("manager %.1f s, referees %.1f s, players %.1f s%s; %s per match; %d CPUs x wall = %.1f s",
		lg.CPU.Manager.Seconds(), lg.CPU.Referees.Seconds(), lg.CPU.Players.Seconds(), games, ms(lg.CPUPerMatch()), r.CPUs, available.Seconds())
}

func (r Report) dataFileCPU() string {
	if !r.League.DataFiles.Known {
		return "n/a"
	}
	return fmt.Sprintf("%.0f µs", micros(r.League.DataFiles.CPUPerFile))
}

// dataFileDetail says how the data file's cost was measured: a referee
// writes one such file for every match.
func (r Report) dataFileDetail() string {
	d := r.League.DataFiles
	return fmt.Sprintf("a durable %d B file in the league's data folder (temp file, fsync, rename, folder fsync), %d written after the league; a match writes one", d.Bytes, d.Files)
}

func ms(d time.Duration) string { return fmt.Sprintf("%.2f ms", millis(d)) }

func millis(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

// The JSON shape: rates per second, durations in milliseconds or seconds as
// each name says, memory in bytes; null where /proc is missing.
type (
	jsonReport struct {
		Raw    jsonRaw    `json:"raw"`
		League jsonLeague `json:"league"`
		Ratio  float64    `json:"ratio"`
		CPUs   int        `json:"cpus"`
		// Targets are the targets that apply to this run, each with
		// its verdict (Report.Verdicts): none, one or two. The league's
		// speed is set against the floor's instead (Floor).
		Targets []Verdict  `json:"targets"`
		Floor   *jsonFloor `json:"floor"`
		// CPUBreakdown is where the agents' CPU went, with --cpu-profile.
		CPUBreakdown *jsonBreakdown `json:"cpu_breakdown,omitempty"`
	}
	jsonRaw struct {
		Concurrency        int     `json:"concurrency"`
		Seconds            float64 `json:"seconds"`
		Exchanges          int64   `json:"exchanges"`
		ExchangesPerSecond float64 `json:"exchanges_per_second"`
		RequestBytes       int     `json:"request_bytes"`
		ResponseBytes      int     `json:"response_bytes"`
		CPUPerExchangeUs   float64 `json:"cpu_per_exchange_us"` // 0 where /proc is missing
	}
	jsonLeague struct {
		Players            int      `json:"players"`
		Referees           int      `json:"referees"`
		Matches            int      `json:"matches"`
		WallSeconds        float64  `json:"wall_seconds"`
		MatchesPerSecond   float64  `json:"matches_per_second"`
		Turns              int      `json:"turns"`
		TurnsPerSecond     float64  `json:"turns_per_second"`
		Exchanges          int64    `json:"exchanges"`
		ExchangesPerSecond float64  `json:"exchanges_per_second"`
		ExchangesPerMatch  float64  `json:"exchanges_per_match"`
		MatchP50Ms         float64  `json:"match_p50_ms"`
		MatchP99Ms         float64  `json:"match_p99_ms"`
		FirstTenthPerSec   float64  `json:"first_tenth_matches_per_second"`
		LastTenthPerSec    float64  `json:"last_tenth_matches_per_second"`
		FirstTenthCPUMs    *float64 `json:"first_tenth_cpu_per_match_ms"`
		LastTenthCPUMs     *float64 `json:"last_tenth_cpu_per_match_ms"`
		PlayersInProcess   bool     `json:"players_in_process"`
		ManagerPeakBytes   *int64   `json:"manager_peak_memory_bytes"`
		StartUpSeconds     float64  `json:"startup_seconds"`
		StartUpPerAgentMs  float64  `json:"startup_per_agent_ms"`
		Processes          int      `json:"processes"`
		AgentsMemoryBytes  *int64   `json:"agents_memory_bytes"`
		CPUSeconds         *jsonCPU `json:"cpu_seconds"`
		// DataFileCPUUs is what a durable file of a match file's size
		// cost in the league's data folder, in µs of CPU.
		DataFileCPUUs *float64 `json:"data_file_cpu_us"`
	}
	jsonCPU struct {
		Manager  float64 `json:"manager"`
		Referees float64 `json:"referees"`
		Players  float64 `json:"players"`
	}
)

// JSON writes the report as one indented JSON object.
func (r Report) JSON(w io.Writer) error {
	raw, lg := r.Raw, r.League
	out := jsonReport{
		Raw: jsonRaw{Concurrency: raw.Concurrency, Seconds: raw.Elapsed.Seconds(), Exchanges: raw.Exchanges,
			ExchangesPerSecond: raw.PerSecond(), RequestBytes: raw.RequestBytes, ResponseBytes: raw.ResponseBytes,
			CPUPerExchangeUs: micros(raw.CPUPerExchange())},
		League: jsonLeague{Players: lg.Players, Referees: lg.Referees, Matches: lg.Matches,
			WallSeconds: lg.Wall.Seconds(), MatchesPerSecond: lg.MatchesPerSecond(),
			Turns: lg.Turns, TurnsPerSecond: lg.TurnsPerSecond(),
			Exchanges: lg.Exchanges, ExchangesPerSecond: lg.ExchangesPerSecond(), ExchangesPerMatch: lg.ExchangesPerMatch(),
			MatchP50Ms: millis(lg.MatchP50), MatchP99Ms: millis(lg.MatchP99),
			FirstTenthPerSec: lg.FirstTenth, LastTenthPerSec: lg.LastTenth, PlayersInProcess: lg.PlayersInProcess},
		Ratio:   r.Ratio(),
		CPUs:    r.CPUs,
		Targets: r.Verdicts(),
		Floor:   r.jsonFloor(),
	}
	out.CPUBreakdown = lg.Breakdown.json(lg)
	out.League.StartUpSeconds, out.League.Processes = lg.StartUp.Seconds(), lg.Processes
	out.League.StartUpPerAgentMs = millis(lg.StartUpPerAgent())
	if lg.AgentsMemoryKnown {
		out.League.AgentsMemoryBytes = &lg.AgentsMemoryBytes
	}
	if lg.ManagerPeakKnown {
		out.League.ManagerPeakBytes = &lg.ManagerPeakBytes
	}
	if lg.TenthsCPUKnown {
		first, last := millis(lg.FirstTenthCPU), millis(lg.LastTenthCPU)
		out.League.FirstTenthCPUMs, out.League.LastTenthCPUMs = &first, &last
	}
	if lg.DataFiles.Known {
		us := micros(lg.DataFiles.CPUPerFile)
		out.League.DataFileCPUUs = &us
	}
	if lg.CPUKnown {
		cpu := secondsOf(lg.CPU)
		out.League.CPUSeconds = &cpu
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}
