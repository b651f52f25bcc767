//go:build !linux

package bench

import "time"

// threadCPU is the CPU time of the calling thread, which only Linux tells
// (RUSAGE_THREAD): unknown here.
func threadCPU() (time.Duration, bool) { return 0, false }
