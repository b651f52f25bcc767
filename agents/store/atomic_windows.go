package store

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"time"

	"golang.org/x/sys/windows"
)

// writeAtomic is WriteAtomic with the modes of the file and of any folder
// it creates, on Windows: a temp file through os.File, FlushFileBuffers,
// then os.Rename, which replaces the target (MoveFileEx with
// MOVEFILE_REPLACE_EXISTING). Windows cannot open a folder to sync it,
// and needs no such sync for the rename to hold.
func writeAtomic(path string, encode func(io.Writer) error, perm, folderPerm os.FileMode) (err error) {
	dir := filepath.Dir(path)
	tmp, err := createTemp(dir, path, folderPerm)
	if err != nil {
		return fmt.Errorf("store: %w", err)
	}
	closed := false
	defer func() {
		if err != nil {
			if !closed {
				tmp.Close()
			}
			os.Remove(tmp.Name())
		}
	}()
	buf := writeBuffers.Get().(*bufio.Writer)
	buf.Reset(tmp)
	defer func() { buf.Reset(nil); writeBuffers.Put(buf) }()
	out := &countingWriter{w: buf}
	if err := encode(out); err != nil {
		return fmt.Errorf("store: write %s: %w", path, err)
	}
	if err := out.w.Flush(); err != nil {
		return fmt.Errorf("store: write %s: %w", path, err)
	}
	// Windows keeps only the read-only bit of a mode.
	if err := tmp.Chmod(perm.Perm()); err != nil {
		return fmt.Errorf("store: %w", err)
	}
	if err := tmp.Sync(); err != nil {
		return fmt.Errorf("store: sync %s: %w", path, err)
	}
	closed = true
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("store: %w", err)
	}
	if err := rename(tmp.Name(), path); err != nil {
		return fmt.Errorf("store: %w", err)
	}
	countWrite(int(out.n))
	return nil
}

// createTemp creates the temp file that will become path, and its folder
// if it is missing.
func createTemp(dir, path string, folderPerm os.FileMode) (*os.File, error) {
	prefix := filepath.Join(dir, "."+filepath.Base(path)+".tmp-")
	tmp, err := openTemp(prefix)
	if !errors.Is(err, fs.ErrNotExist) {
		return tmp, err
	}
	if err := os.MkdirAll(dir, folderPerm); err != nil {
		return nil, err
	}
	return openTemp(prefix)
}

// openTemp creates a new file named prefix and a random number: a name
// that is taken is tried again with another number.
func openTemp(prefix string) (*os.File, error) {
	for try := 0; ; try++ {
		name := prefix + strconv.FormatUint(uint64(rand.Uint32()), 10)
		f, err := os.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
		if errors.Is(err, fs.ErrExist) && try < 10000 {
			continue
		}
		return f, err
	}
}

// syncDir does nothing on Windows: a folder cannot be opened for syncing,
// and a rename or a created file needs no sync of its folder there.
func syncDir(string) error { return nil }

// renameTries bounds the retries of a rename that another process's open
// handle on the target refuses for a moment (a reader that opened the file
// without FILE_SHARE_DELETE, as os.Open does, or a virus scanner).
const (
	renameTries = 50
	renameWait  = 10 * time.Millisecond
)

// rename moves a temp file over its target (os.Rename: MoveFileEx with
// MOVEFILE_REPLACE_EXISTING), trying again for a while while a reader
// holds the target open.
func rename(from, to string) error {
	var err error
	for range renameTries {
		if err = os.Rename(from, to); err == nil || !sharingRefused(err) {
			return err
		}
		time.Sleep(renameWait)
	}
	return err
}

// sharingRefused says err is Windows refusing a file because another
// handle holds it open.
func sharingRefused(err error) bool {
	return errors.Is(err, windows.ERROR_ACCESS_DENIED) || errors.Is(err, windows.ERROR_SHARING_VIOLATION) ||
		errors.Is(err, windows.ERROR_LOCK_VIOLATION)
}
