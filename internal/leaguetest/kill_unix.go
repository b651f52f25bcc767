//go:build unix

package leaguetest

import "syscall"

// killPID ends the process pid: SIGKILL.
func killPID(pid int) error { return syscall.Kill(pid, syscall.SIGKILL) }
