package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"

	"github.com/leaguetui/leaguetui/config"
	"github.com/leaguetui/leaguetui/engine"
	"github.com/leaguetui/leaguetui/league/bench"
	"github.com/leaguetui/leaguetui/league/launcher"
)

// programStartRuns is how many times the bench starts a game program
// alone to learn what one start costs.
const programStartRuns = 20

// runGame measures a league of the game program of --game FILE.json
// beside the same league of the built-in game, and prints the comparison.
func (f *benchFlags) runGame(ctx context.Context, exe, dir string, stdout, stderr io.Writer) error {
	c, err := f.measureGame(ctx, exe, dir, stderr)
	if err != nil {
		return stoppedOr(ctx, err)
	}
	if f.asJSON {
		return c.JSON(stdout)
	}
	return c.Table(stdout)
}

// measureGame plays the built-in league, then the program's, in folders
// of their own, and times a start of the program alone.
func (f *benchFlags) measureGame(ctx context.Context, exe, dir string, stderr io.Writer) (bench.GameComparison, error) {
	builtin, err := f.builtinFlags()
	if err != nil {
		return bench.GameComparison{}, err
	}
	fmt.Fprintf(stderr, "bench: the league of the built-in %s, then of the game program %s\n", builtin.cfg.GameType, f.cfg.GameFile)
	builtinResult, err := builtin.league(ctx, exe, filepath.Join(dir, "builtin"), stderr)
	if err != nil {
		return bench.GameComparison{}, err
	}
	programDir := filepath.Join(dir, "program")
	program, err := f.league(ctx, exe, programDir, stderr)
	if err != nil {
		return bench.GameComparison{}, err
	}
	m, err := config.LoadGameManifest(f.cfg.GameFile)
	if err != nil {
		return bench.GameComparison{}, err
	}
	fmt.Fprintf(stderr, "bench: starting the game program alone %d times\n", programStartRuns)
	start, known := bench.ProgramStartCPU(m.Command, m.Dir, programStartRuns)
	return bench.GameComparison{Builtin: builtinResult, Program: program, Manifest: m.Path, Programs: bench.CountGamePrograms(programDir),
		StartCPU: start, StartRuns: programStartRuns, StartKnown: known, CPUs: runtime.NumCPU()}, nil
}

// builtinFlags are the bench's flags with --game the built-in game the
// program is measured beside: --builtin-game, else the manifest's name
// without "_program".
func (f *benchFlags) builtinFlags() (*benchFlags, error) {
	name := f.builtinGame
	if name == "" {
		name = strings.TrimSuffix(f.cfg.GameType, "_program")
	}
	if _, ok := engine.LookupGame(name); !ok || engine.IsProgramGame(name) || config.IsGameFile(name) {
		return nil, &usageError{fmt.Sprintf("--builtin-game: %q is no built-in game; name the built-in game %s is measured beside", name, f.cfg.GameFile)}
	}
	return readBenchFlags(append(slices.Clone(f.args), "--game", name), io.Discard)
}

// league plays the flags' league in dir, made for it.
func (f *benchFlags) league(ctx context.Context, exe, dir string, stderr io.Writer) (bench.LeagueResult, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return bench.LeagueResult{}, err
	}
	return bench.League(ctx, bench.LeagueOptions{PlayersInProcess: f.inProcess, Progress: stderr, Spec: launcher.Spec{
		Config: f.cfg, ConfigArgs: f.cf.Args(), Executable: exe,
		DataDir: dir, Players: f.players, Referees: f.referees, Seed: f.seed, Given: launcher.Given{Seed: true}, FreePorts: true}})
}
