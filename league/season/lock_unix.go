//go:build !windows

package season

import (
	"fmt"
	"os"
	"path/filepath"
	"syscall"
)

// lock takes the season's adder lock, waiting for another adder.
func lock(dir string) (unlock func(), err error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("season %s: %w", dir, err)
	}
	f, err := os.OpenFile(filepath.Join(dir, "season.lock"), os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, fmt.Errorf("season %s: %w", dir, err)
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX); err != nil {
		f.Close()
		return nil, fmt.Errorf("season %s: lock: %w", dir, err)
	}
	return func() { f.Close() }, nil // closing the file releases the flock
}
