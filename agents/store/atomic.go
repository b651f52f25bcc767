package store

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
)

// filePerm and dirPerm are the modes of everything the store creates: the data
// folder is meant to be read by the console and by people, not kept secret
// (tokens are never written to it).
const (
	filePerm = 0o644
	dirPerm  = 0o755
)

// WriteJSON writes v as indented JSON atomically: a temp file in the same
// folder, fsync, rename over path, fsync the folder. It creates parent folders.
// A reader never sees a half-written file, and a crash leaves either the old or
// the new file, never a mix or an empty one.
func WriteJSON(path string, v any) error {
	return WriteAtomic(path, IndentedJSON(func() any { return v }))
}

// IndentedJSON encodes the value snapshot returns as indented JSON, for
// WriteAtomic and NewCoalescer.
func IndentedJSON(snapshot func() any) func(io.Writer) error {
	return func(w io.Writer) error {
		data, err := json.MarshalIndent(snapshot(), "", "  ")
		if err != nil {
			return fmt.Errorf("encode: %w", err)
		}
		_, err = w.Write(append(data, '\n'))
		return err
	}
}

// WriteFileAtomic replaces path with data the way WriteJSON does, for files
// that are not JSON or are encoded already.
func WriteFileAtomic(path string, data []byte) error {
	return WriteAtomic(path, func(w io.Writer) error {
		_, err := w.Write(data)
		return err
	})
}

// WriteAtomic replaces path with what encode writes, the way WriteJSON
// does. encode writes through a buffer straight into the temp file, so a
// large file written piece by piece never sits whole in memory.
//
// The temp file's name starts with a dot and does not end in the target's
// extension, so a reader listing a folder for *.json never picks it up.
func WriteAtomic(path string, encode func(io.Writer) error) error {
	return writeAtomic(path, encode, filePerm, dirPerm)
}

// writeBuffers keeps the buffers writes go through: a referee writes a
// file for every match, and a buffer made for each would be most of what
// the file costs the garbage collector.
var writeBuffers = sync.Pool{New: func() any { return bufio.NewWriterSize(nil, 64<<10) }}

// countingWriter counts the bytes written through it.
type countingWriter struct {
	w *bufio.Writer
	n int64
}

func (c *countingWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += int64(n)
	return n, err
}

// ReadJSON reads the JSON file at path into v. A missing file's error wraps
// os.ErrNotExist, so callers can tell "not written yet" from a real failure.
func ReadJSON(path string, v any) error {
	data, err := os.ReadFile(path)
	if err != nil {
		return fmt.Errorf("store: %w", err)
	}
	if err := json.Unmarshal(data, v); err != nil {
		return fmt.Errorf("store: decode %s: %w", path, err)
	}
	return nil
}

// RemoveTempFiles deletes the temporary files that writers killed in the
// middle of an atomic write left under root (their targets are intact:
// the rename never happened). Only the data folder's owner may call it,
// while no agent writes there: a live writer's temporary file would go too.
func RemoveTempFiles(root string) error {
	return filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				return nil
			}
			return err
		}
		if name := d.Name(); d.Type().IsRegular() && strings.HasPrefix(name, ".") && strings.Contains(name, ".tmp-") {
			if err := os.Remove(path); err != nil && !errors.Is(err, fs.ErrNotExist) {
				return fmt.Errorf("store: %w", err)
			}
		}
		return nil
	})
}
