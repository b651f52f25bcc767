//go:build linux

package sandbox

import (
	"fmt"
	"os"
	"os/exec"
	"slices"
	"syscall"
	"testing"

	"golang.org/x/sys/unix"
)

// helperEnv makes this test binary a process that loads a seccomp filter
// and exits: a confined process, as a program's orphan is.
const helperEnv = "SANDBOX_TEST_HELPER"

func TestMain(m *testing.M) {
	if os.Getenv(helperEnv) == "confined" {
		if err := loadSeccomp(Policy{}); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(2)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// exited waits until the child pid has exited, leaving it a zombie.
func exited(t *testing.T, pid int) {
	t.Helper()
	var info unix.Siginfo
	if err := unix.Waitid(unix.P_PID, pid, &info, unix.WEXITED|unix.WNOWAIT, nil); err != nil {
		t.Fatalf("waitid %d: %v", pid, err)
	}
}

// reaped says the child pid is no zombie of ours any more.
func reaped(pid int) bool {
	var info unix.Siginfo
	return unix.Waitid(unix.P_PID, pid, &info, unix.WEXITED|unix.WNOWAIT|unix.WNOHANG, nil) == unix.ECHILD
}

// A zombie child that ran confined is reaped, unless kept (a program the
// caller waits for); one that did not (one of leaguetui's own agents)
// keeps its exit status for its exec.Cmd.
func TestReapZombiesTakesOnlyConfinedOnes(t *testing.T) {
	if !Probe().Seccomp {
		t.Skip("no seccomp here")
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	start := func() int {
		pid, err := syscall.ForkExec(exe, []string{exe}, &syscall.ProcAttr{Env: []string{helperEnv + "=confined"},
			Files: []uintptr{0, 1, 2}})
		if err != nil {
			t.Fatal(err)
		}
		return pid
	}
	orphan, kept := start(), start()
	own := exec.Command("/bin/sh", "-c", "exit 7")
	if err := own.Start(); err != nil {
		t.Fatal(err)
	}
	for _, pid := range []int{orphan, kept, own.Process.Pid} {
		exited(t, pid)
	}
	if kids := children(); !slices.Contains(kids, orphan) || !slices.Contains(kids, own.Process.Pid) {
		t.Errorf("children %v, want %d and %d among them", kids, orphan, own.Process.Pid)
	}
	reapZombies(func(pid int) bool { return pid == kept })
	if !reaped(orphan) {
		t.Errorf("the confined zombie %d was not reaped", orphan)
	}
	if reaped(kept) {
		t.Errorf("the kept zombie %d was reaped", kept)
	}
	var ws syscall.WaitStatus
	if _, err := syscall.Wait4(kept, &ws, 0, nil); err != nil {
		t.Errorf("wait for the kept one: %v", err)
	}
	if err := own.Wait(); err == nil || own.ProcessState.ExitCode() != 7 {
		t.Errorf("exec.Cmd's wait: %v, want exit status 7", err)
	}
}
