//go:build !linux

package sandbox

import (
	"errors"
	"os"
)

// SupervisorFD is the descriptor Linux's shim gets its supervisor's socket
// on; here no program is supervised (Probe's Supervise is false).
const SupervisorFD = 3

// Supervisor answers a confined program's listen() calls on Linux; here
// none is ever made.
type Supervisor struct{}

// NewSupervisor fails: there is no seccomp here.
func NewSupervisor(bind []uint16) (*Supervisor, error) {
	return nil, errors.New(unavailable + ": no seccomp user notification")
}

// File is nil: there is no socket.
func (s *Supervisor) File() *os.File { return nil }

// Started does nothing.
func (s *Supervisor) Started(ok bool) {}

// Close does nothing.
func (s *Supervisor) Close() {}
