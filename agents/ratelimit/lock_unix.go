//go:build !windows

package ratelimit

import (
	"os"
	"syscall"
)

// lockFile waits for an exclusive lock of f, released when f is closed
// (or its process dies).
func lockFile(f *os.File) error {
	for {
		err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX)
		if err != syscall.EINTR {
			return err
		}
	}
}
