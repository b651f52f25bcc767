package store

import (
	"errors"
	"fmt"
	"os"
	"strconv"

	"golang.org/x/sys/windows"
)

// lockOffset is where the byte a data-folder lock holds lies: far past the
// holder's line at the start of the file, which another process must
// still read to name the holder (Windows refuses reads of a locked range).
const lockOffset = 1 << 40

// LockDataFolder takes the data folder at root, or fails at once, naming
// the process that holds it. On Windows the lock is LockFileEx on one byte
// of Layout.Lock(), which Windows releases when the handle closes or the
// process ends. A lock inherited from the parent (through
// InheritedLockEnv, a handle's number) for the same file is taken over
// instead.
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
	overlapped := windows.Overlapped{Offset: uint32(lockOffset & 0xffffffff), OffsetHigh: uint32(lockOffset >> 32)}
	err = windows.LockFileEx(windows.Handle(f.Fd()), windows.LOCKFILE_EXCLUSIVE_LOCK|windows.LOCKFILE_FAIL_IMMEDIATELY,
		0, 1, 0, &overlapped)
	if err != nil {
		f.Close()
		if errors.Is(err, windows.ERROR_LOCK_VIOLATION) || errors.Is(err, windows.ERROR_IO_PENDING) {
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

// inheritedLock is the lock the parent passed down (an inherited handle,
// see league/process), if that handle is open on the file at path. The
// parent holds the lock for as long as it runs; the child holds the
// handle.
func inheritedLock(path string) *DataLock {
	n, err := strconv.ParseUint(os.Getenv(InheritedLockEnv), 10, 64)
	if err != nil || n == 0 {
		return nil
	}
	h := windows.Handle(n)
	var got windows.ByHandleFileInformation
	if windows.GetFileInformationByHandle(h, &got) != nil {
		return nil
	}
	f, err := os.Open(path)
	if err != nil {
		return nil
	}
	defer f.Close()
	var want windows.ByHandleFileInformation
	if windows.GetFileInformationByHandle(windows.Handle(f.Fd()), &want) != nil ||
		got.VolumeSerialNumber != want.VolumeSerialNumber ||
		got.FileIndexHigh != want.FileIndexHigh || got.FileIndexLow != want.FileIndexLow {
		return nil
	}
	return &DataLock{f: os.NewFile(uintptr(h), path)}
}
