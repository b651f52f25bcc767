//go:build linux

package main

import (
	"encoding/binary"
	"errors"
	"os"
	"strconv"
	"strings"
	"syscall"
	"unsafe"
)

// int80 and forkInt80 are in abi_amd64.s.
func int80(trap, a1, a2, a3, a4, a5 uintptr) (r uintptr)
func forkInt80(trap, a1 uintptr) (pid uintptr)

// The i386 table's numbers (arch/x86/entry/syscalls/syscall_32.tbl).
const (
	i386Close   = 6
	i386Keyctl  = 288
	i386Unshare = 310
	i386Socket  = 359
	i386Connect = 362
	i386Listen  = 363
	i386IOUring = 425
	x32Bit      = 0x40000000 // __X32_SYSCALL_BIT
)

// sys32 is a 32-bit call's result: its value, or its errno.
func sys32(trap uintptr, args ...uintptr) (int, error) {
	var a [5]uintptr
	copy(a[:], args)
	r := int32(int80(trap, a[0], a[1], a[2], a[3], a[4]))
	if r < 0 && r >= -4095 {
		return -1, syscall.Errno(-r)
	}
	return int(r), nil
}

// ia32 says this kernel runs 32-bit programs: without it int 0x80 is a
// fault, not a call.
func ia32() bool {
	if _, err := os.Stat("/proc/sys/abi/vsyscall32"); err != nil {
		return false
	}
	cmdline, _ := os.ReadFile("/proc/cmdline")
	for _, off := range []string{"ia32_emulation=0", "ia32_emulation=false", "ia32_emulation=off", "ia32_emulation=n"} {
		if strings.Contains(string(cmdline), off) {
			return false
		}
	}
	return true
}

// otherABIs tries, through the 32-bit ABI (int 0x80) and the x32 one,
// what the filter refuses natively, and connections Landlock refuses:
// the filter must refuse every call of them, whatever it is.
func (r *Report) otherABIs(foreign int, unixPath string) {
	if !ia32() {
		r.Escapes["i386"] = "denied: this kernel runs no 32-bit program"
	} else if mem, err := syscall.Mmap(-1, 0, 4096, syscall.PROT_READ|syscall.PROT_WRITE,
		syscall.MAP_PRIVATE|syscall.MAP_ANONYMOUS|syscall.MAP_32BIT); err != nil {
		r.Allowed["i386:memory below 4 GiB"] = "failed: " + err.Error()
	} else {
		r.i386(mem, foreign, unixPath)
	}
	for _, c := range []struct {
		name       string
		nr         uintptr
		a1, a2, a3 uintptr
	}{{"x32:socket:unix", syscall.SYS_SOCKET, syscall.AF_UNIX, syscall.SOCK_STREAM, 0},
		{"x32:socket:mptcp", syscall.SYS_SOCKET, syscall.AF_INET, syscall.SOCK_STREAM, ipprotoMPTCP},
		{"x32:keyctl", syscall.SYS_KEYCTL, keyctlGetKeyringID, uintptr(^uint64(2)), 1}} {
		fd, _, e := syscall.RawSyscall(x32Bit|c.nr, c.a1, c.a2, c.a3)
		if e == 0 && c.nr == syscall.SYS_SOCKET {
			syscall.Close(int(fd))
		}
		r.Escapes[c.name] = refused(errnoErr(e), "made the call")
	}
}

// i386 makes its tries with mem, mapped below 4 GiB, for the pointers.
func (r *Report) i386(mem []byte, foreign int, unixPath string) {
	addr := uintptr(unsafe.Pointer(&mem[0]))
	for _, s := range []struct {
		name                   string
		family, kind, protocol uintptr
	}{{"i386:socket:unix", syscall.AF_UNIX, syscall.SOCK_STREAM, 0},
		{"i386:socket:udp", syscall.AF_INET, syscall.SOCK_DGRAM, 0},
		{"i386:socket:mptcp", syscall.AF_INET, syscall.SOCK_STREAM, ipprotoMPTCP}} {
		fd, err := sys32(i386Socket, s.family, s.kind, s.protocol)
		if err == nil {
			_, _ = sys32(i386Close, uintptr(fd))
		}
		r.Escapes[s.name] = refused(err, "opened")
	}
	if unixPath != "" {
		// struct sockaddr_un at mem[0:110]
		binary.LittleEndian.PutUint16(mem[0:], syscall.AF_UNIX)
		copy(mem[2:109], unixPath)
		r.Escapes["i386:connect:unix"] = connect32(syscall.AF_UNIX, 0, addr, 110, "connected to "+unixPath)
	}
	if foreign > 0 {
		// struct sockaddr_in 127.0.0.1:foreign at mem[128:144]
		binary.LittleEndian.PutUint16(mem[128:], syscall.AF_INET)
		binary.BigEndian.PutUint16(mem[130:], uint16(foreign))
		copy(mem[132:136], []byte{127, 0, 0, 1})
		r.Escapes["i386:connect:foreign"] = connect32(syscall.AF_INET, ipprotoMPTCP, addr+128, 16, "connected to a port that is no agent's")
		r.Escapes["i386:connect:foreign:tcp"] = connectNative32(addr+128, 16)
	}
	_, err := sys32(i386IOUring, 1, addr+256) // struct io_uring_params at mem[256:376]
	r.Escapes["i386:io_uring_setup"] = refused(err, "made an io_uring")
	_, err = sys32(i386Keyctl, keyctlGetKeyringID, uintptr(uint32(0xfffffffd)), 1) // KEY_SPEC_SESSION_KEYRING
	r.Escapes["i386:keyctl"] = refused(err, "reached its session keyring")
	r.Escapes["i386:unshare:user"] = refused(forkedInt80(i386Unshare, syscall.CLONE_NEWUSER), "unshared a user namespace")
	fd, err := syscall.Socket(syscall.AF_INET, syscall.SOCK_STREAM, 0)
	if err != nil {
		r.Escapes["i386:listen:unbound"] = "denied: socket: " + err.Error()
		return
	}
	if _, err := sys32(i386Listen, uintptr(fd), 4); err != nil {
		syscall.Close(fd)
		r.Escapes["i386:listen:unbound"] = refused(err, "")
	} else {
		r.Escapes["i386:listen:unbound"] = "ALLOWED: listening on port " + strconv.Itoa(boundPort(fd)) // left open for a client outside
	}
}

// connect32 makes a socket and connects it, both through the 32-bit ABI.
func connect32(family, protocol, sockaddr, size uintptr, what string) string {
	fd, err := sys32(i386Socket, family, syscall.SOCK_STREAM, protocol)
	if err != nil {
		return "denied: socket: " + refused(err, "")[len("denied: "):]
	}
	defer sys32(i386Close, uintptr(fd))
	_, err = sys32(i386Connect, uintptr(fd), sockaddr, size)
	return refused(err, what)
}

// connectNative32 connects a native TCP socket through the 32-bit ABI.
func connectNative32(sockaddr, size uintptr) string {
	fd, err := syscall.Socket(syscall.AF_INET, syscall.SOCK_STREAM, 0)
	if err != nil {
		return "denied: socket: " + err.Error()
	}
	defer syscall.Close(fd)
	_, err = sys32(i386Connect, uintptr(fd), sockaddr, size)
	return refused(err, "connected to a port that is no agent's")
}

// forkedInt80 makes one 32-bit call in a child of one thread, and is its
// result.
func forkedInt80(trap, a1 uintptr) error {
	pid := int(forkInt80(trap, a1))
	if pid < 0 {
		return syscall.Errno(-pid)
	}
	var ws syscall.WaitStatus
	for {
		_, err := syscall.Wait4(pid, &ws, 0, nil)
		if err != syscall.EINTR {
			break
		}
	}
	if !ws.Exited() {
		return errors.New("the child making the call was killed: " + ws.Signal().String())
	}
	if status := ws.ExitStatus(); status != 0 {
		return syscall.Errno(256 - status) // the low byte of -errno
	}
	return nil
}
