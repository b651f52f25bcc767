package launch

import (
	"fmt"
	"os"
	"os/exec"
	"syscall"
	"unsafe"

	"golang.org/x/sys/unix"
)

// ExecLimited is LimitedExecCommand: it sets the limits on this process
// and executes the program in its place, so the program starts under them
// and everything it starts inherits them. It returns only on failure.
func ExecLimited(args []string) error {
	limits, argv, err := parseLimitedExec(args)
	if err != nil {
		return err
	}
	path, err := exec.LookPath(argv[0])
	if err != nil {
		return fmt.Errorf("%s: %w", LimitedExecCommand, err)
	}
	// Everything execve needs is made before the limits are set: a low
	// address-space limit may leave this process no room to allocate.
	pathp, err := syscall.BytePtrFromString(path)
	if err != nil {
		return err
	}
	argvp, err := syscall.SlicePtrFromStrings(argv)
	if err != nil {
		return err
	}
	envp, err := syscall.SlicePtrFromStrings(os.Environ())
	if err != nil {
		return err
	}
	for _, l := range []struct {
		resource int
		value    uint64
		name     string
	}{{unix.RLIMIT_AS, limits.MemoryBytes, "memory"}, {unix.RLIMIT_CPU, limits.CPUSeconds, "CPU seconds"},
		{unix.RLIMIT_NPROC, limits.Processes, "processes"}} {
		if l.value == 0 {
			continue
		}
		if err := unix.Setrlimit(l.resource, &unix.Rlimit{Cur: l.value, Max: l.value}); err != nil {
			return fmt.Errorf("%s: cannot limit %s to %d: %w", LimitedExecCommand, l.name, l.value, err)
		}
	}
	_, _, errno := syscall.RawSyscall(syscall.SYS_EXECVE, uintptr(unsafe.Pointer(pathp)),
		uintptr(unsafe.Pointer(&argvp[0])), uintptr(unsafe.Pointer(&envp[0])))
	return fmt.Errorf("%s: cannot execute %s: %w", LimitedExecCommand, path, errno)
}
