package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/leaguetui/leaguetui/config"
	"github.com/leaguetui/leaguetui/league/check"
	"github.com/leaguetui/leaguetui/league/gameprog"
	"github.com/leaguetui/leaguetui/league/sandbox"
)

const checkUsage = `leaguetui check: test one league.v2 agent, a player or a referee: would a leaguetui league play it, and does it conform to league.v2?

Usage:
  leaguetui check [flags] -- COMMAND ARGS...   start the agent, check it, stop it
  leaguetui check --listen [flags]             print a manager URL and check the agent
                                               that registers with it
  leaguetui check --game GAME.json [flags]     check a game program (its manifest)
  leaguetui check --list                       print every check

In COMMAND ARGS, {manager} is the checker's manager URL to register with,
{port} a free port to listen on, {name} a display name and {data} a data
folder of the agent's own. The checker plays the manager and a referee
around a player, or the manager and two players around a referee
(--role referee), and prints two verdicts, one line per check: PASS, FAIL
or SKIP with its id. "Plays in a leaguetui league" (the PLAYS checks:
matches played with leaguetui's referee's client, reading, deadlines and
retries) decides the exit status; league.v2 conformance (MUST, and SHOULD
with --strict) counts too with --strict. With --game GAME.json the
checker plays seeded matches of the game program, in the sandbox, and
judges the program (deterministic, legal moves accepted, garbage refused,
ends, hides the other seat's move, answer times). docs/check.md lists
every check.

Exit status: 0 the agent plays (and, with --strict, conforms), 1 it does
not, 2 a bad command line.

Flags:
`

// checkFailed ends a check run in which a check failed: exit status 1.
type checkFailed struct{ why string }

func (e *checkFailed) Error() string { return "check: " + e.why }

// failedBecause says why a run failed: the verdict that decided it.
func failedBecause(s check.Summary) *checkFailed {
	switch {
	case !s.Plays:
		return &checkFailed{fmt.Sprintf("the agent would lose matches technically in a leaguetui league (%d checks failed)", s.Failed)}
	case !s.Conforms:
		return &checkFailed{fmt.Sprintf("the agent does not conform to league.v2 (%d checks failed, --strict)", s.Failed)}
	}
	return &checkFailed{"--expected-failures lists a check that passed: take it off the list"}
}

func runCheck(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	f := newCheckFlags(stdout)
	if err := parseArgs(f.fs, args); err != nil {
		return err
	}
	if f.list {
		check.List(stdout)
		return nil
	}
	if err := f.refused(); err != nil {
		return err
	}
	if strings.HasSuffix(f.game, ".json") {
		return f.checkGame(ctx, stdout, stderr)
	}
	opts, err := f.options(stderr)
	if err != nil {
		return err
	}
	var allowed map[string]bool
	if f.expected != "" {
		if allowed, err = check.ReadExpectedFailures(f.expected); err != nil {
			return &usageError{"--expected-failures: " + err.Error()}
		}
	}
	if err := checkOutputFile("junit", f.junit); err != nil {
		return err
	}
	report, err := check.Run(ctx, opts)
	var usage *check.UsageError
	if errors.As(err, &usage) {
		return &usageError{usage.Msg}
	}
	if err != nil {
		return err
	}
	if ctx.Err() != nil {
		return nil // stopped by a signal: the verdicts would only say so
	}
	report.MarkExpected(allowed)
	return f.writeReport(report, stdout)
}

// checkFlags are the command line of leaguetui check, read.
type checkFlags struct {
	fs                                *flag.FlagSet
	role, game, junit, expected, data string
	strict, listen, asJSON, list      bool
	noSandbox, requireSandbox         bool
	moveTimeout, registerTimeout      time.Duration
	reads                             readPaths
}

// newCheckFlags defines the check's flags on a new flag set.
func newCheckFlags(stdout io.Writer) *checkFlags {
	f := &checkFlags{fs: newCommandFlagSet("leaguetui check", checkUsage, stdout)}
	fs := f.fs
	fs.StringVar(&f.role, "role", "player", "the agent's role: player or referee")
	fs.StringVar(&f.game, "game", "", "check only this game: "+strings.Join(check.Games, " or ")+" (default: every game the agent declares); a game program's manifest `GAME.json` checks that program instead")
	fs.BoolVar(&f.strict, "strict", false, "also run the SHOULD checks, and make conformance count for the exit status")
	fs.BoolVar(&f.listen, "listen", false, "start no agent: print the manager URL and wait for one started by hand")
	fs.BoolVar(&f.asJSON, "json", false, "print one JSON object per check, then a summary object, instead of the lines")
	fs.StringVar(&f.junit, "junit", "", "also write the verdicts as JUnit XML to `FILE`")
	fs.StringVar(&f.expected, "expected-failures", "", "`FILE` of check ids, one a line, allowed to fail (a listed check that passes fails the run)")
	fs.StringVar(&f.data, "data", "", "the agent's {data} folder and its output file (default: a temporary folder)")
	fs.DurationVar(&f.moveTimeout, "move-timeout", 30*time.Second, "the deadline the checker gives a player's move")
	fs.BoolVar(&f.list, "list", false, "print every check (level, id, roles, what it checks) and exit")
	fs.DurationVar(&f.registerTimeout, "register-timeout", 0, "how long to wait for the agent to register (default 60s, 10m with --listen)")
	fs.BoolVar(&f.noSandbox, "no-sandbox", false, "run the agent unconfined, as your own user (only an agent you trust: see docs/security.md)")
	fs.BoolVar(&f.requireSandbox, "require-sandbox", false, requireSandboxUsage)
	fs.Var(&f.reads, "read", "let the sandboxed agent also read `PATH`, a file or folder, as a roster entry's \"read\" does (repeatable)")
	return f
}

// refused is the check's flags that do not go together, or that this
// machine cannot honour.
func (f *checkFlags) refused() error {
	if f.noSandbox && f.requireSandbox {
		return &usageError{"--no-sandbox and --require-sandbox contradict each other"}
	}
	if f.requireSandbox && !f.listen && !sandbox.Probe().Confines() {
		return &usageError{"--require-sandbox: this machine cannot confine the agent (" +
			sandbox.Probe().Describe(sandbox.Limits{}, false) + ")"}
	}
	if len(f.reads) > 0 && f.listen {
		return &usageError{"--read grants a path to the agent the checker starts; with --listen it starts none"}
	}
	return nil
}

// options are the checker's options from the flags: the agent's command
// after them, confined with the default program limits unless
// --no-sandbox.
func (f *checkFlags) options(stderr io.Writer) (check.Options, error) {
	exe, err := os.Executable()
	if err != nil {
		return check.Options{}, fmt.Errorf("cannot find this program to confine the agent with: %w", err)
	}
	limits := config.DefaultProgramLimits
	opts := check.Options{Role: check.Role(f.role), Strict: f.strict, Listen: f.listen, Command: f.fs.Args(), DataDir: f.data,
		MoveTimeout: f.moveTimeout, RegisterTimeout: f.registerTimeout, Status: stderr,
		Executable: exe, NoSandbox: f.noSandbox, RequireSandbox: f.requireSandbox, Read: f.reads,
		Limits: sandbox.Limits{MemoryBytes: uint64(limits.MemoryMB) << 20, Processes: uint64(limits.Processes),
			FileBytes: uint64(limits.FileMB) << 20}}
	if f.noSandbox {
		opts.Limits = sandbox.Limits{}
	}
	if f.game != "" {
		opts.Games = []string{f.game}
	}
	return opts, nil
}

// writeReport prints the verdicts (lines, or JSON), writes --junit's
// file, and fails the run whose summary is not OK.
func (f *checkFlags) writeReport(report check.Report, stdout io.Writer) error {
	if f.asJSON {
		if err := report.WriteJSON(stdout); err != nil {
			return err
		}
	} else {
		report.WriteText(stdout)
	}
	if f.junit != "" {
		if err := writeJUnit(f.junit, report); err != nil {
			return err
		}
	}
	if s := report.Summary(); !s.OK {
		return failedBecause(s)
	}
	return nil
}

func writeJUnit(path string, report check.Report) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := report.WriteJUnit(f); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// readPaths are the --read paths, absolute (relative ones from the
// working folder), each one that exists.
type readPaths []string

func (r *readPaths) String() string { return strings.Join(*r, ",") }

func (r *readPaths) Set(path string) error {
	abs, err := filepath.Abs(path)
	if err != nil {
		return err
	}
	if _, err := os.Stat(abs); err != nil {
		return err
	}
	*r = append(*r, abs)
	return nil
}

// checkGame is `check --game GAME.json`: the game program checked, its
// verdicts written as an agent's are.
func (f *checkFlags) checkGame(ctx context.Context, stdout, stderr io.Writer) error {
	if f.listen || len(f.fs.Args()) > 0 || f.role != "player" {
		return &usageError{"--game " + f.game + " checks a game program: it takes no agent command, --listen or --role"}
	}
	var allowed map[string]bool
	var err error
	if f.expected != "" {
		if allowed, err = check.ReadExpectedFailures(f.expected); err != nil {
			return &usageError{"--expected-failures: " + err.Error()}
		}
	}
	if err := checkOutputFile("junit", f.junit); err != nil {
		return err
	}
	opts, done, err := f.gameOptions(stderr)
	if err != nil {
		return err
	}
	defer done()
	report, err := check.RunGame(ctx, opts)
	if err != nil || ctx.Err() != nil {
		return err
	}
	report.MarkExpected(allowed)
	if err := f.writeReport(report, stdout); err != nil {
		var failed *checkFailed
		if errors.As(err, &failed) {
			return gameFailedBecause(report)
		}
		return err
	}
	return nil
}

// gameFailedBecause says why a game's run failed: checks that failed, or
// an --expected-failures list naming one that passed.
func gameFailedBecause(report check.Report) *checkFailed {
	failed := 0
	for _, res := range report.Results {
		if res.Status == check.Fail && !res.ExpectedFailure {
			failed++
		}
	}
	if failed == 0 {
		return &checkFailed{"--expected-failures lists a check that passed: take it off the list"}
	}
	return &checkFailed{fmt.Sprintf("the game program fails %d of its checks", failed)}
}

// gameOptions loads --game's manifest and makes its game, run in the
// sandbox as a league's referee runs it, every line the program sends
// recorded for the checker; done removes the program logs' folder.
func (f *checkFlags) gameOptions(stderr io.Writer) (check.GameOptions, func(), error) {
	m, err := config.LoadGameManifest(f.game)
	if err != nil {
		return check.GameOptions{}, nil, &usageError{err.Error()}
	}
	g, err := gameprog.Register(m)
	if err != nil {
		return check.GameOptions{}, nil, &usageError{err.Error()}
	}
	exe, err := os.Executable()
	if err != nil {
		return check.GameOptions{}, nil, fmt.Errorf("cannot find this program to confine the game with: %w", err)
	}
	logs, err := os.MkdirTemp("", "leaguetui-check-game-")
	if err != nil {
		return check.GameOptions{}, nil, err
	}
	transcript := &check.GameTranscript{}
	g.SetSite(gameprog.Site{Shim: exe, LogDir: logs, Require: f.requireSandbox, Unconfined: f.noSandbox, Record: transcript.Record})
	opts := check.GameOptions{Manifest: m, Game: g, Transcript: transcript, NoSandbox: f.noSandbox, Status: stderr}
	return opts, func() { os.RemoveAll(logs) }, nil
}
