package process

import (
	"os"
	"os/exec"
	"runtime"
	"sync"
	"syscall"

	"github.com/leaguetui/leaguetui/agents/store"
)

// agentAttr sets what an agent of ours is started with: the data folder's
// lock, when given, passed down (lock: store.DataLock.File), and its
// process group.
func agentAttr(cmd *exec.Cmd, lock *os.File) {
	if lock != nil {
		cmd.ExtraFiles = []*os.File{lock}
		cmd.Env = append(cmd.Env, store.InheritedLockEnv+"=3") // ExtraFiles[0] is descriptor 3
	}
	// Its own process group: a Ctrl-C in the terminal reaches us, and we
	// decide how the children stop. Pdeathsig: the kernel kills the child
	// when we die, even by SIGKILL, so no agent outlives its parent and a
	// resume never meets the old league's processes.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
}

// programAttr sets what an outside program is started with: as for our
// own agents (agentAttr), a process group signalled as a whole and the
// kernel's kill when leaguetui dies, and its cgroup where it has one.
func programAttr(cmd *exec.Cmd, j *jail) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	if j.cgroup != nil {
		cmd.SysProcAttr.UseCgroupFD, cmd.SysProcAttr.CgroupFD = true, j.cgroup.FD()
	}
}

// The parent-death signal is sent when the thread that forked the child
// exits, not the process (see prctl(2) and golang/go#27505): Go may end an
// OS thread whose goroutine locked it and returned. Every child is therefore
// forked from one goroutine locked to its thread for the life of the
// process, so that thread ends only with the process.
var (
	forkOnce  sync.Once
	forkQueue chan func()
)

// startOnForkThread starts cmd from the fork thread.
func startOnForkThread(cmd *exec.Cmd) error {
	forkOnce.Do(func() {
		forkQueue = make(chan func())
		go func() {
			runtime.LockOSThread() // never unlocked: the thread lives as long as the process
			for start := range forkQueue {
				start()
			}
		}()
	})
	done := make(chan error, 1)
	forkQueue <- func() { done <- cmd.Start() }
	return <-done
}
