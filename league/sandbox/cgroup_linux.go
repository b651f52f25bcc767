package sandbox

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"time"
)

// Cgroup is a cgroup v2 of a program's own: whatever the program starts,
// double-forked or in a session of its own, stays in it, so ending the
// cgroup ends them all.
type Cgroup struct {
	dir  string
	file *os.File // the folder, open for clone3's CLONE_INTO_CGROUP
	// v1 are cgroups of v1 hierarchies, for the limits whose controller
	// v2 lacks here (a hybrid machine); the program joins them itself
	// (Policy.Join) before it runs.
	v1 []string
}

// cgroupPrefix starts the name of every cgroup leaguetui makes; the
// process id of the leaguetui that made it follows, so a later run can
// tell and end what a killed one left.
const cgroupPrefix = "leaguetui-"

var cgroupSeq atomic.Int64

// NewCgroup makes a cgroup for the program called name where s says
// cgroups are made, with the limits of l that its controllers can hold.
func NewCgroup(s Support, name string, l Limits) (*Cgroup, error) {
	dir := filepath.Join(s.CgroupBase, fmt.Sprintf("%s%d-%s-%d", cgroupPrefix, os.Getpid(), SafeName(name), cgroupSeq.Add(1)))
	if err := os.Mkdir(dir, 0o755); err != nil {
		return nil, err
	}
	c := &Cgroup{dir: dir}
	for _, v := range cgroupLimitFiles(s.Controllers, l) {
		if err := os.WriteFile(filepath.Join(dir, v.file), []byte(v.value), 0o644); err != nil {
			c.Remove()
			return nil, fmt.Errorf("cgroup %s: %w", v.file, err)
		}
	}
	for controller, base := range s.V1 {
		if err := c.addV1(controller, base, name, l); err != nil {
			c.Remove()
			return nil, err
		}
	}
	f, err := os.Open(dir)
	if err != nil {
		c.Remove()
		return nil, err
	}
	c.file = f
	return c, nil
}

// addV1 makes the program's cgroup in the v1 hierarchy of controller,
// with its limit.
func (c *Cgroup) addV1(controller, base, name string, l Limits) error {
	var file, value string
	switch {
	case controller == "pids" && l.Processes > 0:
		file, value = "pids.max", strconv.FormatUint(l.Processes, 10)
	case controller == "memory" && l.MemoryBytes > 0:
		file, value = "memory.limit_in_bytes", strconv.FormatUint(l.MemoryBytes, 10)
	default:
		return nil
	}
	dir := filepath.Join(base, filepath.Base(c.dir))
	if err := os.Mkdir(dir, 0o755); err != nil {
		return fmt.Errorf("cgroup v1 %s: %w", controller, err)
	}
	c.v1 = append(c.v1, dir)
	if err := os.WriteFile(filepath.Join(dir, file), []byte(value), 0o644); err != nil {
		return fmt.Errorf("cgroup v1 %s: %w", file, err)
	}
	return nil
}

// Join are the files the program writes its own process id to, to join
// the v1 cgroups before it runs.
func (c *Cgroup) Join() []string {
	var out []string
	for _, dir := range c.v1 {
		out = append(out, filepath.Join(dir, "cgroup.procs"))
	}
	return out
}

type cgroupLimit struct{ file, value string }

// cgroupLimitFiles are the files of a cgroup that hold l, for the
// controllers enabled for it. CPU is one core's worth at most: a program
// cannot starve the league's own agents on a small machine.
func cgroupLimitFiles(controllers []string, l Limits) []cgroupLimit {
	var out []cgroupLimit
	for _, c := range controllers {
		switch {
		case c == "memory" && l.MemoryBytes > 0:
			out = append(out, cgroupLimit{"memory.max", strconv.FormatUint(l.MemoryBytes, 10)},
				cgroupLimit{"memory.swap.max", "0"})
		case c == "pids" && l.Processes > 0:
			out = append(out, cgroupLimit{"pids.max", strconv.FormatUint(l.Processes, 10)})
		case c == "cpu":
			out = append(out, cgroupLimit{"cpu.max", "100000 100000"})
		}
	}
	return out
}

// FD is the cgroup's folder, for SysProcAttr.CgroupFD.
func (c *Cgroup) FD() int { return int(c.file.Fd()) }

// Started closes the folder once the program is in the cgroup.
func (c *Cgroup) Started() {
	if c.file != nil {
		c.file.Close()
		c.file = nil
	}
}

// Kill ends every process in the cgroup at once.
func (c *Cgroup) Kill() {
	if err := os.WriteFile(filepath.Join(c.dir, "cgroup.kill"), []byte("1"), 0o644); err == nil {
		return
	}
	// Kernels before 5.14 have no cgroup.kill: one process at a time, a
	// few passes for those that forked meanwhile.
	for range 8 {
		pids := c.pids()
		if len(pids) == 0 {
			return
		}
		for _, pid := range pids {
			_ = syscall.Kill(pid, syscall.SIGKILL)
		}
	}
}

// Populated reports whether any process is left in the cgroup.
func (c *Cgroup) Populated() bool { return len(c.pids()) > 0 }

// Pids are the processes in the cgroup.
func (c *Cgroup) Pids() []int { return c.pids() }

func (c *Cgroup) pids() []int {
	data, err := os.ReadFile(filepath.Join(c.dir, "cgroup.procs"))
	if err != nil {
		return nil
	}
	var pids []int
	for _, f := range strings.Fields(string(data)) {
		if pid, err := strconv.Atoi(f); err == nil {
			pids = append(pids, pid)
		}
	}
	return pids
}

// Remove kills what is left in the cgroup and removes it, waiting a
// bounded time for the kernel to empty it.
func (c *Cgroup) Remove() {
	c.Started()
	c.Kill()
	deadline := time.Now().Add(5 * time.Second)
	for _, dir := range append(slices.Clone(c.v1), c.dir) {
		for {
			err := os.Remove(dir)
			if err == nil || errors.Is(err, os.ErrNotExist) || time.Now().After(deadline) {
				break
			}
			time.Sleep(10 * time.Millisecond) // the kernel reaps the killed processes
		}
	}
}

// cgroupBase is the cgroup v2 folder leaguetui runs in, where it makes
// its programs' cgroups, if it may write there, with the controllers a
// child of it gets (of memory, pids and cpu).
func cgroupBase() (base string, controllers []string, err error) {
	mount, err := cgroup2Mount()
	if err != nil {
		return "", nil, err
	}
	own, err := ownCgroup()
	if err != nil {
		return "", nil, err
	}
	base = filepath.Join(mount, own)
	probe := filepath.Join(base, fmt.Sprintf("%s%d-probe", cgroupPrefix, os.Getpid()))
	if err := os.Mkdir(probe, 0o755); err != nil {
		return "", nil, fmt.Errorf("cannot make a cgroup in %s: %w", base, err)
	}
	defer os.Remove(probe)
	if data, err := os.ReadFile(filepath.Join(probe, "cgroup.controllers")); err == nil {
		for _, c := range strings.Fields(string(data)) {
			if c == "memory" || c == "pids" || c == "cpu" {
				controllers = append(controllers, c)
			}
		}
	}
	removeStaleCgroups(base)
	return base, controllers, nil
}

// cgroupV1 are the v1 hierarchies of the controllers v2 lacks here (of
// memory and pids), each as this process's folder in it, where leaguetui
// may make cgroups.
func cgroupV1(have []string) map[string]string {
	out := map[string]string{}
	own, err := os.ReadFile("/proc/self/cgroup")
	if err != nil {
		return out
	}
	for _, controller := range []string{"memory", "pids"} {
		if slices.Contains(have, controller) {
			continue
		}
		mount := cgroup1Mount(controller)
		path := ownV1Path(string(own), controller)
		if mount == "" || path == "" {
			continue
		}
		base := filepath.Join(mount, path)
		probe := filepath.Join(base, fmt.Sprintf("%s%d-probe", cgroupPrefix, os.Getpid()))
		if os.Mkdir(probe, 0o755) != nil {
			continue
		}
		os.Remove(probe)
		removeStaleCgroups(base)
		out[controller] = base
	}
	return out
}

// cgroup1Mount is where the v1 hierarchy of controller is mounted, "" if
// nowhere.
func cgroup1Mount(controller string) string {
	data, err := os.ReadFile("/proc/self/mountinfo")
	if err != nil {
		return ""
	}
	for _, line := range strings.Split(string(data), "\n") {
		fields := strings.Fields(line)
		for i, field := range fields {
			if field == "-" && i+3 < len(fields) && fields[i+1] == "cgroup" && len(fields) > 4 &&
				slices.Contains(strings.Split(fields[i+3], ","), controller) {
				return fields[4]
			}
		}
	}
	return ""
}

// ownV1Path is this process's path in the v1 hierarchy of controller,
// from /proc/self/cgroup's "N:controllers:/path" lines.
func ownV1Path(procCgroup, controller string) string {
	for _, line := range strings.Split(procCgroup, "\n") {
		parts := strings.SplitN(line, ":", 3)
		if len(parts) == 3 && slices.Contains(strings.Split(parts[1], ","), controller) {
			return parts[2]
		}
	}
	return ""
}

// cgroup2Mount is where the cgroup v2 hierarchy is mounted.
func cgroup2Mount() (string, error) {
	f, err := os.Open("/proc/self/mountinfo")
	if err != nil {
		return "", err
	}
	defer f.Close()
	scanner := bufio.NewScanner(f)
	for scanner.Scan() {
		// ID PARENT MAJ:MIN ROOT MOUNTPOINT OPTIONS [OPTIONAL...] - FSTYPE SOURCE SUPER
		fields := strings.Fields(scanner.Text())
		for i, field := range fields {
			if field == "-" && i+1 < len(fields) && fields[i+1] == "cgroup2" && len(fields) > 4 {
				return fields[4], nil
			}
		}
	}
	return "", errors.New("no cgroup v2 hierarchy is mounted")
}

// ownCgroup is this process's cgroup v2 path, relative to the mount.
func ownCgroup() (string, error) {
	data, err := os.ReadFile("/proc/self/cgroup")
	if err != nil {
		return "", err
	}
	for _, line := range strings.Split(string(data), "\n") {
		if rest, ok := strings.CutPrefix(line, "0::"); ok {
			return rest, nil
		}
	}
	return "", errors.New("this process is in no cgroup v2")
}

// removeStaleCgroups ends and removes the cgroups a leaguetui that died
// without cleaning up left in base: what a program started there ends
// with the next league at the latest.
func removeStaleCgroups(base string) {
	entries, err := os.ReadDir(base)
	if err != nil {
		return
	}
	for _, e := range entries {
		rest, ok := strings.CutPrefix(e.Name(), cgroupPrefix)
		if !ok || !e.IsDir() {
			continue
		}
		pidText, _, _ := strings.Cut(rest, "-")
		pid, err := strconv.Atoi(pidText)
		if err != nil || pid == os.Getpid() || syscall.Kill(pid, 0) == nil {
			continue // ours, or its leaguetui still runs
		}
		(&Cgroup{dir: filepath.Join(base, e.Name())}).Remove()
	}
}
