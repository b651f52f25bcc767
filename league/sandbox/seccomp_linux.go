package sandbox

import (
	"errors"
	"fmt"
	"os"
	"runtime"
	"unsafe"

	"golang.org/x/net/bpf"
	"golang.org/x/sys/unix"
)

// The seccomp filter is written here as classic BPF, with x/net/bpf's
// assembler, rather than with a filter library: go-seccomp-bpf, used
// before, let every call of another ABI through (the 32-bit one, int
// 0x80, jumped to its default action, allow) and compared all 64 bits of
// arguments the kernel reads as 32-bit ints, so socket(AF_INET,
// SOCK_STREAM, 262|1<<32) made a Multipath TCP socket. Nor can it return
// SECCOMP_RET_USER_NOTIF. Here every call of an ABI but the build's own
// is refused before any rule is read, and an int argument is its low 32
// bits only, as the kernel reads it.

// A call the filter refuses fails with EPERM; clone3, whose flags lie in
// memory the filter cannot read, with ENOSYS, on which the C library
// falls back to clone, whose flags it reads.
const (
	retAllow  = unix.SECCOMP_RET_ALLOW
	retDeny   = unix.SECCOMP_RET_ERRNO | uint32(unix.EPERM)
	retNoSys  = unix.SECCOMP_RET_ERRNO | uint32(unix.ENOSYS)
	retNotify = unix.SECCOMP_RET_USER_NOTIF
)

// refusedCalls reach into other processes (ptrace, their memory), the
// kernel (BPF, modules, keyrings, io_uring, mounts, namespaces) or the
// machine (reboot, swap): a league's program needs none of them.
var refusedCalls = []uint32{unix.SYS_PTRACE, unix.SYS_PROCESS_VM_READV, unix.SYS_PROCESS_VM_WRITEV,
	unix.SYS_BPF, unix.SYS_PERF_EVENT_OPEN, unix.SYS_KEYCTL, unix.SYS_ADD_KEY, unix.SYS_REQUEST_KEY,
	unix.SYS_USERFAULTFD, unix.SYS_IO_URING_SETUP, unix.SYS_KEXEC_LOAD, unix.SYS_INIT_MODULE,
	unix.SYS_FINIT_MODULE, unix.SYS_DELETE_MODULE, unix.SYS_MOUNT, unix.SYS_UMOUNT2, unix.SYS_PIVOT_ROOT,
	unix.SYS_SWAPON, unix.SYS_SWAPOFF, unix.SYS_REBOOT, unix.SYS_SETNS, unix.SYS_UNSHARE, unix.SYS_CHROOT,
	unix.SYS_OPEN_BY_HANDLE_AT, unix.SYS_NAME_TO_HANDLE_AT}

// cloneNamespaces are clone's flags that make a namespace: refused as
// unshare is.
const cloneNamespaces = unix.CLONE_NEWNS | unix.CLONE_NEWCGROUP | unix.CLONE_NEWUTS | unix.CLONE_NEWIPC |
	unix.CLONE_NEWUSER | unix.CLONE_NEWPID | unix.CLONE_NEWNET

// Offsets in struct seccomp_data: nr, arch, then the instruction pointer
// and six 64-bit arguments. argLow is the word the kernel reads an int
// argument from: the low half, first on the little-endian machines that
// have a nativeArch.
const (
	offNr   = 0
	offArch = 4
	offArgs = 16
)

func argLow(i uint32) uint32 { return offArgs + 8*i }

// sockTypeMask keeps the kind of socket() type argument, less
// SOCK_NONBLOCK and SOCK_CLOEXEC (SOCK_TYPE_MASK in the kernel).
const sockTypeMask = 0xf

// filterFor is the filter for policy p, its jumps resolved; supervised
// hands listen() to leaguetui (Supervisor) instead of letting it through.
func filterFor(p Policy, supervised bool) ([]bpf.Instruction, error) {
	if nativeArch == 0 {
		return nil, errors.New("no seccomp filter for " + runtime.GOARCH)
	}
	var a program
	a.abi()
	a.dispatch(supervised)
	a.sockets(p.UDP)
	a.clone()
	a.returns()
	return a.resolve()
}

// abi refuses a call of any ABI but the native one: another arch (i386
// through int 0x80 on x86-64, arm on arm64), and on x86-64 the x32 ABI,
// whose numbers carry bit 30 under the native arch.
func (a *program) abi() {
	a.load(offArch)
	a.jumpIf(bpf.JumpNotEqual, nativeArch, "deny", "")
	a.load(offNr)
	if foreignNr != 0 {
		a.jumpIf(bpf.JumpGreaterOrEqual, foreignNr, "deny", "")
	}
}

// dispatch sends each call with rules to its block, refuses the refused
// ones and lets every other through.
func (a *program) dispatch(supervised bool) {
	a.jumpIf(bpf.JumpEqual, unix.SYS_SOCKET, "socket", "")
	a.jumpIf(bpf.JumpEqual, unix.SYS_CLONE, "clone", "")
	a.jumpIf(bpf.JumpEqual, unix.SYS_CLONE3, "nosys", "")
	if supervised {
		a.jumpIf(bpf.JumpEqual, unix.SYS_LISTEN, "notify", "")
	}
	for _, nr := range refusedCalls {
		a.jumpIf(bpf.JumpEqual, nr, "deny", "")
	}
	a.jump("allow")
}

// sockets lets socket() make only what Landlock's TCP port rules see:
// IPv4 and IPv6 TCP streams (not Multipath TCP, SCTP or any other
// protocol), datagrams of UDP when udp (an entry that names hosts needs
// DNS), and netlink (the C library reads the host's addresses through it).
// A UNIX socket could reach any local service, a raw or packet socket
// any port.
func (a *program) sockets(udp bool) {
	a.label("socket")
	a.load(argLow(0)) // int domain
	a.jumpIf(bpf.JumpEqual, unix.AF_NETLINK, "allow", "")
	a.jumpIf(bpf.JumpEqual, unix.AF_INET, "inet", "")
	a.jumpIf(bpf.JumpEqual, unix.AF_INET6, "inet", "deny")
	a.label("inet")
	a.load(argLow(1)) // int type
	a.and(sockTypeMask)
	if udp {
		a.jumpIf(bpf.JumpEqual, unix.SOCK_DGRAM, "datagram", "")
	}
	a.jumpIf(bpf.JumpEqual, unix.SOCK_STREAM, "", "deny")
	a.load(argLow(2)) // int protocol
	a.jumpIf(bpf.JumpEqual, 0, "allow", "")
	a.jumpIf(bpf.JumpEqual, unix.IPPROTO_TCP, "allow", "deny")
	if udp {
		a.label("datagram")
		a.load(argLow(2))
		a.jumpIf(bpf.JumpEqual, 0, "allow", "")
		a.jumpIf(bpf.JumpEqual, unix.IPPROTO_UDP, "allow", "deny")
	}
}

// clone refuses a new namespace; the kernel reads clone's flags' low 32
// bits only, and so does the filter.
func (a *program) clone() {
	a.label("clone")
	a.load(argLow(0))
	a.jumpIf(bpf.JumpBitsSet, cloneNamespaces, "deny", "allow")
}

func (a *program) returns() {
	for _, r := range []struct {
		name string
		val  uint32
	}{{"allow", retAllow}, {"deny", retDeny}, {"nosys", retNoSys}, {"notify", retNotify}} {
		a.label(r.name)
		a.ins = append(a.ins, bpf.RetConstant{Val: r.val})
	}
}

// program is a filter being written: its instructions, and jumps to
// labels that resolve makes relative once every label is placed.
type program struct {
	ins    []bpf.Instruction
	labels map[string]int
	jumps  []jumpTo
}

// jumpTo is the instruction at `at` going to yes (and no, for a
// conditional jump); "" is the next instruction.
type jumpTo struct {
	at      int
	yes, no string
}

func (a *program) load(off uint32) {
	a.ins = append(a.ins, bpf.LoadAbsolute{Off: off, Size: 4})
}

func (a *program) and(v uint32) {
	a.ins = append(a.ins, bpf.ALUOpConstant{Op: bpf.ALUOpAnd, Val: v})
}

func (a *program) jumpIf(cond bpf.JumpTest, v uint32, yes, no string) {
	a.jumps = append(a.jumps, jumpTo{at: len(a.ins), yes: yes, no: no})
	a.ins = append(a.ins, bpf.JumpIf{Cond: cond, Val: v})
}

func (a *program) jump(to string) {
	a.jumps = append(a.jumps, jumpTo{at: len(a.ins), yes: to})
	a.ins = append(a.ins, bpf.Jump{})
}

func (a *program) label(name string) {
	if a.labels == nil {
		a.labels = map[string]int{}
	}
	a.labels[name] = len(a.ins)
}

// resolve turns each jump's labels into skips; a conditional jump skips
// 255 instructions at most.
func (a *program) resolve() ([]bpf.Instruction, error) {
	skip := func(at int, to string) (int, error) {
		if to == "" {
			return 0, nil
		}
		target, ok := a.labels[to]
		if !ok || target <= at {
			return 0, fmt.Errorf("seccomp filter: no label %q after instruction %d", to, at)
		}
		return target - at - 1, nil
	}
	for _, j := range a.jumps {
		yes, err := skip(j.at, j.yes)
		if err != nil {
			return nil, err
		}
		no, err := skip(j.at, j.no)
		if err != nil {
			return nil, err
		}
		switch ins := a.ins[j.at].(type) {
		case bpf.Jump:
			ins.Skip = uint32(yes)
			a.ins[j.at] = ins
		case bpf.JumpIf:
			if yes > 255 || no > 255 {
				return nil, fmt.Errorf("seccomp filter: jump at %d too far", j.at)
			}
			ins.SkipTrue, ins.SkipFalse = uint8(yes), uint8(no)
			a.ins[j.at] = ins
		}
	}
	return a.ins, nil
}

// loadSeccomp installs the filter on this thread; execve keeps it. With
// p.Supervisor, listen() goes to leaguetui: the filter's listener is sent
// over that descriptor and closed here, so the program never holds it.
func loadSeccomp(p Policy) error {
	if !seccompSupported() {
		if p.Require {
			return errors.New("seccomp: not supported here")
		}
		return nil
	}
	if p.Supervisor == 0 {
		return loadFilter(p, false)
	}
	defer unix.Close(p.Supervisor)
	err := loadSupervised(p)
	if errors.Is(err, unix.EBUSY) && !p.Require {
		// A filter above leaguetui already has a listener, and a chain
		// of filters has one at most: listen() is then let through.
		fmt.Fprintln(os.Stderr, "leaguetui: listen on an unbound socket NOT confined: a seccomp filter above leaguetui has a listener")
		return loadFilter(p, false)
	}
	return err
}

// loadFilter installs the filter without a listener.
func loadFilter(p Policy, supervised bool) error {
	raw, err := assemble(p, supervised)
	if err != nil {
		return err
	}
	_, err = installFilter(raw, 0)
	return err
}

// loadSupervised installs the filter with a listener and hands that to
// leaguetui.
func loadSupervised(p Policy) error {
	raw, err := assemble(p, true)
	if err != nil {
		return err
	}
	listener, err := installFilter(raw, unix.SECCOMP_FILTER_FLAG_NEW_LISTENER|unix.SECCOMP_FILTER_FLAG_WAIT_KILLABLE_RECV)
	if errors.Is(err, unix.EINVAL) {
		// Before Linux 5.19: no killable wait. A signal then restarts
		// the program's listen(), which leaguetui answers again.
		listener, err = installFilter(raw, unix.SECCOMP_FILTER_FLAG_NEW_LISTENER)
	}
	if err != nil {
		return err
	}
	defer unix.Close(listener)
	if err := unix.Sendmsg(p.Supervisor, []byte{0}, unix.UnixRights(listener), nil, 0); err != nil {
		return fmt.Errorf("seccomp: cannot hand its listener to leaguetui: %w", err)
	}
	return nil
}

func assemble(p Policy, supervised bool) ([]bpf.RawInstruction, error) {
	insts, err := filterFor(p, supervised)
	if err != nil {
		return nil, fmt.Errorf("seccomp: %w", err)
	}
	raw, err := bpf.Assemble(insts)
	if err != nil {
		return nil, fmt.Errorf("seccomp: %w", err)
	}
	return raw, nil
}

// installFilter loads raw with flags and returns what seccomp(2) does (a
// listener's descriptor with SECCOMP_FILTER_FLAG_NEW_LISTENER).
func installFilter(raw []bpf.RawInstruction, flags uintptr) (int, error) {
	filter := make([]unix.SockFilter, len(raw))
	for i, r := range raw {
		filter[i] = unix.SockFilter{Code: r.Op, Jt: r.Jt, Jf: r.Jf, K: r.K}
	}
	// Without CAP_SYS_ADMIN a filter needs no_new_privs (confine has set
	// it already; a caller of loadSeccomp alone has not).
	if err := unix.Prctl(unix.PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0); err != nil {
		return -1, fmt.Errorf("seccomp: no_new_privs: %w", err)
	}
	prog := unix.SockFprog{Len: uint16(len(filter)), Filter: &filter[0]}
	fd, _, errno := unix.RawSyscall(unix.SYS_SECCOMP, unix.SECCOMP_SET_MODE_FILTER, flags, uintptr(unsafe.Pointer(&prog)))
	runtime.KeepAlive(filter)
	if errno != 0 {
		return -1, fmt.Errorf("seccomp: %w", errno)
	}
	return int(fd), nil
}

// seccompSupported says the filter is written for this machine's arch and
// its kernel can refuse a call with an errno.
func seccompSupported() bool {
	if nativeArch == 0 {
		return false
	}
	if _, err := unix.PrctlRetInt(unix.PR_GET_SECCOMP, 0, 0, 0, 0); err != nil {
		return false
	}
	return actionAvailable(unix.SECCOMP_RET_ERRNO)
}

// actionAvailable says the kernel knows the filter's return action
// (SECCOMP_GET_ACTION_AVAIL, Linux 4.14).
func actionAvailable(action uint32) bool {
	_, _, errno := unix.Syscall(unix.SYS_SECCOMP, unix.SECCOMP_GET_ACTION_AVAIL, 0, uintptr(unsafe.Pointer(&action)))
	return errno == 0
}
