package bench

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"text/tabwriter"
	"time"
)

// TargetGameProgramCPURatio is the target of a game program's cost: a
// league of the program costs no more than 1.3 times the CPU per match of
// the same league of the built-in game it plays as (issue 45: even/odd as
// a Python program beside the built-in even_odd).
const TargetGameProgramCPURatio = 1.3

// GameComparison is a league of a game program measured beside the same
// league (players, referees, seed) of a built-in game, one after the
// other on the same machine.
type GameComparison struct {
	Builtin, Program LeagueResult
	// Manifest is the game program's manifest.
	Manifest string
	// Programs is how many times the referees started the program: the
	// match logs it left in the data folder, one a run (gameprog).
	Programs int
	// StartCPU is the CPU one start and exit of the program costs with
	// no match to play (its standard input closed at once), outside the
	// sandbox, the mean of StartRuns; StartKnown is false when it could
	// not be run.
	StartCPU   time.Duration
	StartRuns  int
	StartKnown bool
	CPUs       int
}

// CPURatio is the program league's CPU per match ÷ the built-in league's.
func (c GameComparison) CPURatio() float64 {
	return Ratio(c.Program.CPUPerMatch().Seconds(), c.Builtin.CPUPerMatch().Seconds())
}

// Verdict sets CPURatio against TargetGameProgramCPURatio: met at 1.3 or
// under.
func (c GameComparison) Verdict() Verdict {
	v := atMost("game_program_cpu_ratio", c.CPURatio(), TargetGameProgramCPURatio)
	if c.CPURatio() <= TargetGameProgramCPURatio {
		v.Met, v.ShortBy = true, 1
	}
	if !c.Builtin.CPUKnown || !c.Program.CPUKnown {
		v.Met, v.ShortBy = false, 0
	}
	return v
}

// roleMatch is a role's CPU divided by the league's matches.
func roleMatch(lg LeagueResult, d time.Duration) time.Duration {
	if !lg.CPUKnown || lg.Matches == 0 {
		return 0
	}
	return d / time.Duration(lg.Matches)
}

// gameRow is one figure of both leagues, with how it was measured.
type gameRow struct {
	figure           string
	builtin, program time.Duration
	over             string
}

func (c GameComparison) rows() []gameRow {
	b, p := c.Builtin, c.Program
	return []gameRow{
		{"league CPU per match", b.CPUPerMatch(), p.CPUPerMatch(), "all of the rows below: the agents' /proc/<pid>/stat utime+stime, and the game processes'"},
		{"  game processes", roleMatch(b, b.CPU.Games), roleMatch(p, p.CPU.Games),
			"the referees' reaped children (cutime+cstime of each referee's /proc/<pid>/stat, what RUSAGE_CHILDREN gives): the game programs, sandbox shim included"},
		{"  referees", roleMatch(b, b.CPU.Referees), roleMatch(p, p.CPU.Referees), "the referee processes' own utime+stime"},
		{"  players", roleMatch(b, b.CPU.Players), roleMatch(p, p.CPU.Players), "the player processes' utime+stime"},
		{"  manager", roleMatch(b, b.CPU.Manager), roleMatch(p, p.CPU.Manager), "the manager's utime+stime"},
	}
}

// Table writes the comparison for people.
func (c GameComparison) Table(w io.Writer) error {
	b, p := c.Builtin, c.Program
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "figure\tbuilt-in %s\tprogram %s\tprogram − built-in\tmeasured over\n", b.Game, p.Game)
	fmt.Fprintf(tw, "matches/s\t%.1f\t%.1f\t\t%d and %d matches, %d players, %d referees, in %s and %s\n", b.MatchesPerSecond(), p.MatchesPerSecond(),
		b.Matches, p.Matches, p.Players, p.Referees, b.Wall.Round(time.Millisecond), p.Wall.Round(time.Millisecond))
	for _, r := range c.rows() {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", r.figure, c.cpuMs(b, r.builtin), c.cpuMs(p, r.program), c.cpuMs(p, r.program-r.builtin), r.over)
	}
	fmt.Fprintf(tw, "game programs started\t\t%d\t\t%s; %.2f a match\n", c.Programs, "match logs the referees left in the data folder, one a start", Ratio(float64(c.Programs), float64(p.Matches)))
	fmt.Fprintf(tw, "program start and exit\t\t%s\t\t%s\n", c.startCPU(), c.startOver())
	v := c.Verdict()
	fmt.Fprintf(tw, "CPU per match program/built-in\t\t%.2f\t%s\ttarget at most %.1f\n", c.CPURatio(), v, TargetGameProgramCPURatio)
	if err := tw.Flush(); err != nil {
		return err
	}
	_, err := fmt.Fprintf(w, "verdict: a league of the game program costs %.2f x the CPU per match of the built-in %s (target at most %.1f): %s\n",
		c.CPURatio(), b.Game, TargetGameProgramCPURatio, v)
	return err
}

func (c GameComparison) cpuMs(lg LeagueResult, d time.Duration) string {
	if !lg.CPUKnown {
		return "n/a"
	}
	return ms(d)
}

func (c GameComparison) startCPU() string {
	if !c.StartKnown {
		return "n/a"
	}
	return ms(c.StartCPU)
}

func (c GameComparison) startOver() string {
	return fmt.Sprintf("the manifest's command started %d times outside the sandbox, standard input closed at once: its CPU (rusage of the waited child) per start, the cost of starting the program with no match to play", c.StartRuns)
}

type (
	jsonGameComparison struct {
		Manifest string         `json:"manifest"`
		CPUs     int            `json:"cpus"`
		Builtin  jsonGameLeague `json:"builtin"`
		Program  jsonGameLeague `json:"program"`
		// GamePrograms is how many times the referees started the program.
		GamePrograms int `json:"game_programs_started"`
		// ProgramStartCPUMs is one start and exit of the program outside
		// the sandbox with no match, in ms of CPU; null when unknown.
		ProgramStartCPUMs *float64  `json:"program_start_cpu_ms"`
		CPURatio          float64   `json:"cpu_per_match_ratio"`
		Targets           []Verdict `json:"targets"`
	}
	jsonGameLeague struct {
		Game             string   `json:"game"`
		Players          int      `json:"players"`
		Referees         int      `json:"referees"`
		Matches          int      `json:"matches"`
		WallSeconds      float64  `json:"wall_seconds"`
		MatchesPerSecond float64  `json:"matches_per_second"`
		CPUPerMatchMs    *float64 `json:"cpu_per_match_ms"`
		// CPUPerMatchMsByRole splits it: games is the referees' reaped
		// children, the game programs.
		CPUPerMatchMsByRole *jsonRoleCPU `json:"cpu_per_match_ms_by_role"`
	}
	jsonRoleCPU struct {
		Games    float64 `json:"games"`
		Referees float64 `json:"referees"`
		Players  float64 `json:"players"`
		Manager  float64 `json:"manager"`
	}
)

func gameLeagueJSON(lg LeagueResult) jsonGameLeague {
	out := jsonGameLeague{Game: lg.Game, Players: lg.Players, Referees: lg.Referees, Matches: lg.Matches,
		WallSeconds: lg.Wall.Seconds(), MatchesPerSecond: lg.MatchesPerSecond()}
	if lg.CPUKnown {
		total := millis(lg.CPUPerMatch())
		out.CPUPerMatchMs = &total
		out.CPUPerMatchMsByRole = &jsonRoleCPU{Games: millis(roleMatch(lg, lg.CPU.Games)), Referees: millis(roleMatch(lg, lg.CPU.Referees)),
			Players: millis(roleMatch(lg, lg.CPU.Players)), Manager: millis(roleMatch(lg, lg.CPU.Manager))}
	}
	return out
}

// JSON writes the comparison as one indented JSON object.
func (c GameComparison) JSON(w io.Writer) error {
	out := jsonGameComparison{Manifest: c.Manifest, CPUs: c.CPUs, Builtin: gameLeagueJSON(c.Builtin), Program: gameLeagueJSON(c.Program),
		GamePrograms: c.Programs, CPURatio: c.CPURatio(), Targets: []Verdict{c.Verdict()}}
	if c.StartKnown {
		start := millis(c.StartCPU)
		out.ProgramStartCPUMs = &start
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}

// CountGamePrograms counts the match logs the referees' game programs
// left in a data folder (logs/games/<league>/<match>.log), one a start.
func CountGamePrograms(dataDir string) int {
	logs, _ := filepath.Glob(filepath.Join(dataDir, "logs", "games", "*", "*.log"))
	return len(logs)
}

// ProgramStartCPU starts command in dir runs times, its standard input
// closed at once, and gives the mean CPU (user + system) one run used: what
// starting the program costs before it plays anything. It runs outside
// the sandbox; ok is false when the command cannot run.
func ProgramStartCPU(command []string, dir string, runs int) (cpu time.Duration, ok bool) {
	if len(command) == 0 || runs <= 0 {
		return 0, false
	}
	name := command[0]
	if strings.ContainsRune(name, '/') && !filepath.IsAbs(name) {
		name = filepath.Join(dir, name) // a path from the manifest's folder
	}
	var total time.Duration
	for range runs {
		cpu, err := runOnce(name, command[1:], dir)
		if err != nil {
			return 0, false
		}
		total += cpu
	}
	return total / time.Duration(runs), true
}

// runOnce runs a program to its end with nothing on its standard input
// and gives the CPU it used.
func runOnce(name string, args []string, dir string) (time.Duration, error) {
	devNull, err := os.Open(os.DevNull)
	if err != nil {
		return 0, err
	}
	defer devNull.Close()
	cmd := exec.Command(name, args...)
	cmd.Dir, cmd.Stdin, cmd.Stdout, cmd.Stderr = dir, devNull, io.Discard, io.Discard
	if err := cmd.Run(); err != nil {
		return 0, err
	}
	return cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime(), nil
}
