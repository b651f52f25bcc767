//go:build !windows

package store

import (
	"fmt"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// BenchmarkWriteFileAtomic writes a match-sized file (5 KB) into a folder
// the way a referee writes each match's, and reports the CPU the process
// spent a file (user and system, from getrusage): the wall time of a
// write is mostly the disk's, its CPU is what it costs the league.
func BenchmarkWriteFileAtomic(b *testing.B) {
	dir := b.TempDir()
	data := make([]byte, 5000)
	for i := range data {
		data[i] = 'a' + byte(i%26)
	}
	b.ReportAllocs()
	start := processCPU(b)
	i := 0
	for b.Loop() {
		if err := WriteFileAtomic(filepath.Join(dir, fmt.Sprintf("m%d.json", i)), data); err != nil {
			b.Fatal(err)
		}
		i++
	}
	b.ReportMetric(float64((processCPU(b)-start).Microseconds())/float64(i), "cpu-µs/op")
}

// processCPU is the CPU time this process has used so far.
func processCPU(b *testing.B) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
