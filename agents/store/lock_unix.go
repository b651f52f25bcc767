//go:build !windows

package store

import (
	"errors"
	"fmt"
	"os"
	"strconv"
	"syscall"
)

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
