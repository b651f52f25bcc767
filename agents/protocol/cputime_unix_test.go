//go:build unix

package protocol

import (
	"syscall"
	"time"
)

// cpuTime is the CPU the process has used: on a shared machine, a
// benchmark's CPU per op varies less than its wall time.
func cpuTime() time.Duration {
	var usage syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &usage) != nil {
		return 0
	}
	return time.Duration(usage.Utime.Nano() + usage.Stime.Nano())
}
