package bench

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/leaguetui/leaguetui/league/process"
)

// ChildrenCPUTime is the CPU time (user + system) of a process's children
// that it has waited for, and of their own waited-for descendants, so far:
// cutime and cstime of /proc/<pid>/stat, what getrusage(RUSAGE_CHILDREN)
// says of the process itself. A referee's children are the game programs
// it starts, one a match (league/gameprog), and each counts once it has
// exited and the referee has reaped it. ok is false where there is no
// /proc.
func ChildrenCPUTime(pid int) (cpu time.Duration, ok bool) {
	data, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0, false
	}
	return parseStatChildrenCPU(string(data))
}

// parseStatChildrenCPU reads cutime and cstime, fields 16 and 17 of a
// /proc stat line.
func parseStatChildrenCPU(stat string) (time.Duration, bool) { return parseStatTicks(stat, 16) }

// sumChildrenCPU is the reaped children's CPU of every process given:
// for the referees, their game programs'.
func sumChildrenCPU(children []*process.Child) (time.Duration, bool) {
	var total time.Duration
	for _, c := range children {
		cpu, ok := ChildrenCPUTime(c.PID())
		if !ok {
			return 0, false
		}
		total += cpu
	}
	return total, true
}

// gameSettle bounds how long the bench waits, after a league of a game
// program completes, for the programs of its last matches to exit and be
// reaped (gameprog stops one a second after its match at the latest).
const gameSettle = 1500 * time.Millisecond

// settleGames gives after with the game programs' CPU read again once the
// referees have reaped the last of them (no referee has a child left, or
// gameSettle has passed), the agents' own CPU as it was at the end. A
// league whose referees reaped no child (a built-in game) is not waited
// for.
func settleGames(cpuOf func() (CPU, bool), referees []*process.Child, before, after CPU) CPU {
	if after.Games <= before.Games {
		return after
	}
	for deadline := time.Now().Add(gameSettle); time.Now().Before(deadline) && anyChildLeft(referees); {
		time.Sleep(10 * time.Millisecond) // a poll interval: /proc tells no one when a child is reaped
	}
	if later, ok := cpuOf(); ok {
		after.Games = later.Games
	}
	return after
}

// anyChildLeft says whether one of the processes still has a child, living
// or exited and not yet reaped (/proc/<pid>/task/*/children lists both).
// Where there is no /proc it says no.
func anyChildLeft(parents []*process.Child) bool {
	for _, c := range parents {
		tasks, _ := filepath.Glob("/proc/" + strconv.Itoa(c.PID()) + "/task/*/children")
		for _, f := range tasks {
			if data, err := os.ReadFile(f); err == nil && len(strings.TrimSpace(string(data))) > 0 {
				return true
			}
		}
	}
	return false
}
