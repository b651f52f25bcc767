//go:build !windows

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
	"syscall"
)

// writeAtomic is WriteAtomic with the modes of the file and of any folder
// it creates.
//
// It works on file descriptors with the system calls themselves, not
// through os.File: opening an os.File asks the runtime's poller to take
// the descriptor (a regular file or a folder it cannot take, found out
// with fcntl and epoll calls that were a third of a match file's system
// calls) and sets a finalizer, for a file written once and closed.
func writeAtomic(path string, encode func(io.Writer) error, perm, folderPerm os.FileMode) (err error) {
	dir := filepath.Dir(path)
	tmp, err := createTemp(dir, path, folderPerm)
	if err != nil {
		return fmt.Errorf("store: %w", err)
	}
	defer func() {
		if err != nil {
			tmp.close()
			syscall.Unlink(tmp.name)
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
	// The temp file is created private (0o600); give it the asked mode,
	// whatever the umask.
	if err := tmp.do("chmod", func(fd int) error { return syscall.Fchmod(fd, uint32(perm.Perm())) }); err != nil {
		return fmt.Errorf("store: %w", err)
	}
	if err := tmp.do("sync", syscall.Fsync); err != nil {
		return fmt.Errorf("store: sync %s: %w", path, err)
	}
	if err := tmp.close(); err != nil {
		return fmt.Errorf("store: %w", err)
	}
	if err := rename(tmp.name, path); err != nil {
		return fmt.Errorf("store: %w", err)
	}
	// The rename is only durable once the folder entry is; a failure here
	// still leaves a complete file in place, so it is not rolled back.
	if err := syncDir(dir); err != nil {
		return fmt.Errorf("store: sync folder of %s: %w", path, err)
	}
	countWrite(int(out.n))
	return nil
}

// createTemp creates the temp file that will become path, and its folder
// if it is missing. The folder is made only when the file cannot be: most
// writes go to a folder that exists, and asking first cost each of them a
// stat.
func createTemp(dir, path string, folderPerm os.FileMode) (*tempFile, error) {
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

// tempFile is a file being written by writeAtomic: a descriptor and the
// name it was created under.
type tempFile struct {
	fd     int
	name   string
	closed bool
}

// openTemp creates a new file named prefix and a random number, readable
// and writable by its owner only, the way os.CreateTemp does: a name that
// is taken is tried again with another number.
func openTemp(prefix string) (*tempFile, error) {
	for try := 0; ; try++ {
		name := prefix + strconv.FormatUint(uint64(rand.Uint32()), 10)
		fd, err := ignoringEINTR(func() (int, error) {
			return syscall.Open(name, syscall.O_WRONLY|syscall.O_CREAT|syscall.O_EXCL|syscall.O_CLOEXEC, 0o600)
		})
		if errors.Is(err, syscall.EEXIST) && try < 10000 {
			continue
		}
		if err != nil {
			return nil, &fs.PathError{Op: "open", Path: name, Err: err}
		}
		return &tempFile{fd: fd, name: name}, nil
	}
}

// Write writes p whole: write(2) may take less than it is given.
func (t *tempFile) Write(p []byte) (int, error) {
	written := 0
	for written < len(p) {
		n, err := ignoringEINTR(func() (int, error) { return syscall.Write(t.fd, p[written:]) })
		if n > 0 {
			written += n
		}
		if err != nil {
			return written, &fs.PathError{Op: "write", Path: t.name, Err: err}
		}
		if n == 0 {
			return written, &fs.PathError{Op: "write", Path: t.name, Err: io.ErrShortWrite}
		}
	}
	return written, nil
}

// do runs call on the file's descriptor, named op in its error.
func (t *tempFile) do(op string, call func(fd int) error) error {
	_, err := ignoringEINTR(func() (int, error) { return 0, call(t.fd) })
	if err != nil {
		return &fs.PathError{Op: op, Path: t.name, Err: err}
	}
	return nil
}

// close closes the descriptor once.
func (t *tempFile) close() error {
	if t.closed {
		return nil
	}
	t.closed = true
	if err := syscall.Close(t.fd); err != nil {
		return &fs.PathError{Op: "close", Path: t.name, Err: err}
	}
	return nil
}

// ignoringEINTR calls call again while a signal interrupts it.
func ignoringEINTR(call func() (int, error)) (int, error) {
	for {
		n, err := call()
		if err != syscall.EINTR {
			return n, err
		}
	}
}

// syncDir makes the entries of dir (a created or renamed file) durable.
// (Windows cannot open a folder for syncing and does not need it: see
// atomic_windows.go.)
func syncDir(dir string) error {
	fd, err := ignoringEINTR(func() (int, error) {
		return syscall.Open(dir, syscall.O_RDONLY|syscall.O_DIRECTORY|syscall.O_CLOEXEC, 0)
	})
	if err != nil {
		return &fs.PathError{Op: "open", Path: dir, Err: err}
	}
	folder := tempFile{fd: fd, name: dir}
	if err := folder.do("sync", syscall.Fsync); err != nil {
		folder.close()
		return err
	}
	return folder.close()
}

// rename moves a temp file over its target with rename(2) alone. os.Rename
// first stats the target to refuse replacing a folder, which rename(2)
// refuses by itself when the file moved is not a folder (EISDIR): that
// stat of a name in a folder of thousands of match files was most of
// what a rename cost a referee.
func rename(from, to string) error {
	err := syscall.Rename(from, to)
	for errors.Is(err, syscall.EINTR) {
		err = syscall.Rename(from, to)
	}
	if err != nil {
		return &os.LinkError{Op: "rename", Old: from, New: to, Err: err}
	}
	return nil
}
