package sandbox

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"

	"golang.org/x/sys/unix"
)

// Where no cgroup can be made, leaguetui is the subreaper of what its
// programs start: a descendant whose parent exits (a double fork, a
// setsid child) becomes leaguetui's child instead of init's, and
// SweepOrphans ends it. A sandboxed process is told from leaguetui's own
// children by its seccomp filter, which it cannot shed.

var subreaperOnce sync.Once

// BecomeSubreaper makes this process the subreaper of its descendants.
func BecomeSubreaper() {
	subreaperOnce.Do(func() { _ = unix.Prctl(unix.PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) })
}

// SweepOrphans kills and reaps every child of this process that runs
// under a seccomp filter and is none of keep (the programs still
// running): the orphaned descendants of sandboxed programs.
func SweepOrphans(keep func(pid int) bool) {
	self := os.Getpid()
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return
	}
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil || keep(pid) {
			continue
		}
		status, err := os.ReadFile(filepath.Join("/proc", e.Name(), "status"))
		if err != nil || field(status, "PPid") != strconv.Itoa(self) || field(status, "Seccomp") != "2" {
			continue
		}
		_ = syscall.Kill(pid, syscall.SIGKILL)
		var ws syscall.WaitStatus
		_, _ = syscall.Wait4(pid, &ws, 0, nil)
	}
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
