package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/leaguetui/leaguetui/config"
	"github.com/leaguetui/leaguetui/league/check"
	"github.com/leaguetui/leaguetui/league/sandbox"
)

const checkUsage = `leaguetui check: test one league.v2 agent, a player or a referee: would a leaguetui league play it, and does it conform to league.v2?

Usage:
  leaguetui check [flags] -- COMMAND ARGS...   start the agent, check it, stop it
  leaguetui check --listen [flags]             print a manager URL and check the agent
                                               that registers with it
  leaguetui check --list                       print every check

In COMMAND ARGS, {manager} is the checker's manager URL to register with,
{port} a free port to listen on, {name} a display name and {data} a data
folder of the agent's own. The checker plays the manager and a referee
around a player, or the manager and two players around a referee
(--role referee), and prints two verdicts, one line per check: PASS, FAIL
or SKIP with its id. "Plays in a leaguetui league" (the PLAYS checks:
matches played with leaguetui's referee's client, reading, deadlines and
retries) decides the exit status; league.v2 conformance (MUST, and SHOULD
with --strict) counts too with --strict. docs/check.md lists every check.

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
	fs := newCommandFlagSet("leaguetui check", checkUsage, stdout)
	role := fs.String("role", "player", "the agent's role: player or referee")
	game := fs.String("game", "", "check only this game: "+strings.Join(check.Games, " or ")+" (default: every game the agent declares)")
	strict := fs.Bool("strict", false, "also run the SHOULD checks, and make conformance count for the exit status")
	listen := fs.Bool("listen", false, "start no agent: print the manager URL and wait for one started by hand")
	asJSON := fs.Bool("json", false, "print one JSON object per check, then a summary object, instead of the lines")
	junit := fs.String("junit", "", "also write the verdicts as JUnit XML to `FILE`")
	expected := fs.String("expected-failures", "", "`FILE` of check ids, one a line, allowed to fail (a listed check that passes fails the run)")
	data := fs.String("data", "", "the agent's {data} folder and its output file (default: a temporary folder)")
	moveTimeout := fs.Duration("move-timeout", 30*time.Second, "the deadline the checker gives a player's move")
	list := fs.Bool("list", false, "print every check (level, id, roles, what it checks) and exit")
	registerTimeout := fs.Duration("register-timeout", 0, "how long to wait for the agent to register (default 60s, 10m with --listen)")
	noSandbox := fs.Bool("no-sandbox", false, "run the agent unconfined, as your own user (only an agent you trust: see docs/security.md)")
	requireSandbox := fs.Bool("require-sandbox", false, requireSandboxUsage)
	var reads readPaths
	fs.Var(&reads, "read", "let the sandboxed agent also read `PATH`, a file or folder, as a roster entry's \"read\" does (repeatable)")
	if err := parseArgs(fs, args); err != nil {
		return err
	}
	if *list {
		check.List(stdout)
		return nil
	}
	if *noSandbox && *requireSandbox {
		return &usageError{"--no-sandbox and --require-sandbox contradict each other"}
	}
	if *requireSandbox && !*listen && !sandbox.Probe().Confines() {
		return &usageError{"--require-sandbox: this machine cannot confine the agent (" +
			sandbox.Probe().Describe(sandbox.Limits{}, false) + ")"}
	}
	if len(reads) > 0 && *listen {
		return &usageError{"--read grants a path to the agent the checker starts; with --listen it starts none"}
	}
	exe, err := os.Executable()
	if err != nil {
		return fmt.Errorf("cannot find this program to confine the agent with: %w", err)
	}
	limits := config.DefaultProgramLimits
	opts := check.Options{Role: check.Role(*role), Strict: *strict, Listen: *listen, Command: fs.Args(), DataDir: *data,
		MoveTimeout: *moveTimeout, RegisterTimeout: *registerTimeout, Status: stderr,
		Executable: exe, NoSandbox: *noSandbox, RequireSandbox: *requireSandbox, Read: reads,
		Limits: sandbox.Limits{MemoryBytes: uint64(limits.MemoryMB) << 20, Processes: uint64(limits.Processes),
			FileBytes: uint64(limits.FileMB) << 20}}
	if *noSandbox {
		opts.Limits = sandbox.Limits{}
	}
	if *game != "" {
		opts.Games = []string{*game}
	}
	var allowed map[string]bool
	if *expected != "" {
		var err error
		if allowed, err = check.ReadExpectedFailures(*expected); err != nil {
			return &usageError{"--expected-failures: " + err.Error()}
		}
	}
	if err := checkOutputFile("junit", *junit); err != nil {
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
	if *asJSON {
		if err := report.WriteJSON(stdout); err != nil {
			return err
		}
	} else {
		report.WriteText(stdout)
	}
	if *junit != "" {
		if err := writeJUnit(*junit, report); err != nil {
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
