package main

import (
	"context"
	"io"

	"github.com/leaguetui/leaguetui/league/bench"
	"github.com/leaguetui/leaguetui/league/launcher"
)

// checkSeats refuses what --seats cannot measure with it: it plays three
// leagues of its own, the players inside the bench process.
func (f *benchFlags) checkSeats() error {
	switch {
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
// and MCP-client seats (bench.Seats) and prints what each seat adds to
// the median match.
func (f *benchFlags) runSeats(ctx context.Context, exe, dir string, stdout, stderr io.Writer) error {
	result, err := bench.Seats(ctx, bench.SeatsOptions{Progress: stderr, Spec: launcher.Spec{
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
