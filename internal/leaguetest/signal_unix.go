//go:build unix

package leaguetest

import "syscall"

// SignalPID sends sig to the process pid; signal 0 says whether it can be
// found.
func SignalPID(pid int, sig syscall.Signal) error { return syscall.Kill(pid, sig) }
