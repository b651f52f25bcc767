package process

import (
	"io/fs"

	"golang.org/x/sys/windows"
)

// onDisk is what the file info describes holds on disk: on Windows, its
// size (os.FileInfo holds neither its blocks nor its links there).
func onDisk(info fs.FileInfo, links map[fileID]bool) uint64 {
	return uint64(info.Size())
}

// DiskCap is the disk cap of each of n programs whose entries set none:
// most (the default), or, where the disk holding dataDir has less free at
// the start, 1/diskFreeShare of its free space shared among them, in
// whole MiB, 1 MiB at least. shared says the free space set it.
func DiskCap(most uint64, dataDir string, n int) (limit uint64, shared bool) {
	dir, err := windows.UTF16PtrFromString(dataDir)
	if err != nil {
		return most, false
	}
	var free, total, totalFree uint64
	if err := windows.GetDiskFreeSpaceEx(dir, &free, &total, &totalFree); err != nil {
		return most, false
	}
	share := free / diskFreeShare / uint64(max(n, 1)) >> 20 << 20
	if share >= most {
		return most, false
	}
	return max(share, 1<<20), true
}
