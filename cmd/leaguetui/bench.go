package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"time"

	"github.com/leaguetui/leaguetui/agents/node"
	"github.com/leaguetui/leaguetui/config"
	"github.com/leaguetui/leaguetui/league/bench"
	"github.com/leaguetui/leaguetui/league/launcher"
)

const benchUsage = `leaguetui bench: measure how close a league runs to the machine's limit.

It takes three measures on this machine, one after the other (the floor
before the league and again after it):

  raw     a minimal Go HTTP server and client on 127.0.0.1 exchanging a real
          CHOOSE_PARITY_CALL and its response (JSON-RPC, about 600 and 400
          bytes) over keep-alive connections, --concurrency at a time, for
          --raw-duration. The server does no JSON work: this is the ceiling
          of HTTP on loopback for league-shaped traffic.
  league  a real league: the manager, --referees referees and --players
          players as separate processes on free ports, played to the end.
  floor   HTTP alone between separate processes, in the league's shape: a
          server process for each player (at most 64) and a client process
          for each referee, each on one P like them, --concurrency exchanges
          in flight for --raw-duration. Servers answer POST /mcp with an
          agent's HTTP server and a canned reply, clients post through an
          agent's transport; no JSON, no logs, no files. Its CPU per
          exchange is what no league of separate processes can go under.
          Taken before the league and again after it, the two pooled: on a
          shared machine one reading may differ from the other by a fifth
          or more, and the floor's row gives both.

Figures:
  raw HTTP exchanges/s     request/response pairs per second in the raw measure
  league matches/s         matches played / the league's wall time, from the
                           league_started event to league_completed
  first, last tenth        matches/s over the first and the last tenth of the
                           matches: a last tenth slower than the first means a
                           result costs more as the league goes on
  league HTTP exchanges/s  JSON-RPC requests all agents answered during the
                           league (sum of requests_served on every agent's
                           /health, before the start and before stopping)
                           / the same wall time; also shown per match
  match duration p50, p99  match_assigned to match_result on the event feed:
                           half, and 99%, of the matches took at most this
  manager peak memory      the manager's VmHWM (peak resident set) at the
                           end of the league; n/a where there is no /proc
  league CPU               CPU time (user + system) the agents used during the
                           league, by role and per match, beside the CPUs x wall
                           time the machine had: near it, the league is short
                           of CPU; far below, it waits (n/a without /proc)
  data file CPU            CPU a durable file of a match file's size cost in
                           the league's data folder, 200 written after the
                           league the way a referee writes each match's: how
                           much of the match files' cost is the file system's
  ratio league/raw         league exchanges/s / raw exchanges/s
  floor CPU per exchange   CPU time (user + system) of every floor process /
                           the exchanges they made, both measures pooled, each
                           measure's beside it (n/a without /proc)
  floor CPU per match      that x the league's exchanges per match, beside the
                           league's CPU per match (x N the floor); no N when
                           either CPU reading, /proc's 10 ms ticks summed over
                           its processes, may be off by over a quarter (a tiny
                           league): the row, and --json's
                           league_cpu_to_floor_refused, say why
  floor matches/s          CPUs / floor CPU per match: what the machine would
                           play if a match cost only its HTTP, beside the
                           league's matches/s (x N below it)

Reading the ratio: it is the share of the machine's HTTP capacity the league
turns into league traffic. Near 1, the agents cost little beyond HTTP itself
and only a faster machine or fewer exchanges per match make the league
faster. Well below 1, the time goes elsewhere: JSON, logs, the journal's
fsyncs, waiting between steps, or too few matches running at once to keep the
machine busy. Both measures share this machine's CPUs, but the league runs
one process per agent while the raw measure runs in one process, without the
scheduler and socket work of crossing processes: the ratio's row also says,
from the CPU of an exchange in each, the ratio a league whose exchanges cost
only the floor's would make, and the floor's rows how far the league is from
what its design allows.
Targets: the last tenth at least 0.8 x the first, and under 200 MB of manager
peak memory for 1,000 players; the verdict column says "met" or "short by ×N"
beside each that applies (--json: "targets"), and beside the league's
matches/s and CPU how far they are from the floor's (x N below, x N the floor).

--cpu-profile DIR (or LEAGUETUI_CPUPROFILE=DIR) makes every agent write a CPU
profile of the league, from its start to league_completed, to DIR
(<role>-<pid>.pprof, for go tool pprof; with --players-in-process the players'
is the bench's own, bench-players-<pid>.pprof), and prints after the figures
where that CPU went: per kind of work (JSON, HTTP, data files, journal,
logging, garbage collection...), its µs per exchange, ms per match and share
of each role's CPU. Each sample counts once, under the first kind in
league/bench/kinds.go's ordered list that a function on its stack shows.
The floor measure's processes write a profile of the measure there too
(floor-server-<pid>.pprof, floor-client-<pid>.pprof), counted apart: a last
table sets the floor's µs per exchange of each kind beside the league's, so
that it shows what the league spends above HTTP alone between processes.

With --game FILE.json (a game program's manifest, docs/games.md) the bench
measures two leagues instead, one after the other: the same league (players,
referees, seed) of the built-in game --builtin-game names, then of the game
program. It prints for each matches/s and CPU per match, split into the game
processes (the referees' reaped children: cutime and cstime of each referee's
/proc/<pid>/stat), the referees, the players and the manager; the programs
started and what one start of the program costs; and the ratio of the
program's CPU per match to the built-in game's, against the target of at most
1.3 x (a verdict; --json: "targets").

With --seats the bench measures three leagues instead, one after the
other, the same manager, referees and seed: --players push players (each
serving its own /mcp), as many pull-seat players (each taking its calls
from its seat on the manager's relay, answering each with its next poll)
and as many MCP-client seats (an MCP client of the official Go SDK per
seat, looping over wait_for_turn and submit_move), the players and clients
inside the bench process. It plays them --seat-rounds times, each round in
another order, and prints over the rounds each league's median match and
CPU a match (every process's) and what each seat adds to the push league's,
against the target of 2 ms added to the median (issue 46; --json:
"leagues", and "rounds" for each round's).

Progress goes to stderr; the result to stdout, as a table or, with --json,
as JSON (durations in ms or s as named, memory in bytes, null when n/a).

Flags:
`

// runBench measures the league's throughput against the machine's.
func runBench(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) > 0 && bench.IsFloorPeer(args[0]) {
		return runFloorPeer(ctx, args, stdout)
	}
	f, err := readBenchFlags(args, stdout)
	if err != nil {
		return err
	}
	exe, err := os.Executable()
	if err != nil {
		return fmt.Errorf("cannot find this program to start the agents: %w", err)
	}
	dir, cleanup, err := benchDataDir(f.data, f.keepData, stderr)
	if err != nil {
		return err
	}
	defer cleanup()
	if f.cfg.GameFile != "" {
		return f.runGame(ctx, exe, dir, stdout, stderr)
	}
	if f.seats {
		return f.runSeats(ctx, exe, dir, stdout, stderr)
	}
	report, err := f.measure(ctx, exe, dir, stderr)
	if err != nil {
		return stoppedOr(ctx, err)
	}
	if f.asJSON {
		return report.JSON(stdout)
	}
	return report.Table(stdout)
}

// benchFlags are the command line of leaguetui bench, read.
type benchFlags struct {
	fs  *flag.FlagSet
	cf  *config.Flags
	cfg config.Config

	players, referees, concurrency int
	rawDuration                    time.Duration
	seed                           int64
	data, cpuProfile, builtinGame  string
	args                           []string // as given, for the built-in league's flags
	keepData, asJSON, inProcess    bool
	seats                          bool // --seats: the league three ways (benchseats.go)
	seatRounds                     int  // --seat-rounds: how many times --seats plays them
}

// newBenchFlags defines the bench's flags on a new flag set.
func newBenchFlags(stdout io.Writer) *benchFlags {
	f := &benchFlags{}
	f.fs, f.cf = newFlagSet("leaguetui bench", benchUsage, stdout)
	fs := f.fs
	fs.IntVar(&f.players, "players", 64, "players in the league")
	fs.IntVar(&f.referees, "referees", 8, "referees in the league")
	fs.IntVar(&f.concurrency, "concurrency", 0, "exchanges in flight in the raw measure (default referees x each referee's\n"+
		"max concurrent matches x 2, as both players of a running match may be asked at once)")
	fs.DurationVar(&f.rawDuration, "raw-duration", 3*time.Second, "how long the raw measure runs, and the floor measure")
	fs.Int64Var(&f.seed, "seed", 1, "the league's seed (fixed, so that runs compare)")
	fs.StringVar(&f.data, "data", "", "data `folder` for the league, empty or new (default a temporary folder,\nremoved after unless --keep-data; a folder given here is always kept)")
	fs.BoolVar(&f.keepData, "keep-data", false, "keep the temporary data folder and print where it is")
	fs.BoolVar(&f.asJSON, "json", false, "print the result as JSON instead of a table")
	fs.BoolVar(&f.inProcess, "players-in-process", false, "run the players inside the bench process (each still its own HTTP\n"+
		"listener and player) instead of one process each: for leagues of hundreds of players")
	fs.StringVar(&f.builtinGame, "builtin-game", "", "with --game FILE.json, the built-in `game` whose league the program's is measured beside\n"+
		"(default the manifest's name without _program: even_odd for examples/games/even_odd.json)")
	fs.BoolVar(&f.seats, "seats", false, "measure instead the same league three ways, one after the other: push players, pull-seat\n"+
		"players and MCP-client seats, and what each seat adds to the median match (docs/benchmark.md)")
	fs.IntVar(&f.seatRounds, "seat-rounds", 3, "with --seats, how many times to play the three leagues, each time in another order")
	fs.StringVar(&f.cpuProfile, "cpu-profile", os.Getenv(node.CPUProfileEnv), "write every agent's CPU profile of the league to this `folder` and print where\n"+
		"the CPU went, by kind of work (default $"+node.CPUProfileEnv+")")
	return f
}

// readBenchFlags parses the bench's command line and refuses, before any
// measure, what it could not measure.
func readBenchFlags(args []string, stdout io.Writer) (*benchFlags, error) {
	f := newBenchFlags(stdout)
	f.args = args
	var err error
	if f.cfg, err = parse(f.fs, f.cf, args); err != nil {
		return nil, err
	}
	if err := checkLeague(f.cf, f.cfg, true); err != nil {
		return nil, err
	}
	if f.cpuProfile != "" {
		if err := checkOutputFolder("cpu-profile", f.cpuProfile); err != nil {
			return nil, err
		}
		if f.cpuProfile, err = filepath.Abs(f.cpuProfile); err != nil { // the agents may run elsewhere
			return nil, fmt.Errorf("--cpu-profile: %w", err)
		}
	}
	if f.cfg.GameFile != "" && f.cpuProfile != "" {
		return nil, &usageError{"--cpu-profile measures one league; with --game FILE.json the bench measures two: leave one of them out"}
	}
	if err := f.checkSeats(); err != nil {
		return nil, err
	}
	if f.players < 2 || f.referees < 1 {
		return nil, &usageError{fmt.Sprintf("a league needs --players 2 or more and --referees 1 or more (got --players %d --referees %d)", f.players, f.referees)}
	}
	if err := f.cfg.Format.CheckPlayers(f.players); err != nil {
		return nil, &usageError{err.Error()}
	}
	if f.concurrency < 0 || f.rawDuration <= 0 {
		return nil, &usageError{fmt.Sprintf("--concurrency must be >= 0 and --raw-duration > 0 (got %d and %s)", f.concurrency, f.rawDuration)}
	}
	if f.concurrency == 0 {
		f.concurrency = f.referees * f.cfg.Referee.MaxConcurrentMatches * 2
	}
	return f, nil
}

// measure takes the bench's measures one after the other: raw, the floor
// before the league, the league, the floor after it.
func (f *benchFlags) measure(ctx context.Context, exe, dir string, stderr io.Writer) (bench.Report, error) {
	fmt.Fprintf(stderr, "bench: raw measure, %d exchanges in flight for %s\n", f.concurrency, f.rawDuration)
	raw, err := bench.Raw(ctx, bench.RawOptions{Concurrency: f.concurrency, Duration: f.rawDuration})
	if err != nil {
		return bench.Report{}, err
	}
	fmt.Fprintf(stderr, "bench: raw: %.0f exchanges/s\n", raw.PerSecond())
	// The floor's processes in the league's shape: a server for each
	// player (at most the headline league's 64) and a client for each
	// referee, as many exchanges in flight as the raw measure. Measured
	// before the league and after it, and pooled (bench.PoolFloors).
	floorOpts := bench.FloorOptions{Executable: exe, Duration: f.rawDuration,
		Servers: min(f.players, 64), Clients: f.referees, InFlight: f.concurrency, CPUProfileDir: f.cpuProfile}
	floorBefore, err := measureFloor(ctx, floorOpts, filepath.Join(dir, "floor", "before"), "before the league", stderr)
	if err != nil {
		return bench.Report{}, err
	}
	league, err := bench.League(ctx, bench.LeagueOptions{PlayersInProcess: f.inProcess, CPUProfileDir: f.cpuProfile, Progress: stderr, Spec: launcher.Spec{
		Config: f.cfg, ConfigArgs: f.cf.Args(), Executable: exe,
		DataDir: dir, Players: f.players, Referees: f.referees, Seed: f.seed, Given: launcher.Given{Seed: true}, FreePorts: true}})
	if err != nil {
		return bench.Report{}, err
	}
	floorAfter, err := measureFloor(ctx, floorOpts, filepath.Join(dir, "floor", "after"), "after the league", stderr)
	if err != nil {
		return bench.Report{}, err
	}
	return bench.Report{Raw: raw, League: league, Floor: bench.PoolFloors(floorBefore, floorAfter), CPUs: runtime.NumCPU()}, nil
}

// measureFloor takes one floor measure, its processes' output in dir,
// saying on stderr what it does and what it found.
func measureFloor(ctx context.Context, opts bench.FloorOptions, dir, when string, stderr io.Writer) (bench.FloorResult, error) {
	opts.Dir, opts.When = dir, when
	fmt.Fprintf(stderr, "bench: floor measure, %d server and %d client processes, %d exchanges in flight for %s, %s\n",
		opts.Servers, min(opts.Clients, opts.InFlight), opts.InFlight, opts.Duration, when)
	floor, err := bench.Floor(ctx, opts)
	if err == nil {
		fmt.Fprintf(stderr, "bench: floor %s: %.0f µs of CPU per exchange\n", when, float64(floor.CPUPerExchange())/float64(time.Microsecond))
	}
	return floor, err
}

// runFloorPeer runs one process of the bench's floor measure, which the
// bench starts itself (a hidden subcommand): on one P, like a player or a
// referee, and profiled like them under --cpu-profile.
func runFloorPeer(ctx context.Context, args []string, stdout io.Writer) error {
	peer, err := bench.NewFloorPeer(args, stdout)
	if err != nil {
		return err
	}
	node.OneProcessor()
	return serve(ctx, args[0], peer)
}

// stoppedOr is err, or, when a signal (SIGTERM, Ctrl-C) stopped the bench,
// that: whatever call the signal cut short is not the reason. The agents
// the bench started are stopped by then.
func stoppedOr(ctx context.Context, err error) error {
	if ctx.Err() != nil {
		return fmt.Errorf("bench stopped before it finished (%v); the agents it started are stopped", context.Cause(ctx))
	}
	return err
}

// benchDataDir gives the league's data folder and what to do after. A
// folder the user names must be empty or new, since a manager resumes the
// league it finds in its folder; it is kept. The temporary folder is
// removed unless keep.
func benchDataDir(dir string, keep bool, stderr io.Writer) (string, func(), error) {
	if dir != "" {
		entries, err := os.ReadDir(dir)
		if err != nil && !errors.Is(err, os.ErrNotExist) {
			return "", nil, err
		}
		if len(entries) > 0 {
			return "", nil, fmt.Errorf("--data %s is not empty; bench needs a fresh folder", dir)
		}
		return dir, func() {}, nil
	}
	dir, err := os.MkdirTemp("", "leaguetui-bench-")
	if err != nil {
		return "", nil, err
	}
	if keep {
		return dir, func() { fmt.Fprintf(stderr, "bench: data kept in %s\n", dir) }, nil
	}
	return dir, func() { _ = os.RemoveAll(dir) }, nil
}
