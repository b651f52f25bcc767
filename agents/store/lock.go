package store

import (
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"syscall"
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

// LockDataFolder takes the data folder at root, or fails at once, naming
// the process that holds it. A lock inherited from the parent (through
// InheritedLockEnv) for the same file is taken over instead.
func LockDataFolder(root string) (*DataLock, error) {
	path := Layout{Root: root}.Lock()
	if err := os.MkdirAll(root, dirPerm); err != nil {
		return nil, fmt.Errorf("store: %w", err)
	}
	if l := inheritedLock(path); l != nil {
		return l, nil
	}
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, filePerm)
	if err != nil {
		return nil, fmt.Errorf("store: lock the data folder: %w", err)
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		f.Close()
		if errors.Is(err, syscall.EWOULDBLOCK) {
			return nil, fmt.Errorf("%w: %s is owned by %s; stop it first, or use another --data folder",
				ErrDataFolderInUse, root, lockHolder(path))
		}
		return nil, fmt.Errorf("store: lock %s: %w", path, err)
	}
	if err := writeHolder(f); err != nil {
		f.Close()
		return nil, err
	}
	return &DataLock{f: f}, nil
}

// inheritedLock is the lock the parent passed down, if it is the lock of
// path and this process can hold it (flock on a descriptor that shares the
// parent's open file succeeds: it is the same lock).
func inheritedLock(path string) *DataLock {
	fd, err := strconv.Atoi(os.Getenv(InheritedLockEnv))
	if err != nil || fd < 3 {
		return nil
	}
	var got, want syscall.Stat_t
	if syscall.Fstat(fd, &got) != nil || syscall.Stat(path, &want) != nil || got.Dev != want.Dev || got.Ino != want.Ino {
		return nil
	}
	if syscall.Flock(fd, syscall.LOCK_EX|syscall.LOCK_NB) != nil {
		return nil
	}
	return &DataLock{f: os.NewFile(uintptr(fd), path)}
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
