package store

import "sync/atomic"

// written counts what this process has written to the data folder: whole
// files (WriteFileAtomic) and journal batches. The counts let a test check
// that the work done per league event does not grow with the league.
var written struct {
	writes atomic.Int64
	bytes  atomic.Int64
}

func countWrite(n int) {
	written.writes.Add(1)
	written.bytes.Add(int64(n))
}

// WriteStats returns how many writes this process has made to the data
// folder and how many bytes they held, since it started. Logs are not
// counted: they are not data files.
func WriteStats() (writes, bytes int64) {
	return written.writes.Load(), written.bytes.Load()
}
