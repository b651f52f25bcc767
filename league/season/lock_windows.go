package season

import (
	"fmt"
	"os"
	"path/filepath"

	"golang.org/x/sys/windows"
)

// lock takes the season's adder lock, waiting for another adder: on
// Windows, LockFileEx on the lock file's first byte, released when the
// file closes or the process ends.
func lock(dir string) (unlock func(), err error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("season %s: %w", dir, err)
	}
	f, err := os.OpenFile(filepath.Join(dir, "season.lock"), os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, fmt.Errorf("season %s: %w", dir, err)
	}
	var whole windows.Overlapped
	if err := windows.LockFileEx(windows.Handle(f.Fd()), windows.LOCKFILE_EXCLUSIVE_LOCK, 0, 1, 0, &whole); err != nil {
		f.Close()
		return nil, fmt.Errorf("season %s: lock: %w", dir, err)
	}
	return func() { f.Close() }, nil // closing the file releases the lock
}
