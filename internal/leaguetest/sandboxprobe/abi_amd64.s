//go:build linux

#include "textflag.h"

// func int80(trap, a1, a2, a3, a4, a5 uintptr) (r uintptr)
//
// A system call through the 32-bit ABI: its number from the i386 table,
// its pointer arguments below 4 GiB.
TEXT ·int80(SB), NOSPLIT, $0-56
	MOVQ	trap+0(FP), AX
	MOVQ	a1+8(FP), BX
	MOVQ	a2+16(FP), CX
	MOVQ	a3+24(FP), DX
	MOVQ	a4+32(FP), SI
	MOVQ	a5+40(FP), DI
	INT	$0x80
	MOVQ	AX, r+48(FP)
	RET

// func forkInt80(trap, a1 uintptr) (pid uintptr)
//
// fork(2); the child, which has one thread (unshare(CLONE_NEWUSER) wants
// that), makes one call through the 32-bit ABI and exits with its result
// as its status, running no Go code. The parent gets the child's pid, or
// -errno.
TEXT ·forkInt80(SB), NOSPLIT, $0-24
	MOVQ	$57, AX // fork
	SYSCALL
	CMPQ	AX, $0
	JNE	parent
	MOVQ	trap+0(FP), AX
	MOVQ	a1+8(FP), BX
	INT	$0x80
	MOVQ	AX, DI
	MOVQ	$231, AX // exit_group
	SYSCALL
parent:
	MOVQ	AX, pid+16(FP)
	RET
