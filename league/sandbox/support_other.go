//go:build !linux

package sandbox

import "runtime"

// Support is what this machine offers a sandbox: on this system, nothing.
// Landlock, seccomp, cgroups and the subreaper are Linux's, so every
// field stays zero and a program leaguetui starts runs unconfined. The
// fields are Linux's, for code that reads them on every system.
type Support struct {
	LandlockABI  int
	Seccomp      bool
	Supervise    bool
	SuperviseWhy string
	CgroupBase   string
	CgroupWhy    string
	Controllers  []string
	V1           map[string]string
}

// Confines reports whether files, ports (listen() on an unbound socket
// included) and signals are all confined: never here.
func (s Support) Confines() bool { return false }

// Has reports whether programs' cgroups get the controller c: never here.
func (s Support) Has(c string) bool { return false }

// Probe finds what this machine offers: nothing.
func Probe() Support {
	return Support{SuperviseWhy: unavailable, CgroupWhy: unavailable}
}

// unavailable says why there is no sandbox here.
var unavailable = "the sandbox is not available on " + runtime.GOOS

// Describe says, in a line, how strong the sandbox of a program is here:
// it has none, and no limits either. off is a program run without a
// sandbox ("sandbox": false).
func (s Support) Describe(l Limits, off bool) string {
	if off {
		out := "no sandbox (\"sandbox\": false): it runs as leaguetui's user, with leaguetui's environment less its LEAGUETUI_ variables"
		if l != (Limits{}) {
			out += "; no memory, CPU, process or file size limit on " + runtime.GOOS
		}
		return out
	}
	return "sandbox not available on " + runtime.GOOS + ": programs run unconfined " +
		"(files, ports, signals and sockets NOT confined; no memory, CPU, process or file size limit), " +
		"as leaguetui's user, with leaguetui's environment less its LEAGUETUI_ variables"
}
