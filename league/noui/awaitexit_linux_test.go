package noui_test

import (
	"errors"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/leaguetui/leaguetui/internal/leaguetest"
)

// awaitExit waits until process pid has exited (a pidfd becomes readable
// then), failing the test past timeout.
func awaitExit(t *testing.T, pid int, timeout time.Duration) {
	t.Helper()
	fd, err := unix.PidfdOpen(pid, 0)
	if errors.Is(err, unix.ESRCH) {
		return // already gone
	}
	if err != nil {
		t.Fatalf("pidfd_open %d: %v", pid, err)
	}
	defer unix.Close(fd)
	fds := []unix.PollFd{{Fd: int32(fd), Events: unix.POLLIN}}
	for {
		n, err := unix.Poll(fds, int(timeout.Milliseconds()))
		if errors.Is(err, unix.EINTR) {
			continue
		}
		if err != nil {
			t.Fatalf("poll pidfd of %d: %v", pid, err)
		}
		if n == 0 {
			_ = syscall.Kill(pid, syscall.SIGKILL)
			t.Fatalf("process %d (%s) still runs %s after its parent was killed", pid, leaguetest.CommandLine(pid), timeout)
		}
		return
	}
}
