package sandbox

import (
	"encoding/binary"
	"testing"

	"golang.org/x/net/bpf"
	"golang.org/x/sys/unix"
)

// call is one system call as the filter sees it.
type call struct {
	name string
	arch uint32
	nr   uint32
	args [6]uint64
}

// seccompData is c as struct seccomp_data. x/net/bpf's VM loads words
// big-endian, the kernel in the machine's order: each 32-bit word is put
// where the kernel reads it (an argument's low half first, as on amd64
// and arm64), in the order the VM reads it.
func (c call) seccompData() []byte {
	in := make([]byte, 64)
	binary.BigEndian.PutUint32(in[offNr:], c.nr)
	binary.BigEndian.PutUint32(in[offArch:], c.arch)
	for i, a := range c.args {
		binary.BigEndian.PutUint32(in[argLow(uint32(i)):], uint32(a))
		binary.BigEndian.PutUint32(in[argLow(uint32(i))+4:], uint32(a>>32))
	}
	return in
}

func runFilter(t *testing.T, p Policy, supervised bool, c call) uint32 {
	t.Helper()
	insts, err := filterFor(p, supervised)
	if err != nil {
		t.Skip(err) // an arch the filter is not written for
	}
	vm, err := bpf.NewVM(insts)
	if err != nil {
		t.Fatal(err)
	}
	got, err := vm.Run(c.seccompData())
	if err != nil {
		t.Fatal(err)
	}
	return uint32(got)
}

func TestFilterRefusesWhatLandlockDoesNotSee(t *testing.T) {
	const (
		high    = 1 << 32
		mptcp   = 262
		i386    = unix.AUDIT_ARCH_I386
		x32Bit  = 0x40000000
		udpOK   = true
		noUDP   = false
		nosup   = false
		superv  = true
		deny    = retDeny
		allow   = retAllow
		enosys  = retNoSys
		notify  = retNotify
		stream  = unix.SOCK_STREAM | unix.SOCK_CLOEXEC | unix.SOCK_NONBLOCK
		dgram   = unix.SOCK_DGRAM | unix.SOCK_CLOEXEC
		newUser = unix.CLONE_NEWUSER
	)
	native := uint32(nativeArch)
	socket := func(domain, kind, protocol uint64) [6]uint64 { return [6]uint64{domain, kind, protocol} }
	for _, c := range []struct {
		call
		udp, supervised bool
		want            uint32
	}{
		{call{"native AF_UNIX socket", native, unix.SYS_SOCKET, socket(unix.AF_UNIX, stream, 0)}, noUDP, nosup, deny},
		{call{"native AF_INET stream", native, unix.SYS_SOCKET, socket(unix.AF_INET, stream, 0)}, noUDP, nosup, allow},
		{call{"native AF_INET6 TCP", native, unix.SYS_SOCKET, socket(unix.AF_INET6, stream, unix.IPPROTO_TCP)}, noUDP, nosup, allow},
		{call{"native netlink", native, unix.SYS_SOCKET, socket(unix.AF_NETLINK, unix.SOCK_RAW, 0)}, noUDP, nosup, allow},
		{call{"AF_INET with high bits", native, unix.SYS_SOCKET, socket(unix.AF_INET|high, stream, 0)}, noUDP, nosup, allow},
		{call{"AF_UNIX with high bits", native, unix.SYS_SOCKET, socket(unix.AF_UNIX|high, stream, 0)}, noUDP, nosup, deny},
		{call{"Multipath TCP", native, unix.SYS_SOCKET, socket(unix.AF_INET, stream, mptcp)}, noUDP, nosup, deny},
		{call{"Multipath TCP, protocol 262|1<<32", native, unix.SYS_SOCKET, socket(unix.AF_INET, stream, mptcp|high)}, noUDP, nosup, deny},
		{call{"SCTP stream", native, unix.SYS_SOCKET, socket(unix.AF_INET, stream, unix.IPPROTO_SCTP)}, noUDP, nosup, deny},
		{call{"seqpacket", native, unix.SYS_SOCKET, socket(unix.AF_INET, unix.SOCK_SEQPACKET, 0)}, noUDP, nosup, deny},
		{call{"UDP unasked", native, unix.SYS_SOCKET, socket(unix.AF_INET, dgram, 0)}, noUDP, nosup, deny},
		{call{"UDP unasked, type with high bits", native, unix.SYS_SOCKET, socket(unix.AF_INET, dgram|high, 0)}, noUDP, nosup, deny},
		{call{"UDP asked", native, unix.SYS_SOCKET, socket(unix.AF_INET6, dgram, 0)}, udpOK, nosup, allow},
		{call{"ping socket asked for UDP", native, unix.SYS_SOCKET, socket(unix.AF_INET, dgram, unix.IPPROTO_ICMP)}, udpOK, nosup, deny},
		{call{"raw socket asked for UDP", native, unix.SYS_SOCKET, socket(unix.AF_INET, unix.SOCK_RAW, unix.IPPROTO_ICMP)}, udpOK, nosup, deny},
		{call{"packet socket", native, unix.SYS_SOCKET, socket(unix.AF_PACKET, unix.SOCK_RAW, 0)}, udpOK, nosup, deny},
		{call{"i386 socket", unix.AUDIT_ARCH_I386, 359, socket(unix.AF_INET, stream, 0)}, udpOK, superv, deny},
		{call{"i386 getpid", i386, 20, [6]uint64{}}, udpOK, superv, deny},
		{call{"arm socket", unix.AUDIT_ARCH_ARM, 281, socket(unix.AF_INET, stream, 0)}, udpOK, superv, deny},
		{call{"native read", native, unix.SYS_READ, [6]uint64{0}}, noUDP, superv, allow},
		{call{"keyctl", native, unix.SYS_KEYCTL, [6]uint64{0}}, noUDP, nosup, deny},
		{call{"io_uring_setup", native, unix.SYS_IO_URING_SETUP, [6]uint64{1}}, noUDP, nosup, deny},
		{call{"unshare", native, unix.SYS_UNSHARE, [6]uint64{newUser}}, noUDP, nosup, deny},
		{call{"clone of a thread", native, unix.SYS_CLONE, [6]uint64{unix.CLONE_VM | unix.CLONE_THREAD}}, noUDP, nosup, allow},
		{call{"clone into a user namespace", native, unix.SYS_CLONE, [6]uint64{newUser | unix.CLONE_VFORK}}, noUDP, nosup, deny},
		{call{"clone3", native, unix.SYS_CLONE3, [6]uint64{}}, noUDP, nosup, enosys},
		{call{"listen, unsupervised", native, unix.SYS_LISTEN, [6]uint64{3, 128}}, noUDP, nosup, allow},
		{call{"listen, supervised", native, unix.SYS_LISTEN, [6]uint64{3, 128}}, noUDP, superv, notify},
	} {
		if got := runFilter(t, Policy{UDP: c.udp}, c.supervised, c.call); got != c.want {
			t.Errorf("%s: filter returned %#x, want %#x", c.name, got, c.want)
		}
	}
	if foreignNr != 0 { // x32: the native arch, bit 30 in the number
		for _, nr := range []uint32{unix.SYS_SOCKET, unix.SYS_READ, unix.SYS_LISTEN} {
			c := call{"x32", native, x32Bit | nr, socket(unix.AF_INET, stream, 0)}
			if got := runFilter(t, Policy{UDP: true}, true, c); got != deny {
				t.Errorf("x32 call %d: filter returned %#x, want EPERM", nr, got)
			}
		}
	}
}
