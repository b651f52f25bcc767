//go:build unix

package leaguetest

import (
	"os"

	"golang.org/x/sys/unix"
)

// lockFile waits for an exclusive lock on path, creating it, and returns
// what releases it. The kernel releases it too if the test process dies.
func lockFile(path string) (unlock func(), err error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, err
	}
	if err := unix.Flock(int(f.Fd()), unix.LOCK_EX); err != nil {
		f.Close()
		return nil, err
	}
	return func() { f.Close() }, nil
}
