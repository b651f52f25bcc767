//go:build unix

package noui_test

import "syscall"

// signalPID sends sig to the process pid.
func signalPID(pid int, sig syscall.Signal) error { return syscall.Kill(pid, sig) }
