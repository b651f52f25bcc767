//go:build linux && (amd64 || arm64)

package main

import "syscall"

// high is set in an int argument: the kernel never reads it.
const high = 1 << 32

// highBits sets bits the kernel does not read in int arguments: the
// filter must read what the kernel does.
func (r *Report) highBits() {
	for _, s := range []struct {
		name                   string
		family, kind, protocol uint64
	}{{"high:socket:mptcp", syscall.AF_INET, syscall.SOCK_STREAM, ipprotoMPTCP | high},
		{"high:socket:udp", syscall.AF_INET, syscall.SOCK_DGRAM | high, 0},
		{"high:socket:unix", syscall.AF_UNIX | high, syscall.SOCK_STREAM, 0}} {
		fd, _, e := syscall.RawSyscall(syscall.SYS_SOCKET, uintptr(s.family), uintptr(s.kind), uintptr(s.protocol))
		if e == 0 {
			syscall.Close(int(fd))
		}
		r.Escapes[s.name] = refused(errnoErr(e), "opened")
	}
	r.Escapes["high:clone:user"] = refused(runChild(&syscall.SysProcAttr{Cloneflags: syscall.CLONE_NEWUSER | high}),
		"cloned into a user namespace")
}
