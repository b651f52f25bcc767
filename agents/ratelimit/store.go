package ratelimit

import (
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"sync"
)

// maxStateBytes bounds what is read of the shared file: the state is a
// few hundred bytes; anything longer is no schedule of ours and is
// started afresh.
const maxStateBytes = 4 << 10

// store holds a schedule and changes it, one change at a time.
type store interface {
	update(change func(*state))
}

// memStore is a schedule of this process alone.
type memStore struct {
	mu sync.Mutex
	s  state
}

func (m *memStore) update(change func(*state)) {
	m.mu.Lock()
	defer m.mu.Unlock()
	change(&m.s)
}

// fileStore is a schedule in a file, changed under an exclusive lock of
// the file that every process using it takes. A file that cannot be
// opened or locked leaves the schedule to this process (fallback), so a
// player paces itself at least.
type fileStore struct {
	path     string
	mu       sync.Mutex
	fallback memStore
}

func (f *fileStore) update(change func(*state)) {
	f.mu.Lock()
	defer f.mu.Unlock()
	file, err := openLocked(f.path)
	if err != nil {
		f.fallback.update(change)
		return
	}
	defer file.Close() // which releases the lock
	var s state
	raw, err := io.ReadAll(io.LimitReader(file, maxStateBytes+1))
	if err != nil || len(raw) > maxStateBytes || json.Unmarshal(raw, &s) != nil {
		s = state{} // a half-written or foreign file: a fresh schedule
	}
	change(&s)
	out, _ := json.Marshal(s)
	// Written over in place, then cut to its length: a file cut to
	// nothing first is flushed to disk on close by some file systems
	// (ext4's replace-by-truncate), a millisecond a request.
	if n, err := file.WriteAt(out, 0); err == nil {
		_ = file.Truncate(int64(n))
	}
}

// openLocked opens the file at path, creating it and its folder, and
// waits for its exclusive lock.
func openLocked(path string) (*os.File, error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return nil, err
	}
	file, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, err
	}
	if err := lockFile(file); err != nil {
		file.Close()
		return nil, err
	}
	return file, nil
}
