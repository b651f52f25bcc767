package node

import (
	"os"
	"syscall"
)

// The signals that open and close the profiled window. Windows has no
// user signals: these numbers are never delivered there, so a profile
// asked for with CPUProfileWindowEnv is never started by a signal and is
// written when the agent stops (the bench's window needs Unix).
var (
	CPUProfileStart os.Signal = syscall.Signal(0x1e)
	CPUProfileStop  os.Signal = syscall.Signal(0x1f)
)
