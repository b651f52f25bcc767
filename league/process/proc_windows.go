package process

import (
	"os"
	"os/exec"
	"strconv"
	"sync"
	"syscall"
	"unsafe"

	"golang.org/x/sys/windows"

	"github.com/leaguetui/leaguetui/agents/store"
)

// Windows has no process groups to signal, no SIGTERM and no parent-death
// signal. In their place: each child starts in a console process group of
// its own (CREATE_NEW_PROCESS_GROUP), so that a Ctrl-C in the console
// reaches us and we decide how the children stop, and is asked to stop
// with CTRL_BREAK_EVENT (which a Go program reads as os.Interrupt, Python
// and Node as SIGBREAK); and each child is put in a job object that kills
// whatever is left in it when the child exits, when we kill it, and when
// leaguetui itself ends, however it ends (the job's last handle closes).
// What a child starts in the instant before it joins its job escapes it.

// agentAttr sets what an agent of ours is started with: the data folder's
// lock, when given, passed down as an inherited handle whose number
// store.InheritedLockEnv names (Windows passes no descriptors beyond the
// standard three), and its own console process group.
func agentAttr(cmd *exec.Cmd, lock *os.File) {
	cmd.SysProcAttr = &syscall.SysProcAttr{CreationFlags: windows.CREATE_NEW_PROCESS_GROUP}
	if lock == nil {
		return
	}
	h := windows.Handle(lock.Fd())
	if windows.SetHandleInformation(h, windows.HANDLE_FLAG_INHERIT, windows.HANDLE_FLAG_INHERIT) != nil {
		return // the manager then finds the folder locked, and says so
	}
	cmd.SysProcAttr.AdditionalInheritedHandles = []syscall.Handle{syscall.Handle(h)}
	cmd.Env = append(cmd.Env, store.InheritedLockEnv+"="+strconv.FormatUint(uint64(h), 10))
}

// programAttr sets what an outside program is started with: its own
// console process group.
func programAttr(cmd *exec.Cmd, j *jail) {
	cmd.SysProcAttr = &syscall.SysProcAttr{CreationFlags: windows.CREATE_NEW_PROCESS_GROUP}
}

// child is what we hold of a running child: its job (0 where none could
// be made) and a handle on the process, which keeps its id from being
// reused until the handle closes.
type child struct {
	job, process windows.Handle
}

// children are the running children, by process id.
var children = struct {
	sync.Mutex
	of map[int]child
}{of: map[int]child{}}

// startOnForkThread starts cmd and puts it in a job of its own.
func startOnForkThread(cmd *exec.Cmd) error {
	if err := cmd.Start(); err != nil {
		return err
	}
	pid := cmd.Process.Pid
	process, err := windows.OpenProcess(windows.SYNCHRONIZE|windows.PROCESS_SET_QUOTA|windows.PROCESS_TERMINATE,
		false, uint32(pid))
	if err != nil {
		return nil // it runs; Kill on its os.Process still ends it
	}
	c := child{job: newJob(process), process: process}
	children.Lock()
	children.of[pid] = c
	children.Unlock()
	go func() {
		_, _ = windows.WaitForSingleObject(process, windows.INFINITE)
		children.Lock()
		delete(children.of, pid)
		children.Unlock()
		if c.job != 0 {
			windows.CloseHandle(c.job) // kills what it left behind
		}
		windows.CloseHandle(process)
	}()
	return nil
}

// newJob is a job that kills its processes once its last handle closes,
// with process in it; 0 where Windows refuses one.
func newJob(process windows.Handle) windows.Handle {
	job, err := windows.CreateJobObject(nil, nil)
	if err != nil {
		return 0
	}
	var info windows.JOBOBJECT_EXTENDED_LIMIT_INFORMATION
	info.BasicLimitInformation.LimitFlags = windows.JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE
	if _, err := windows.SetInformationJobObject(job, windows.JobObjectExtendedLimitInformation,
		uintptr(unsafe.Pointer(&info)), uint32(unsafe.Sizeof(info))); err != nil {
		windows.CloseHandle(job)
		return 0
	}
	if err := windows.AssignProcessToJobObject(job, process); err != nil {
		windows.CloseHandle(job)
		return 0
	}
	return job
}

// signalGroup is Unix's signal to a process group, for the two signals
// leaguetui sends: SIGTERM asks the child's console process group to stop
// (CTRL_BREAK_EVENT), SIGKILL ends its job (or, without one, the child).
// A child that has exited is sent nothing.
func signalGroup(pid int, sig syscall.Signal) error {
	children.Lock()
	c, ok := children.of[pid]
	children.Unlock()
	if !ok {
		return nil
	}
	if sig != syscall.SIGKILL {
		return windows.GenerateConsoleCtrlEvent(windows.CTRL_BREAK_EVENT, uint32(pid))
	}
	if c.job != 0 {
		return windows.TerminateJobObject(c.job, 1)
	}
	return windows.TerminateProcess(c.process, 1)
}

// askToStop asks an agent of ours to end: CTRL_BREAK_EVENT to its console
// process group, which Go reads as os.Interrupt (Windows has no SIGTERM).
func askToStop(p *os.Process) error { return signalGroup(p.Pid, syscall.SIGTERM) }
