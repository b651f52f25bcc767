package sandbox

import "golang.org/x/sys/unix"

// nativeArch is the only arch the filter lets a call through from: a
// 32-bit arm program's calls (AUDIT_ARCH_ARM) are refused whatever they
// are. arm64 has no second ABI under its own arch (foreignNr 0).
const (
	nativeArch = unix.AUDIT_ARCH_AARCH64
	foreignNr  = 0
)
