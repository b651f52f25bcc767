//go:build unix

package process

import (
	"os"
	"syscall"
)

// signalGroup sends sig to the process group pid leads.
func signalGroup(pid int, sig syscall.Signal) error { return syscall.Kill(-pid, sig) }

// askToStop asks an agent of ours to end: SIGTERM.
func askToStop(p *os.Process) error { return p.Signal(syscall.SIGTERM) }
