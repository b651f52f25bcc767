package process

import (
	"os"
	"path/filepath"
	"strings"

	"github.com/leaguetui/leaguetui/league/sandbox"
)

// fileID is a file's device and inode: a file of many names counts once.
type fileID struct{ dev, ino uint64 }

// processes are the program's processes: its cgroup's, or, where it has
// none, its process tree and the orphans leaguetui adopted (of any
// program: only the files beneath this one's folders count).
func (j *jail) processes(pid int) []int {
	if j.cgroup != nil {
		return j.cgroup.Pids()
	}
	pids := sandbox.Tree(pid)
	running.Lock()
	orphans := sandbox.Orphans(isRunning)
	running.Unlock()
	for _, o := range orphans {
		pids = append(pids, sandbox.Tree(o)...)
	}
	return pids
}

// ownFolder is the working folder of a program whose entry names none:
// its data folder, or its temporary one where it has none.
func ownFolder(data, temp string) string {
	if info, err := os.Stat(data); data != "" && err == nil && info.IsDir() {
		return data
	}
	return temp
}

// absolutePaths makes absolute each argument of args (a program's
// command line, args[0] its executable) that names, relative to
// leaguetui's working folder, a file or folder that is there, for a
// program that runs in a folder of its own: `python3 player.py` still
// runs player.py. An argument that came from a placeholder (raw is the
// command line before they were filled in) is left as it is: a name is
// no path.
func absolutePaths(args, raw []string) {
	for i := 1; i < len(args) && i < len(raw); i++ {
		a := args[i]
		if a == "" || strings.HasPrefix(a, "-") || filepath.IsAbs(a) || strings.Contains(raw[i], "{") {
			continue
		}
		if _, err := os.Stat(a); err != nil {
			continue
		}
		if abs, err := filepath.Abs(a); err == nil {
			args[i] = abs
		}
	}
}

// diskFreeShare: programs whose entries set no disk cap share at most
// 1/diskFreeShare of the free space of the data folder's disk at the
// start; the rest is the league's own files'.
const diskFreeShare = 2
