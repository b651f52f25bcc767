//go:build !windows

package node

import (
	"os"
	"syscall"
)

// The signals that open and close the profiled window. Only an agent
// started with CPUProfileWindowEnv listens for them; any other takes
// their default action (it ends), so they are sent to the bench's own
// children only.
var (
	CPUProfileStart os.Signal = syscall.SIGUSR1
	CPUProfileStop  os.Signal = syscall.SIGUSR2
)
