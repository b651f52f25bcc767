package ratelimit

import (
	"os"

	"golang.org/x/sys/windows"
)

// lockFile waits for an exclusive lock of f's first byte, released when f
// is closed (or its process dies).
func lockFile(f *os.File) error {
	var whole windows.Overlapped
	return windows.LockFileEx(windows.Handle(f.Fd()), windows.LOCKFILE_EXCLUSIVE_LOCK, 0, 1, 0, &whole)
}
