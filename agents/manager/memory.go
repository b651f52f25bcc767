package manager

import (
	"os"
	"runtime/debug"
)

// SoftMemoryLimit is the manager's default soft memory limit. Without one,
// the garbage collector lets the heap grow to twice what is live before it
// collects, so a manager of 1,000 players and half a million matches would
// sit at twice its live heap; with one, it collects more often as the heap
// nears the limit instead. It is a soft limit: a league that needs more
// gets more, at the price of more collection.
const SoftMemoryLimit = 150 << 20

// SetSoftMemoryLimit sets SoftMemoryLimit for this process, unless
// GOMEMLIMIT gives one. It is for the manager's own process only (not for
// a test binary or a console that embeds other work).
func SetSoftMemoryLimit() {
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(SoftMemoryLimit)
	}
}
