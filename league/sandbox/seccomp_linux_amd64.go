package sandbox

import "golang.org/x/sys/unix"

// nativeArch is the only arch the filter lets a call through from: a call
// through the 32-bit ABI (int 0x80, AUDIT_ARCH_I386) is refused whatever
// it is. foreignNr refuses the x32 ABI, whose calls come under the native
// arch with __X32_SYSCALL_BIT set in their number: no native call's
// number is as high.
const (
	nativeArch = unix.AUDIT_ARCH_X86_64
	foreignNr  = 0x40000000
)
