package store

import (
	"errors"
	"fmt"
	"os"
	"strings"
)

// InheritedLockEnv names the descriptor of a data-folder lock that the
// parent process already holds and passed down (see DataLock.File): a
// manager started by `leaguetui --no-ui` or the console owns the folder
// through its parent's lock instead of competing with it.
const InheritedLockEnv = "LEAGUETUI_DATA_LOCK_FD"

// ErrDataFolderInUse is wrapped by LockDataFolder's error when another
// process owns the data folder.
var ErrDataFolderInUse = errors.New("data folder in use")

// DataLock is the exclusive ownership of a data folder: one manager (and
// the leaguetui that started it) per folder, so that two never append to
// one journal. It is an flock on Layout.Lock(), which the kernel releases
// when every process holding it has exited, even by SIGKILL: a crash never
// leaves a stale lock behind.
type DataLock struct {
	f *os.File
}

// writeHolder records who holds the lock, for the error a second owner
// gets: the PID and the command line.
func writeHolder(f *os.File) error {
	args := strings.Join(os.Args, " ")
	if err := f.Truncate(0); err != nil {
		return fmt.Errorf("store: write the lock file: %w", err)
	}
	if _, err := f.WriteAt([]byte(fmt.Sprintf("%d\n%s\n", os.Getpid(), args)), 0); err != nil {
		return fmt.Errorf("store: write the lock file: %w", err)
	}
	return nil
}

// lockHolder reads who holds the lock: "PID 123 (leaguetui --no-ui ...)".
func lockHolder(path string) string {
	data, err := os.ReadFile(path)
	pid, command, _ := strings.Cut(strings.TrimSpace(string(data)), "\n")
	if err != nil || pid == "" {
		return "another process"
	}
	return fmt.Sprintf("PID %s (%s)", pid, strings.TrimSpace(command))
}

// File is the lock's open file, to pass to a child process (as an extra
// file, named by InheritedLockEnv) that then owns the folder with us.
func (l *DataLock) File() *os.File { return l.f }

// Release gives the folder up. Children that inherited the lock keep it
// until they exit.
func (l *DataLock) Release() error {
	if l == nil {
		return nil
	}
	return l.f.Close()
}
