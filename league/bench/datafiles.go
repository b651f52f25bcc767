package bench

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"time"

	"github.com/leaguetui/leaguetui/agents/store"
)

// DataFiles is what a durable file cost in the league's data folder,
// measured by writing files the way a referee writes each match's (a
// temp file, fsync, rename, fsync of the folder) just after the league.
//
// Why the bench measures it: the match files are a fifth to a third of a
// referee's CPU, and what one costs depends on the file system more than
// on leaguetui. On ext4 without a journal, creating a file skips every
// free inode of its block group freed in the last minute or so (five when
// the inode table is not yet written back), one by one: after a build or
// a test run deleted thousands of files nearby, a creation costs tens of
// times what it costs in a quiet folder. This row says which a run had.
type DataFiles struct {
	Files      int
	Bytes      int
	CPUPerFile time.Duration
	Known      bool // false where the thread's CPU cannot be read
}

// dataFileProbes is how many files MeasureDataFiles writes: enough for a
// steady figure, few enough to take well under a second.
const dataFileProbes = 200

// MeasureDataFiles writes files of a match file's size into a folder of
// its own under dataDir, through store.WriteFileAtomic, reads the CPU its
// thread spent (the kernel's share is most of it), and removes the folder.
func MeasureDataFiles(dataDir string) (DataFiles, error) {
	dir := filepath.Join(dataDir, ".bench-data-files")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return DataFiles{}, err
	}
	defer os.RemoveAll(dir)
	content := make([]byte, 5000)
	for i := range content {
		content[i] = 'a' + byte(i%26)
	}
	runtime.LockOSThread() // getrusage(RUSAGE_THREAD) reads this thread only
	defer runtime.UnlockOSThread()
	before, known := threadCPU()
	for i := range dataFileProbes {
		if err := store.WriteFileAtomic(filepath.Join(dir, fmt.Sprintf("m%03d.json", i)), content); err != nil {
			return DataFiles{}, err
		}
	}
	after, _ := threadCPU()
	return DataFiles{Files: dataFileProbes, Bytes: len(content), CPUPerFile: (after - before) / dataFileProbes, Known: known}, nil
}
