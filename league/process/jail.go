package process

import (
	"cmp"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/fsnotify/fsnotify"
	"gopkg.in/natefinch/lumberjack.v2"

	"github.com/leaguetui/leaguetui/league/sandbox"
)

// A program's log is capped: LogMaxMB per file, the current one and one
// before it, so a program that writes without end fills no disk.
const (
	LogMaxMB      = 8
	logMaxBackups = 1
)

// jail is what surrounds one run of a program: its command line through
// the sandbox, its clean environment, its private temporary folder, its
// cgroup (or the subreaper's sweep), its capped log and the watch on its
// disk use.
type jail struct {
	spec     ProgramSpec
	argv     []string
	env      []string
	temp     string
	cgroup   *sandbox.Cgroup
	Strength string // the sandbox's strength, in a line
	// supervised: leaguetui answers its listen() calls (a
	// sandbox.Supervisor that start makes), for the ports bind.
	supervised bool
	bind       []uint16

	output  *os.File // the pipe's end the program writes to
	reader  *os.File
	log     io.WriteCloser
	copied  chan struct{}
	stop    chan struct{}
	endOnce sync.Once

	mu      sync.Mutex
	stopped string // why leaguetui stopped it, when it did
	pid     int

	dir string // its working folder where leaguetui chose it ("": the entry's)
}

// running are the process ids of the programs running now, which a sweep
// of orphans must spare; starting one and sweeping exclude each other,
// so a program is never taken for an orphan in the instant it starts.
var running = struct {
	sync.Mutex
	pids map[int]bool
}{pids: map[int]bool{}}

// newJail prepares the program's run: nothing runs yet.
func newJail(spec ProgramSpec, r Resolved) (*jail, error) {
	if spec.LogPath == "" {
		return nil, errors.New("no log file")
	}
	if err := os.MkdirAll(filepath.Dir(spec.LogPath), 0o755); err != nil {
		return nil, err
	}
	j := &jail{spec: spec, copied: make(chan struct{}), stop: make(chan struct{})}
	j.log = &lumberjack.Logger{Filename: spec.LogPath, MaxSize: LogMaxMB, MaxBackups: logMaxBackups}
	if err := j.prepare(r); err != nil {
		j.end()
		return nil, err
	}
	fmt.Fprintf(j.log, "leaguetui: %s: %s\n", spec.Name, j.Strength)
	var err error
	if j.reader, j.output, err = os.Pipe(); err != nil {
		j.end()
		return nil, err
	}
	return j, nil
}

// viaShim starts the program through leaguetui's ExecCommand, which
// applies policy first.
func (j *jail) viaShim(policy sandbox.Policy, r Resolved) error {
	if j.spec.Shim == "" {
		return errors.New("limits and the sandbox need leaguetui's executable to apply them")
	}
	if j.cgroup != nil {
		policy.Join = j.cgroup.Join()
	}
	if !policy.Unconfined && sandbox.Probe().Supervise {
		policy.Supervisor = sandbox.SupervisorFD
		j.supervised, j.bind = true, policy.Bind
	}
	entry, err := policy.Encode()
	if err != nil {
		return err
	}
	j.env = append(j.env, entry)
	j.argv = sandbox.Argv(j.spec.Shim, r.Args[0], r.Args[1:])
	return nil
}

// rlimitsOnly are the limits the shim sets as rlimits: the process count
// only when asked for (RLIMIT_NPROC counts every process of the user),
// and never where a cgroup's pids controller holds it.
func rlimitsOnly(l sandbox.Limits, s sandbox.Support) sandbox.Limits {
	if s.Has("pids") {
		l.Processes = 0
	}
	return l
}

// cleanEnv is a sandboxed program's environment: nothing of leaguetui's
// but the search path, the language and the time zone.
func cleanEnv(data, temp string) []string {
	env := []string{"PATH=" + cmp.Or(os.Getenv("PATH"), "/usr/local/bin:/usr/bin:/bin"), "HOME=" + data,
		"TMPDIR=" + temp, "LANG=" + cmp.Or(os.Getenv("LANG"), "C.UTF-8")}
	if tz := os.Getenv("TZ"); tz != "" {
		env = append(env, "TZ="+tz)
	}
	return env
}

// trustedEnv is an unconfined program's environment: leaguetui's, less
// every LEAGUETUI_ variable (the admin token and the referee key among
// them).
func trustedEnv() []string {
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "LEAGUETUI_") {
			env = append(env, kv)
		}
	}
	return env
}

// findProgram is the executable a command line names: a path (relative
// to the program's folder), or a name on PATH.
func findProgram(name, dir string) (string, error) {
	if strings.Contains(name, "/") {
		if !filepath.IsAbs(name) && dir != "" {
			name = filepath.Join(dir, name)
		}
		return filepath.Abs(name)
	}
	path, err := exec.LookPath(name)
	if err != nil {
		return "", err
	}
	return filepath.Abs(path)
}

// start starts cmd, counted among the running programs before any sweep
// can see it, and begins copying its output and watching its disk use.
func (j *jail) start(cmd *exec.Cmd) error {
	var supervisor *sandbox.Supervisor
	if j.supervised {
		var err error
		if supervisor, err = sandbox.NewSupervisor(j.bind); err != nil {
			return err
		}
		// The first of ExtraFiles: sandbox.SupervisorFD in the shim.
		cmd.ExtraFiles = append([]*os.File{supervisor.File()}, cmd.ExtraFiles...)
	}
	running.Lock()
	err := startOnForkThread(cmd)
	if supervisor != nil {
		supervisor.Started(err == nil) // it ends by itself once the program and all it started have
	}
	if err == nil {
		j.pid = cmd.Process.Pid
		running.pids[j.pid] = true
	}
	running.Unlock()
	if j.cgroup != nil {
		j.cgroup.Started()
	}
	j.output.Close() // the program holds its own copy
	j.output = nil
	if err != nil {
		return err
	}
	go j.copyOutput()
	if j.spec.Sandbox.DiskBytes > 0 {
		go j.watchDisk(cmd.Process.Pid)
	}
	return nil
}

func (j *jail) copyOutput() {
	defer close(j.copied)
	_, _ = io.Copy(j.log, j.reader)
}

// diskCheckEvery is how often a program's disk use is measured whatever
// is heard of it. Each write it makes beneath its folders is heard of
// (inotify) and measured at once, so a program writing at full speed
// passes its cap by what it writes while one measure runs, and never a
// file past its file size limit; a file it deleted but holds open, in a
// folder it removed since, is heard of no more, and counted at the next
// tick: it passes its cap by what it writes in diskCheckEvery at most.
const diskCheckEvery = time.Second

// watchDisk stops the program when its files hold more than allowed on
// disk: those of its folders, and those it deleted but still holds open
// or mapped.
func (j *jail) watchDisk(pid int) {
	tick := time.NewTicker(diskCheckEvery)
	defer tick.Stop()
	limit := j.spec.Sandbox.DiskBytes
	folders := []string{j.spec.Placeholders[PlaceholderData], j.temp}
	writes := watchWrites(folders, j.stop)
	for {
		select {
		case <-j.stop:
			return
		case <-tick.C:
		case <-writes:
		}
		why := ""
		if used, hidden := j.diskUse(pid, folders, limit); used > limit {
			why = fmt.Sprintf("stopped by leaguetui: its data and temporary folders passed %d MiB", limit>>20)
		} else if hidden {
			why = "stopped by leaguetui: its open files cannot be measured (a process of it made itself undumpable)"
		}
		if why != "" {
			j.mu.Lock()
			j.stopped = why
			j.mu.Unlock()
			_ = signalGroup(pid, syscall.SIGKILL)
			j.kill()
			return
		}
	}
}

// diskUse is what the program's files hold on disk, stopping once past
// limit: its folders', and the deleted files its processes hold; hidden
// says a process of a confined program hides its open files (a trusted
// one may run a set-user-ID program, which does).
func (j *jail) diskUse(pid int, folders []string, limit uint64) (used uint64, hidden bool) {
	if used = diskUse(folders, limit); used > limit {
		return used, false
	}
	held := sandbox.HeldDeleted(j.processes(pid), folders)
	if held.Partial {
		return limit + 1, false
	}
	return used + held.Bytes, held.Hidden > 0 && !j.spec.Sandbox.Off
}

// watchWrites signals (coalesced: one pending signal at most) each time
// something is written or made beneath folders, until stop.
func watchWrites(folders []string, stop <-chan struct{}) <-chan struct{} {
	heard := make(chan struct{}, 1)
	w, err := fsnotify.NewWatcher()
	if err != nil {
		return heard // the ticker alone measures
	}
	for _, f := range folders {
		addTree(w, f)
	}
	go func() {
		defer w.Close()
		for {
			select {
			case <-stop:
				return
			case e, ok := <-w.Events:
				if !ok {
					return
				}
				if e.Has(fsnotify.Create) {
					addTree(w, e.Name) // a new folder is watched too
				}
				select {
				case heard <- struct{}{}:
				default:
				}
			case _, ok := <-w.Errors:
				if !ok {
					return
				}
			}
		}
	}()
	return heard
}

// addTree watches path and every folder beneath it.
func addTree(w *fsnotify.Watcher, path string) {
	_ = filepath.WalkDir(path, func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.IsDir() {
			_ = w.Add(p)
		}
		return nil
	})
}

// diskUse adds up what the files beneath folders hold on disk (their
// blocks: a sparse file counts what it holds, a file of many names once),
// stopping once past limit; a folder of more than maxEntries entries
// counts as past it.
func diskUse(folders []string, limit uint64) uint64 {
	const maxEntries = 100_000
	var used, entries uint64
	links := map[fileID]bool{}
	for _, folder := range folders {
		_ = filepath.WalkDir(folder, func(_ string, d fs.DirEntry, err error) error {
			if err != nil {
				return nil
			}
			if entries++; entries > maxEntries {
				used = limit + 1
				return filepath.SkipAll
			}
			if info, err := d.Info(); err == nil && info.Mode().IsRegular() {
				used += onDisk(info, links)
			}
			if used > limit {
				return filepath.SkipAll
			}
			return nil
		})
	}
	return used
}

// stoppedFor says why leaguetui stopped the program, "" when it did not.
func (j *jail) stoppedFor() string {
	j.mu.Lock()
	defer j.mu.Unlock()
	return j.stopped
}

// kill ends every descendant of the program: its cgroup, or the orphans
// of every sandboxed program that leaguetui adopted.
func (j *jail) kill() {
	if j.cgroup != nil {
		j.cgroup.Kill()
		return
	}
	sweepOrphans()
}

func sweepOrphans() {
	running.Lock()
	defer running.Unlock()
	sandbox.SweepOrphans(isRunning)
}

// isRunning says pid is a program leaguetui started and waits for; call
// with running held.
func isRunning(pid int) bool { return running.pids[pid] }

// becomeSubreaper makes leaguetui the subreaper of what its programs
// start, and reaps each orphan as it exits (a zombie counts against its
// program's process limit until then), never a program it waits for.
func becomeSubreaper() {
	sandbox.BecomeSubreaper()
	sandbox.ReapOrphans(&running.Mutex, isRunning)
}

// end is called once the program has exited (or could not start): what
// it started ends, its output is written out, its folders are left as
// they are but the temporary one, which goes.
func (j *jail) end() {
	j.endOnce.Do(func() {
		close(j.stop)
		running.Lock()
		delete(running.pids, j.pid)
		running.Unlock()
		if j.cgroup != nil {
			j.cgroup.Remove()
		}
		sweepOrphans()
		if j.output != nil {
			j.output.Close()
		}
		if j.reader != nil && j.pid == 0 {
			j.reader.Close()
		}
		if j.reader != nil && j.pid != 0 {
			// Every writer is gone once the descendants are; an
			// unconfined program's may still hold the pipe open.
			select {
			case <-j.copied:
			case <-time.After(2 * time.Second):
			}
			j.reader.Close()
		}
		j.log.Close()
		if j.temp != "" {
			_ = os.RemoveAll(j.temp)
		}
	})
}
