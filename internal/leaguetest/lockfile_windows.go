package leaguetest

import (
	"os"

	"golang.org/x/sys/windows"
)

// lockFile waits for an exclusive lock on path, creating it, and returns
// what releases it. Windows releases it too if the test process dies.
func lockFile(path string) (unlock func(), err error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, err
	}
	var whole windows.Overlapped
	if err := windows.LockFileEx(windows.Handle(f.Fd()), windows.LOCKFILE_EXCLUSIVE_LOCK, 0, 1, 0, &whole); err != nil {
		f.Close()
		return nil, err
	}
	return func() { f.Close() }, nil
}
