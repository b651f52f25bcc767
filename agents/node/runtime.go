package node

import (
	"os"
	"runtime"
)

// OneProcessor runs this agent process on one P (GOMAXPROCS=1) unless the
// GOMAXPROCS variable says otherwise. It is for the processes of players
// and referees, not the manager, and only where the process is the agent's
// own (not a test binary or a bench holding many players).
//
// Why: a league is dozens of such processes on a few CPUs, each doing a
// little work per message. With one P per CPU, every request that readies
// a goroutine (net/http's connection reader, the handler, the background
// read after the body) wakes an idle P, and with it an OS thread that spins
// looking for work and goes back to sleep: futex and epoll calls that were
// some 15% of a player's CPU in `leaguetui bench`. With one P the goroutine
// runs on the P that readied it. The work of a player or a referee is
// waiting on the network, not computing, so one P costs it no throughput;
// the bench's 64 players and 8 referees used 17% less CPU per match with it
// (measured with `leaguetui bench` when this came in). The manager keeps every CPU: it is
// the one process all results go through, and one P made the league slower.
func OneProcessor() {
	if os.Getenv("GOMAXPROCS") == "" {
		runtime.GOMAXPROCS(1)
	}
}
