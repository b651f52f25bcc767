//go:build unix

package process

import (
	"io/fs"
	"syscall"
)

// onDisk is what the file info describes holds on disk: its blocks, once
// for every name it has among those links has seen.
func onDisk(info fs.FileInfo, links map[fileID]bool) uint64 {
	st, ok := info.Sys().(*syscall.Stat_t)
	if !ok {
		return uint64(info.Size())
	}
	if st.Nlink > 1 {
		id := fileID{uint64(st.Dev), st.Ino}
		if links[id] {
			return 0
		}
		links[id] = true
	}
	return uint64(st.Blocks) * 512
}

// DiskCap is the disk cap of each of n programs whose entries set none:
// most (the default), or, where the disk holding dataDir has less free at
// the start, 1/diskFreeShare of its free space shared among them, in
// whole MiB, 1 MiB at least. shared says the free space set it.
func DiskCap(most uint64, dataDir string, n int) (limit uint64, shared bool) {
	var st syscall.Statfs_t
	if err := syscall.Statfs(dataDir, &st); err != nil {
		return most, false
	}
	share := st.Bavail * uint64(st.Bsize) / diskFreeShare / uint64(max(n, 1)) >> 20 << 20
	if share >= most {
		return most, false
	}
	return max(share, 1<<20), true
}
