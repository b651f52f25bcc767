package sandbox

import (
	"bufio"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"golang.org/x/sys/unix"
)

// Held is what the deleted files a program's processes still hold take
// on disk: a file unlinked while open (or mapped) is in no folder, yet
// its blocks stay used until the last holder closes it.
type Held struct {
	Bytes uint64 // the blocks of each such file beneath the folders, once
	// Hidden is a process whose open files this process may not see (it
	// made itself undumpable): what it holds is not known.
	Hidden int
	// Partial says the measure stopped at maxHeldEntries open files and
	// mappings: a program holding that many is past any cap.
	Partial bool
}

type fileKey struct{ dev, ino uint64 }

// maxHeldEntries bounds one measure: past it, the measure stops there.
const maxHeldEntries = 200_000

// HeldDeleted measures the deleted files beneath folders that the
// processes pids (and each of their threads) hold open or map. Each file
// counts once, by its blocks (st_blocks), so a sparse one counts what it
// holds. A mapped file is stat'ed through /proc/PID/map_files where this
// process may (as root); elsewhere its mapped length counts.
func HeldDeleted(pids []int, folders []string) Held {
	seen := map[fileKey]bool{}
	var h Held
	looked := 0
	add := func(st *unix.Stat_t) {
		k := fileKey{st.Dev, st.Ino}
		if st.Nlink != 0 || st.Mode&unix.S_IFMT != unix.S_IFREG || seen[k] {
			return
		}
		seen[k] = true
		h.Bytes += uint64(st.Blocks) * 512
	}
	for _, pid := range pids {
		proc := "/proc/" + strconv.Itoa(pid)
		tasks, err := os.ReadDir(proc + "/task")
		if err != nil {
			continue // it has ended
		}
		for _, t := range tasks {
			// Threads share their files but for one cloned without them.
			task := proc + "/task/" + t.Name()
			fds := task + "/fd"
			entries, err := os.ReadDir(fds)
			if errors.Is(err, os.ErrPermission) && !exiting(task) {
				h.Hidden++
				continue
			}
			for _, e := range entries {
				if looked++; looked > maxHeldEntries {
					h.Partial = true
					return h
				}
				link, err := os.Readlink(fds + "/" + e.Name())
				if err != nil || !deletedBeneath(link, folders) {
					continue
				}
				var st unix.Stat_t
				if unix.Stat(fds+"/"+e.Name(), &st) == nil {
					add(&st)
				}
			}
		}
		looked += heldMappings(proc, folders, add, func(k fileKey, length uint64) {
			if !seen[k] {
				seen[k] = true
				h.Bytes += length
			}
		})
		if looked > maxHeldEntries {
			h.Partial = true
			return h
		}
	}
	return h
}

// heldMappings finds the mappings of deleted files beneath folders in
// proc's maps: stat'ed through map_files, or counted by their length
// where that is refused. It returns the mappings looked at.
func heldMappings(proc string, folders []string, stat func(*unix.Stat_t), length func(fileKey, uint64)) int {
	f, err := os.Open(proc + "/maps")
	if err != nil {
		return 0
	}
	defer f.Close()
	n := 0
	scanner := bufio.NewScanner(f)
	for scanner.Scan() {
		n++
		if n > maxHeldEntries {
			break
		}
		// START-END PERMS OFFSET MAJ:MIN INODE PATH
		fields := strings.SplitN(scanner.Text(), " ", 6)
		if len(fields) < 6 {
			continue
		}
		path := strings.TrimLeft(fields[5], " ")
		if !deletedBeneath(path, folders) {
			continue
		}
		var st unix.Stat_t
		if unix.Stat(proc+"/map_files/"+fields[0], &st) == nil {
			stat(&st)
			continue
		}
		start, end, _ := strings.Cut(fields[0], "-")
		lo, err1 := strconv.ParseUint(start, 16, 64)
		hi, err2 := strconv.ParseUint(end, 16, 64)
		major, minor, _ := strings.Cut(fields[3], ":")
		ma, err3 := strconv.ParseUint(major, 16, 32)
		mi, err4 := strconv.ParseUint(minor, 16, 32)
		ino, err5 := strconv.ParseUint(fields[4], 10, 64)
		if errors.Join(err1, err2, err3, err4, err5) == nil && hi > lo {
			length(fileKey{unix.Mkdev(uint32(ma), uint32(mi)), ino}, hi-lo)
		}
	}
	return n
}

// exiting says a task is ending (PF_EXITING in /proc's stat, or a
// zombie): the kernel hides the files of one that has given up its
// memory, whether or not it was dumpable.
func exiting(task string) bool {
	stat, err := os.ReadFile(task + "/stat")
	if err != nil {
		return true // gone
	}
	// PID (COMM) STATE PPID PGRP SESSION TTY TPGID FLAGS ...
	i := strings.LastIndexByte(string(stat), ')')
	if i < 0 {
		return false
	}
	fields := strings.Fields(string(stat[i+1:]))
	if len(fields) < 7 {
		return false
	}
	flags, err := strconv.ParseUint(fields[6], 10, 64)
	const pfExiting = 0x4
	return fields[0] == "Z" || fields[0] == "X" || err == nil && flags&pfExiting != 0
}

// deletedBeneath says a link of /proc/PID/fd or a path of maps names a
// file unlinked from beneath one of folders.
func deletedBeneath(link string, folders []string) bool {
	path, ok := strings.CutSuffix(link, " (deleted)")
	if !ok || !filepath.IsAbs(path) {
		return false
	}
	for _, f := range folders {
		if f != "" && within(f, path) {
			return true
		}
	}
	return false
}

// Tree is pid and its descendants, as /proc lists each thread's
// children.
func Tree(pid int) []int {
	out := []int{pid}
	seen := map[int]bool{pid: true}
	for i := 0; i < len(out) && len(out) < maxHeldEntries; i++ {
		proc := "/proc/" + strconv.Itoa(out[i])
		tasks, err := os.ReadDir(proc + "/task")
		if err != nil {
			continue
		}
		for _, t := range tasks {
			pids, _ := childrenOf(proc + "/task/" + t.Name() + "/children")
			for _, c := range pids {
				if !seen[c] {
					seen[c] = true
					out = append(out, c)
				}
			}
		}
	}
	return out
}
