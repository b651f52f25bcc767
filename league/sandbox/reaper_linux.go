package sandbox

import (
	"bytes"
	"errors"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"

	"golang.org/x/sys/unix"
)

// leaguetui is the subreaper of what its programs start: a descendant
// whose parent exits (a double fork, a setsid child) becomes leaguetui's
// child instead of init's. ReapOrphans reaps each such orphan as it
// exits, so that no zombie counts against a program's process limit
// while it runs, and SweepOrphans ends those left when a program ends
// (where no cgroup did). A sandboxed process is told from leaguetui's own
// children by its seccomp filter, which it cannot shed and which a zombie
// still shows: it has more filters than leaguetui.

var subreaperOnce sync.Once

// BecomeSubreaper makes this process the subreaper of its descendants.
func BecomeSubreaper() {
	subreaperOnce.Do(func() { _ = unix.Prctl(unix.PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) })
}

var reaperOnce sync.Once

// ReapOrphans starts, once, the reaping of orphans as they exit: on each
// SIGCHLD, with lock held, every zombie child of this process that ran
// confined and that keep does not name (a program still running, whose
// exit status its exec.Cmd waits for) is reaped. The caller starts its
// programs under lock, so a program is never taken for an orphan.
func ReapOrphans(lock sync.Locker, keep func(pid int) bool) {
	reaperOnce.Do(func() {
		exited := make(chan os.Signal, 1)
		signal.Notify(exited, syscall.SIGCHLD)
		go func() {
			for range exited { // signals coalesce: each pass reaps every zombie there is
				lock.Lock()
				reapZombies(keep)
				lock.Unlock()
			}
		}()
	})
}

// reapZombies reaps the zombie children that ran confined and are none
// of keep.
func reapZombies(keep func(pid int) bool) {
	self := readStatus("self")
	for _, pid := range children() {
		if keep(pid) {
			continue
		}
		status := readStatus(strconv.Itoa(pid))
		if !strings.HasPrefix(field(status, "State"), "Z") || !orphanOf(status, self) {
			continue
		}
		var ws syscall.WaitStatus
		_, _ = syscall.Wait4(pid, &ws, syscall.WNOHANG, nil)
	}
}

// SweepOrphans kills and reaps every child of this process that runs
// confined and is none of keep (the programs still running): the
// orphaned descendants of sandboxed programs.
func SweepOrphans(keep func(pid int) bool) {
	self := readStatus("self")
	for _, pid := range children() {
		if keep(pid) || !orphanOf(readStatus(strconv.Itoa(pid)), self) {
			continue
		}
		_ = syscall.Kill(pid, syscall.SIGKILL)
		var ws syscall.WaitStatus
		_, _ = syscall.Wait4(pid, &ws, 0, nil)
	}
}

// Orphans are the children of this process that run confined and are
// none of keep: the orphans of sandboxed programs it adopted.
func Orphans(keep func(pid int) bool) []int {
	self := readStatus("self")
	var out []int
	for _, pid := range children() {
		if !keep(pid) && orphanOf(readStatus(strconv.Itoa(pid)), self) {
			out = append(out, pid)
		}
	}
	return out
}

// orphanOf says a process (its /proc status) is a child of self that runs
// under more seccomp filters than self: a sandboxed one, never one of
// self's own agents (which share self's filters, if any).
func orphanOf(status, self []byte) bool {
	if status == nil || field(status, "PPid") != field(self, "Pid") {
		return false
	}
	if mine, err := strconv.Atoi(field(self, "Seccomp_filters")); err == nil {
		its, err := strconv.Atoi(field(status, "Seccomp_filters"))
		return err == nil && its > mine
	}
	// A kernel before 5.9 counts no filters: a filter where self has none.
	return field(status, "Seccomp") == "2" && field(self, "Seccomp") != "2"
}

// children are the process ids of this process's children: those of each
// of its threads (a child's parent is the thread that started it, an
// orphan's the one that adopted it), or, where the kernel lists no
// children, every process of /proc whose parent is this one.
func children() []int {
	tasks, err := os.ReadDir("/proc/self/task")
	if err != nil {
		return nil
	}
	var out []int
	for _, t := range tasks {
		pids, ok := childrenOf("/proc/self/task/" + t.Name() + "/children")
		if !ok {
			return childrenFromProc()
		}
		out = append(out, pids...)
	}
	return out
}

// childrenOf reads a task's children file. One read, which the kernel
// fills consistently however the children change meanwhile, holds a
// page; ok is false where the kernel has no such file, or where the list
// took more than one read (a child may have been missed).
func childrenOf(path string) (pids []int, ok bool) {
	f, err := os.Open(path)
	if err != nil {
		return nil, !errors.Is(err, os.ErrNotExist) || taskGone(path)
	}
	defer f.Close()
	buf := make([]byte, 64<<10)
	n, _ := f.Read(buf)
	if n < os.Getpagesize() {
		return parsePids(buf[:n]), true
	}
	rest, _ := io.ReadAll(f)
	return parsePids(append(buf[:n], rest...)), false
}

// taskGone says the task whose children file path names has ended (it
// has no file then), rather than the kernel having no such files.
func taskGone(path string) bool {
	_, err := os.Stat(filepath.Dir(path))
	return errors.Is(err, os.ErrNotExist)
}

// childrenFromProc are the processes of /proc whose parent is this one.
func childrenFromProc() []int {
	self := strconv.Itoa(os.Getpid())
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return nil
	}
	var out []int
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err == nil && field(readStatus(e.Name()), "PPid") == self {
			out = append(out, pid)
		}
	}
	return out
}

func parsePids(data []byte) []int {
	var out []int
	for _, f := range bytes.Fields(data) {
		if pid, err := strconv.Atoi(string(f)); err == nil {
			out = append(out, pid)
		}
	}
	return out
}

// readStatus is /proc/PID/status, nil when it cannot be read.
func readStatus(pid string) []byte {
	data, err := os.ReadFile(filepath.Join("/proc", pid, "status"))
	if err != nil {
		return nil
	}
	return data
}

// field is the value of a "Name:\tvalue" line of /proc/PID/status.
func field(status []byte, name string) string {
	for _, line := range strings.Split(string(status), "\n") {
		if rest, ok := strings.CutPrefix(line, name+":"); ok {
			return strings.TrimSpace(rest)
		}
	}
	return ""
}
