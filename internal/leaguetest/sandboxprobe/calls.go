//go:build linux

package main

import (
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"strconv"
	"syscall"
	"unsafe"
)

// The calls the seccomp filter must refuse, tried natively, natively
// with high bits set in int arguments (the kernel reads their low 32 bits
// only), and through every other ABI of the machine (abi_*.go).

const (
	ipprotoMPTCP = 262
	// keyctl(KEYCTL_GET_KEYRING_ID, KEY_SPEC_SESSION_KEYRING, create)
	keyctlGetKeyringID = 0
	keySpecSession     = -3
	sysIOUringSetup    = 425 // the same number in every table
)

// refused is a try the filter (EPERM), Landlock (EACCES) or a kernel
// without the ABI (ENOSYS) refused; any other answer means the call
// reached the kernel, which is an escape whatever it answered.
func refused(err error, what string) string {
	var errno syscall.Errno
	switch {
	case err == nil:
		return "ALLOWED: " + what
	case errors.As(err, &errno) && (errno == syscall.EPERM || errno == syscall.EACCES || errno == syscall.ENOSYS):
		return "denied: " + err.Error()
	}
	return "ALLOWED: reached the kernel, which answered: " + err.Error()
}

func errnoErr(e syscall.Errno) error {
	if e == 0 {
		return nil
	}
	return e
}

// filteredCalls tries what the filter refuses: natively, with high bits,
// and through other ABIs; then listen() on a socket never bound, and on
// its own port, which must work.
func (r *Report) filteredCalls(foreign int, unixPath string, port int) {
	r.nativeCalls(unixPath)
	r.highBits()
	r.otherABIs(foreign, unixPath)
	r.Escapes["listen:unbound"] = listenUnbound()
	if port > 0 {
		r.Allowed["listen:own-port"] = listenOn(port)
	}
}

func (r *Report) nativeCalls(unixPath string) {
	_, _, e := syscall.RawSyscall(sysIOUringSetup, 1, uintptr(unsafe.Pointer(new([120]byte))), 0)
	r.Escapes["io_uring_setup"] = refused(errnoErr(e), "made an io_uring")
	spec := keySpecSession
	_, _, e = syscall.RawSyscall(syscall.SYS_KEYCTL, keyctlGetKeyringID, uintptr(spec), 1)
	r.Escapes["keyctl"] = refused(errnoErr(e), "reached its session keyring")
	// A process with threads may not unshare a user namespace: the
	// child Go forks for exec has none.
	r.Escapes["unshare:user"] = refused(runChild(&syscall.SysProcAttr{Unshareflags: syscall.CLONE_NEWUSER}), "unshared a user namespace")
	r.Escapes["clone:user"] = refused(runChild(&syscall.SysProcAttr{Cloneflags: syscall.CLONE_NEWUSER}), "cloned into a user namespace")
	if unixPath != "" {
		r.Escapes["connect:unix"] = connectUnix(unixPath)
	}
}

// runChild runs this program's "noop" with attr: its error is that of
// the clone or unshare.
func runChild(attr *syscall.SysProcAttr) error {
	self, err := os.Executable()
	if err != nil {
		return err
	}
	cmd := exec.Command(self, "noop")
	cmd.SysProcAttr = attr
	err = cmd.Run()
	var errno syscall.Errno
	if errors.As(err, &errno) {
		return errno
	}
	return err
}

func connectUnix(path string) string {
	fd, err := syscall.Socket(syscall.AF_UNIX, syscall.SOCK_STREAM, 0)
	if err != nil {
		return "denied: socket: " + err.Error()
	}
	defer syscall.Close(fd)
	return refused(syscall.Connect(fd, &syscall.SockaddrUnix{Name: path}), "connected to "+path)
}

// listenUnbound listens on a TCP socket never bound, a port the kernel
// chooses. Should that work, the socket stays open (into the program the
// probe becomes) for a client outside to try, and the port is said.
func listenUnbound() string {
	fd, err := syscall.Socket(syscall.AF_INET, syscall.SOCK_STREAM, 0)
	if err != nil {
		return "denied: socket: " + err.Error()
	}
	if err := syscall.Listen(fd, 4); err != nil {
		syscall.Close(fd)
		return refused(err, "")
	}
	return "ALLOWED: listening on port " + strconv.Itoa(boundPort(fd))
}

func boundPort(fd int) int {
	sa, _ := syscall.Getsockname(fd)
	switch a := sa.(type) {
	case *syscall.SockaddrInet4:
		return a.Port
	case *syscall.SockaddrInet6:
		return a.Port
	}
	return 0
}

// listenOn listens on the program's own port, as the player does once
// the probe becomes it (which the league's calls then reach: the probe
// itself may not connect to its own port).
func listenOn(port int) string {
	ln, err := net.Listen("tcp", ":"+strconv.Itoa(port))
	if err != nil {
		return "denied: " + err.Error()
	}
	ln.Close()
	return fmt.Sprintf("ALLOWED: listened on port %d", port)
}
