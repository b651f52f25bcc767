package main

import (
	"context"
	"fmt"
	"io"

	"github.com/leaguetui/leaguetui/league/bench"
	"github.com/leaguetui/leaguetui/league/launcher"
)

// checkSeats refuses what --seats cannot measure with it: it plays three
// leagues of its own, the players inside the bench process.
func (f *benchFlags) checkSeats() error {
	switch {
	case f.seatRounds < 1:
		return &usageError{fmt.Sprintf("--seat-rounds must be 1 or more (got %d)", f.seatRounds)}
	case !f.seats:
		return nil
	case f.cfg.GameFile != "":
		return &usageError{"--seats measures the league of a built-in game three ways; --game FILE.json measures a game program: leave one of them out"}
	case f.cpuProfile != "":
		return &usageError{"--seats measures three leagues; --cpu-profile profiles one: leave one of them out"}
	}
	return nil
}

// runSeats measures the same league with push players, pull-seat players
// and MCP-client seats, f.seatRounds times (bench.Seats), and prints what
// each seat adds to the median match and to its CPU.
func (f *benchFlags) runSeats(ctx context.Context, exe, dir string, stdout, stderr io.Writer) error {
	result, err := bench.Seats(ctx, bench.SeatsOptions{Rounds: f.seatRounds, Progress: stderr, Spec: launcher.Spec{
		Config: f.cfg, ConfigArgs: f.cf.Args(), Executable: exe,
		DataDir: dir, Players: f.players, Referees: f.referees, Seed: f.seed, Given: launcher.Given{Seed: true}, FreePorts: true}})
	if err != nil {
		return stoppedOr(ctx, err)
	}
	if f.asJSON {
		return result.JSON(stdout)
	}
	return result.Table(stdout)
}
