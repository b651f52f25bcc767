package leaguetest

import (
	"os"
	"syscall"
)

// SignalPID ends the process pid for SIGKILL (TerminateProcess), and for
// signal 0 says whether it can be found; Windows has no other signal to
// send.
func SignalPID(pid int, sig syscall.Signal) error {
	p, err := os.FindProcess(pid)
	if err != nil {
		return syscall.ESRCH
	}
	defer p.Release()
	switch sig {
	case 0:
		return nil
	case syscall.SIGKILL:
		return p.Kill()
	}
	return syscall.EWINDOWS
}
