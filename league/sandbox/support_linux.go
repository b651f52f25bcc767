package sandbox

import (
	"fmt"
	"slices"
	"strings"
	"sync"

	"golang.org/x/sys/unix"
)

// Support is what this machine offers a sandbox.
type Support struct {
	// LandlockABI is the kernel's Landlock ABI version, 0 without
	// Landlock: 1 confines files, 4 TCP ports too, 6 signals too.
	LandlockABI int
	// Seccomp says the seccomp filter can be installed: it refuses every
	// call of an ABI but the native one, the sockets Landlock does not see
	// (Multipath TCP, UNIX, raw, datagrams) and calls into other processes
	// and the kernel.
	Seccomp bool
	// Supervise says leaguetui can answer its programs' listen() calls
	// (seccomp user notification, pidfd_getfd), which confines listen()
	// on a socket never bound; SuperviseWhy says why not.
	Supervise    bool
	SuperviseWhy string
	// CgroupBase is the cgroup v2 folder programs' cgroups are made in,
	// "" where none can be made (CgroupWhy says why); Controllers are the
	// controllers those cgroups get, of memory, pids and cpu.
	CgroupBase  string
	CgroupWhy   string
	Controllers []string
	// V1 are the v1 hierarchies, by controller, that hold the limits v2
	// cannot here (memory, pids on a hybrid machine).
	V1 map[string]string
}

// The Landlock ABI versions that confine each part.
const (
	abiFiles   = 1
	abiPorts   = 4
	abiSignals = 6
)

// Confines reports whether files, ports (listen() on an unbound socket
// included) and signals are all confined.
func (s Support) Confines() bool { return s.LandlockABI >= abiSignals && s.Seccomp && s.Supervise }

// Has reports whether programs' cgroups get the controller c, of v2 or
// of v1.
func (s Support) Has(c string) bool {
	return s.CgroupBase != "" && (slices.Contains(s.Controllers, c) || s.V1[c] != "")
}

var (
	probeOnce sync.Once
	probed    Support
)

// Probe finds what this machine offers, once per process.
func Probe() Support {
	probeOnce.Do(func() {
		abi, _, errno := unix.Syscall(unix.SYS_LANDLOCK_CREATE_RULESET, 0, 0, unix.LANDLOCK_CREATE_RULESET_VERSION)
		if errno == 0 {
			probed.LandlockABI = int(abi)
		}
		probed.Seccomp = seccompSupported()
		if probed.Seccomp {
			probed.Supervise, probed.SuperviseWhy = superviseSupport()
		} else {
			probed.SuperviseWhy = "no seccomp filter"
		}
		base, controllers, err := cgroupBase()
		if err != nil {
			probed.CgroupWhy = err.Error()
		} else {
			probed.CgroupBase, probed.Controllers = base, controllers
			probed.V1 = cgroupV1(controllers)
		}
	})
	return probed
}

// Describe says, in a line, how strong the sandbox of a program with
// limits l is here: what is confined, by what, and which limits hold by
// which means. off is a program run without a sandbox ("sandbox": false).
func (s Support) Describe(l Limits, off bool) string {
	if off {
		return "no sandbox (\"sandbox\": false): it runs as leaguetui's user, with leaguetui's environment less its LEAGUETUI_ variables"
	}
	var parts []string
	if confined := s.confined(); len(confined) > 0 {
		parts = append(parts, fmt.Sprintf("%s (Landlock ABI %d)", strings.Join(confined, ", "), s.LandlockABI))
	} else {
		parts = append(parts, "files, ports and signals NOT confined (this kernel has no Landlock)")
	}
	parts = append(parts, s.describeSeccomp())
	parts = append(parts, s.describeLimits(l))
	return strings.Join(parts, "; ")
}

// describeSeccomp says what the seccomp filter refuses, and whether
// listen() on a socket never bound is confined.
func (s Support) describeSeccomp() string {
	if !s.Seccomp {
		return "other ABIs, Multipath TCP, UNIX, raw and datagram sockets, namespaces, keyrings and io_uring NOT refused, " +
			"listen on an unbound socket NOT confined (no seccomp filter here)"
	}
	out := "native ABI only, every other ABI refused; Multipath TCP, UNIX, raw and unasked datagram sockets, " +
		"namespaces, keyrings and io_uring refused (seccomp)"
	if s.Supervise {
		return out + "; listen on an unbound socket confined (seccomp user notification)"
	}
	return out + "; listen on an unbound socket NOT confined (" + s.SuperviseWhy + ")"
}

func (s Support) confined() []string {
	var out []string
	for _, c := range []struct {
		abi  int
		what string
	}{{abiFiles, "files"}, {abiPorts, "ports"}, {abiSignals, "signals"}} {
		if s.LandlockABI >= c.abi {
			out = append(out, c.what)
		}
	}
	return out
}

// describeLimits says which limit holds by what: a cgroup's controllers
// where it has them, rlimits otherwise.
func (s Support) describeLimits(l Limits) string {
	var cgroup, rlimit []string
	version := func(c string) string {
		if slices.Contains(s.Controllers, c) {
			return ""
		}
		return " (v1)"
	}
	if l.MemoryBytes > 0 {
		if s.Has("memory") {
			cgroup = append(cgroup, "memory "+mib(l.MemoryBytes)+version("memory"))
		}
		rlimit = append(rlimit, "memory "+mib(l.MemoryBytes))
	}
	if l.Processes > 0 && s.Has("pids") {
		cgroup = append(cgroup, fmt.Sprintf("%d processes%s", l.Processes, version("pids")))
	}
	if s.Has("cpu") {
		cgroup = append(cgroup, "1 CPU")
	}
	if l.CPUSeconds > 0 {
		rlimit = append(rlimit, fmt.Sprintf("CPU %d s", l.CPUSeconds))
	}
	if l.FileBytes > 0 {
		rlimit = append(rlimit, "files "+mib(l.FileBytes))
	}
	var out string
	if s.CgroupBase != "" {
		out = "cgroup v2: every descendant ended with it"
		if len(cgroup) > 0 {
			out += ", " + strings.Join(cgroup, ", ")
		}
	} else {
		out = "no cgroup (" + s.CgroupWhy + "): descendants swept as their subreaper"
	}
	if len(rlimit) > 0 {
		out += "; rlimits: " + strings.Join(rlimit, ", ")
	}
	if l.Processes > 0 && !s.Has("pids") {
		out += fmt.Sprintf("; processes: RLIMIT_NPROC %d, counted over all of leaguetui's user's processes", l.Processes)
	}
	return out
}

func mib(n uint64) string { return fmt.Sprintf("%d MiB", n>>20) }
