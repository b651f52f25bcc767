//go:build unix && !linux

package process

import (
	"os"
	"os/exec"
	"syscall"

	"github.com/leaguetui/leaguetui/agents/store"
)

// agentAttr sets what an agent of ours is started with: the data folder's
// lock, when given, passed down (lock: store.DataLock.File), and its own
// process group, so that a Ctrl-C in the terminal reaches us and we decide
// how the children stop. This system has no parent-death signal (Linux's
// Pdeathsig): an agent whose leaguetui is killed with SIGKILL outlives it.
func agentAttr(cmd *exec.Cmd, lock *os.File) {
	if lock != nil {
		cmd.ExtraFiles = []*os.File{lock}
		cmd.Env = append(cmd.Env, store.InheritedLockEnv+"=3") // ExtraFiles[0] is descriptor 3
	}
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
}

// programAttr sets what an outside program is started with: a process
// group signalled as a whole.
func programAttr(cmd *exec.Cmd, j *jail) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
}

// startOnForkThread starts cmd. (On Linux every child is forked from one
// locked thread, for the parent-death signal; there is none here.)
func startOnForkThread(cmd *exec.Cmd) error { return cmd.Start() }
