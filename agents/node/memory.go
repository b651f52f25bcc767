package node

import (
	"os"
	"runtime/debug"
)

// SoftLimit is the soft memory limit of an agent that sets one: some
// hundred times a league agent's usual live heap, far under a machine's.
const SoftLimit = 150 << 20

// Memory is how an agent's process paces its garbage collector; a zero
// field keeps Go's default.
type Memory struct {
	// GCPercent is the collection target (GOGC): the heap grows to
	// 1 + GCPercent/100 times what is live before a collection.
	GCPercent int
	// SoftLimit is the soft memory limit (GOMEMLIMIT), in bytes: as the
	// heap nears it the collector runs more often instead. A league that
	// needs more gets more, at the price of more collection.
	SoftLimit int64
}

// SetMemory paces this process's collector as m says, each part unless
// the environment gives its own (GOGC, GOMEMLIMIT). It is for an agent's
// own process only (not for a test binary or a console that embeds other
// work).
func SetMemory(m Memory) {
	if m.GCPercent > 0 && os.Getenv("GOGC") == "" {
		debug.SetGCPercent(m.GCPercent)
	}
	if m.SoftLimit > 0 && os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(m.SoftLimit)
	}
}
