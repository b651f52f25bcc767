package bench

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/leaguetui/leaguetui/engine"
	"github.com/leaguetui/leaguetui/league/control"
	"github.com/leaguetui/leaguetui/league/launcher"
	"github.com/leaguetui/leaguetui/league/process"
)

// LeagueResult is what a real league achieved.
type LeagueResult struct {
	Players, Referees int
	Matches           int           // matches played
	Game              string        // the game the league played
	Turns             int           // turns played: one per move asked of both players (even/odd: one a match)
	Wall              time.Duration // league_started to league_completed, on the manager's clock
	// Exchanges are the JSON-RPC requests every agent answered between
	// the start of the league and its end (the sum of their
	// requests_served, read before the start and again before stopping).
	Exchanges        int64
	MatchP50         time.Duration // match_assigned to match_result
	MatchP99         time.Duration
	ManagerPeakBytes int64 // VmHWM of the manager at the end
	ManagerPeakKnown bool  // false where /proc is missing
	// CPU is the CPU time the agents used between the start and the end,
	// by role: with the machine's CPU count and the wall time it says
	// whether the league was short of CPU or waiting.
	CPU      CPU
	CPUKnown bool // false where /proc is missing
	// FirstTenth and LastTenth are matches/s over the first and the last
	// tenth of the matches (Tally.Tenths).
	FirstTenth, LastTenth float64
	// FirstTenthCPU and LastTenthCPU are the agents' CPU per match over
	// the same tenths, read as the bench sees them pass (TenthsCPUKnown
	// false where /proc is missing or a tenth went unseen). Unlike
	// matches/s, other work on the machine moves them little, so they say
	// whether a result costs more late in a league on a machine that is
	// not quiet. /proc counts CPU in ticks of 10 ms: a tenth of a small
	// league may read 0.
	FirstTenthCPU, LastTenthCPU time.Duration
	TenthsCPUKnown              bool
	// PlayersInProcess says the players ran inside the bench process
	// (LeagueOptions.PlayersInProcess); their CPU is that process's.
	PlayersInProcess bool
	// StartUp is how long the agents took to start and register,
	// launcher.StartParallelism at a time, and Processes how many were
	// started.
	StartUp   time.Duration
	Processes int
	// AgentsMemoryBytes is the proportional set size of every agent
	// process at the end (the bench process's when players run in it):
	// the memory the whole league takes, shared pages split among their
	// users. AgentsMemoryKnown is false where /proc is missing.
	AgentsMemoryBytes int64
	AgentsMemoryKnown bool
	// Breakdown is where the agents' CPU went during the league, from
	// their CPU profiles; nil unless LeagueOptions.CPUProfileDir is set.
	Breakdown *Breakdown
	// DataFiles is what a durable file cost in the league's data folder,
	// measured just after the league (MeasureDataFiles).
	DataFiles DataFiles
}

// TenthsRatio is the last tenth's matches/s ÷ the first tenth's: near 1, a
// result costs the same late in the league as early on.
func (r LeagueResult) TenthsRatio() float64 { return Ratio(r.LastTenth, r.FirstTenth) }

// TenthsCPURatio is the last tenth's CPU per match ÷ the first tenth's:
// near 1, a result costs the same CPU late in the league as early on.
func (r LeagueResult) TenthsCPURatio() float64 {
	return Ratio(r.LastTenthCPU.Seconds(), r.FirstTenthCPU.Seconds())
}

// LeagueOptions are the league to measure: launcher.Spec, where its
// progress goes, and whether
// the players run as one process each or all inside the bench process.
type LeagueOptions struct {
	launcher.Spec
	Progress         io.Writer // what the bench does, a line each (nil: nowhere)
	PlayersInProcess bool
	// CPUProfileDir, when set, is where every agent writes a CPU profile
	// of the league (from its start to its end), which the result's
	// Breakdown classifies.
	CPUProfileDir string
}

// CPU is CPU time (user + system) by role.
type CPU struct {
	Manager, Referees, Players time.Duration
	// Games is the CPU of the referees' reaped children: the game
	// programs they start, one a match (ChildrenCPUTime); 0 for a
	// built-in game.
	Games time.Duration
}

// Total is the CPU time of every agent and of the game programs the
// referees started.
func (c CPU) Total() time.Duration { return c.Manager + c.Referees + c.Players + c.Games }

func (c CPU) sub(before CPU) CPU {
	return CPU{Manager: c.Manager - before.Manager, Referees: c.Referees - before.Referees, Players: c.Players - before.Players,
		Games: c.Games - before.Games}
}

// MatchesPerSecond is matches played per second of wall time.
func (r LeagueResult) MatchesPerSecond() float64 { return Rate(int64(r.Matches), r.Wall) }

// TurnsPerSecond is turns played per second of wall time.
func (r LeagueResult) TurnsPerSecond() float64 { return Rate(int64(r.Turns), r.Wall) }

// ExchangesPerSecond is HTTP exchanges per second of wall time.
func (r LeagueResult) ExchangesPerSecond() float64 { return Rate(r.Exchanges, r.Wall) }

// CPUPerMatch is the agents' CPU time per match, 0 when unknown.
func (r LeagueResult) CPUPerMatch() time.Duration {
	if !r.CPUKnown || r.Matches == 0 {
		return 0
	}
	return r.CPU.Total() / time.Duration(r.Matches)
}

// ExchangesPerMatch is how many exchanges one match costs, all agents
// together, the manager's share included.
func (r LeagueResult) ExchangesPerMatch() float64 {
	if r.Matches == 0 {
		return 0
	}
	return float64(r.Exchanges) / float64(r.Matches)
}

// StartUpPerAgent is the start-up divided among the agent processes.
func (r LeagueResult) StartUpPerAgent() time.Duration {
	if r.Processes == 0 {
		return 0
	}
	return r.StartUp / time.Duration(r.Processes)
}

// League launches opts' league as separate processes (launcher.Launch),
// plays it to the end and measures it; every process it started is stopped
// before it returns. Progress goes to opts.Progress.
func League(ctx context.Context, opts LeagueOptions) (LeagueResult, error) {
	result, profiles, err := runLeague(ctx, opts)
	if err == nil && profiles != nil { // the agents have exited: their profiles are whole
		result.Breakdown, err = profiles.read()
	}
	return result, err
}

// runLeague is League but for reading the agents' CPU profiles, which it
// has them write when opts.CPUProfileDir asks.
func runLeague(ctx context.Context, opts LeagueOptions) (LeagueResult, *cpuProfiles, error) {
	if opts.Players < 2 || opts.Referees < 1 {
		return LeagueResult{}, nil, fmt.Errorf("a league needs at least 2 players and 1 referee (got %d and %d)", opts.Players, opts.Referees)
	}
	progress := opts.Progress
	if progress == nil {
		progress = io.Discard
	}
	where := "processes"
	launched := opts.Spec
	if opts.PlayersInProcess {
		where, launched.Players = "inside this process", 0
	}
	if opts.CPUProfileDir != "" {
		launched.Env = append(launched.Env, profileEnv(opts.CPUProfileDir)...)
	}
	fmt.Fprintf(progress, "bench: launching the manager, %d referees and %d players (%s)\n", opts.Referees, opts.Players, where)
	began := time.Now()
	league, err := launcher.Launch(ctx, launched)
	if league != nil {
		defer league.Stop()
	}
	if err != nil {
		return LeagueResult{}, nil, err
	}
	var hosted hostedPlayers
	if opts.PlayersInProcess {
		if hosted, err = hostPlayers(ctx, opts.Spec, league.Manager.Endpoint, opts.Players); err != nil {
			return LeagueResult{}, nil, err
		}
		defer hosted.stop()
	}
	startUp := time.Since(began)
	fmt.Fprintf(progress, "bench: %d agent processes started and registered in %s\n", len(league.Children()), startUp.Round(time.Millisecond))
	result, profiles, err := play(ctx, league, hosted, opts.CPUProfileDir, progress)
	if err != nil {
		return result, profiles, err
	}
	result.Game = opts.Config.GameType
	if result.DataFiles, err = MeasureDataFiles(opts.Spec.DataDir); err != nil {
		return result, profiles, fmt.Errorf("measure the data folder's files: %w", err)
	}
	result.StartUp, result.Processes = startUp, len(league.Children())
	return result, profiles, err
}

// play starts a launched league, follows it to the end and takes the
// figures that need the processes alive: requests served, turns played
// and peak memory. With a profile folder, the agents profile their CPU
// from just before the start to the end.
func play(ctx context.Context, league *launcher.League, hosted hostedPlayers, profileDir string, progress io.Writer) (LeagueResult, *cpuProfiles, error) {
	endpoints := append(endpointsOf(league.Children()), hosted.endpoints()...)
	cpuOf := func() (CPU, bool) { return cpuOf(league, hosted) }
	var profiles *cpuProfiles
	if profileDir != "" {
		var err error
		profiles, err = openProfiles(profileDir, league, hosted)
		defer profiles.close()
		if err != nil {
			return LeagueResult{}, nil, err
		}
	}
	cpuBefore, _ := cpuOf()
	before, err := HealthCounts(ctx, endpoints)
	if err != nil {
		return LeagueResult{}, nil, err
	}
	fmt.Fprintln(progress, "bench: starting the league")
	if err := league.Control.Start(ctx); err != nil {
		return LeagueResult{}, nil, err
	}
	tenths := tenthsCPU{cpuOf: cpuOf, before: cpuBefore}
	tally, err := follow(ctx, league.Control, progress, tenths.mark)
	if err != nil {
		return LeagueResult{}, nil, err
	}
	cpuAfter, cpuKnown := cpuOf() // before the agents write their profiles, which is no work of the league's
	cpuAfter = settleGames(cpuOf, league.Referees, cpuBefore, cpuAfter)
	firstCPU, lastCPU, tenthsKnown := tenths.perMatch(cpuAfter, tally.Matches, cpuKnown)
	profiles.close()
	peak, known := PeakMemory(league.Manager.PID())
	agentsMemory, agentsKnown := agentsMemory(league, hosted)
	after, err := HealthCounts(ctx, endpoints)
	if err != nil {
		return LeagueResult{}, nil, err
	}
	fmt.Fprintln(progress, "bench: league completed; stopping the agents")
	first, last := tally.Tenths()
	return LeagueResult{Players: len(league.Players) + len(hosted), Referees: len(league.Referees),
		FirstTenth: first, LastTenth: last, FirstTenthCPU: firstCPU, LastTenthCPU: lastCPU, TenthsCPUKnown: tenthsKnown, PlayersInProcess: hosted != nil,
		Matches: tally.Matches, Turns: int(after.Turns - before.Turns), Wall: tally.Wall(), Exchanges: after.Served - before.Served,
		MatchP50: Percentile(tally.Durations, 50), MatchP99: Percentile(tally.Durations, 99),
		ManagerPeakBytes: peak, ManagerPeakKnown: known, AgentsMemoryBytes: agentsMemory, AgentsMemoryKnown: agentsKnown,
		CPU: cpuAfter.sub(cpuBefore), CPUKnown: cpuKnown}, profiles, nil
}

// agentsMemory sums the proportional set size of the league's processes,
// this one included when it hosts the players.
func agentsMemory(league *launcher.League, hosted hostedPlayers) (int64, bool) {
	var pids []int
	for _, c := range league.Children() {
		pids = append(pids, c.PID())
	}
	if hosted != nil {
		pids = append(pids, os.Getpid())
	}
	var total int64
	for _, pid := range pids {
		pss, ok := ProportionalMemory(pid)
		if !ok {
			return 0, false
		}
		total += pss
	}
	return total, true
}

// cpuOf reads the CPU time each of the league's processes has used so far,
// and the referees' reaped children's (their game programs); hosted
// players count as this whole process.
func cpuOf(league *launcher.League, hosted hostedPlayers) (CPU, bool) {
	manager, ok := CPUTime(league.Manager.PID())
	referees, refOK := sumCPU(league.Referees)
	games, gamesOK := sumChildrenCPU(league.Referees)
	players, playersOK := sumCPU(league.Players)
	if hosted != nil {
		players, playersOK = hosted.cpu()
	}
	return CPU{Manager: manager, Referees: referees, Players: players, Games: games}, ok && refOK && gamesOK && playersOK
}

func sumCPU(children []*process.Child) (time.Duration, bool) {
	var total time.Duration
	for _, c := range children {
		cpu, ok := CPUTime(c.PID())
		if !ok {
			return 0, false
		}
		total += cpu
	}
	return total, true
}

func endpointsOf(children []*process.Child) []string {
	endpoints := make([]string, len(children))
	for i, c := range children {
		endpoints[i] = c.Endpoint
	}
	return endpoints
}

// tenthsCPU reads the agents' CPU as the first and the ninth tenth of the
// matches pass, for the CPU per match of the first and the last tenth.
type tenthsCPU struct {
	cpuOf        func() (CPU, bool)
	before       CPU // at the start
	first, ninth CPU // when the first tenth was done, and the ninth
	// firstMatches and ninthMatches are the matches done at those reads.
	firstMatches, ninthMatches int
	known                      bool
}

// mark is follow's onTenth: it reads the CPU when the first tenth is done
// and when the ninth is (a Swiss league's count may skip a tenth).
func (t *tenthsCPU) mark(tenth, matches int) {
	switch {
	case tenth >= 1 && t.firstMatches == 0:
		cpu, ok := t.cpuOf()
		t.first, t.firstMatches, t.known = cpu, matches, ok
	case tenth >= 9 && t.ninthMatches == 0:
		cpu, ok := t.cpuOf()
		t.ninth, t.ninthMatches, t.known = cpu, matches, t.known && ok
	}
}

// perMatch gives the CPU per match of the first tenth and of the last,
// from the CPU read at the end (after) and all the matches; known is false
// unless every read worked and both tenths were seen.
func (t *tenthsCPU) perMatch(after CPU, matches int, afterKnown bool) (first, last time.Duration, known bool) {
	lastMatches := matches - t.ninthMatches
	if !t.known || !afterKnown || t.firstMatches == 0 || t.ninthMatches == 0 || lastMatches <= 0 {
		return 0, 0, false
	}
	first = t.first.sub(t.before).Total() / time.Duration(t.firstMatches)
	last = after.sub(t.ninth).Total() / time.Duration(lastMatches)
	return first, last, true
}

// follow reads the event feed until the league completes, printing a line
// each time another tenth of the matches is done (of all the league will
// have, its Swiss rounds still to pair included), so a long league shows
// that it moves and how fast, and calling onTenth with the tenth and the
// matches done.
func follow(ctx context.Context, c *control.Client, progress io.Writer, onTenth func(tenth, matches int)) (*Tally, error) {
	tally := &Tally{}
	var cursor int64
	reported := 0
	for {
		page, err := c.Events(ctx, cursor, 10*time.Second)
		if err != nil {
			return nil, err
		}
		for _, ev := range page.Events {
			over := tally.Add(ev)
			if ev.Kind == engine.EventLeagueStarted {
				fmt.Fprintf(progress, "bench: league started: %d matches\n", tally.Expected)
			}
			if tally.Expected > 0 && tally.Matches*10/tally.Expected > reported {
				reported = tally.Matches * 10 / tally.Expected
				elapsed := ev.Time.Sub(tally.Started)
				fmt.Fprintf(progress, "bench: %d/%d matches in %s, %.0f matches/s\n", tally.Matches, tally.Expected,
					elapsed.Round(time.Millisecond), Rate(int64(tally.Matches), elapsed))
				onTenth(reported, tally.Matches)
			}
			if over && tally.Stopped {
				return nil, errors.New("the league was stopped before it completed")
			}
			if over {
				return tally, nil
			}
		}
		cursor = page.LastSeq
	}
}
