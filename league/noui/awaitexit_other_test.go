//go:build !linux

package noui_test

import (
	"syscall"
	"testing"
	"time"

	"github.com/leaguetui/leaguetui/internal/leaguetest"
)

// awaitExit waits until process pid has exited (it can be found no more:
// this system has no pidfd), failing the test past timeout.
func awaitExit(t *testing.T, pid int, timeout time.Duration) {
	t.Helper()
	deadline := time.Now().Add(timeout)
	for leaguetest.SignalPID(pid, 0) == nil {
		if time.Now().After(deadline) {
			_ = leaguetest.SignalPID(pid, syscall.SIGKILL)
			t.Fatalf("process %d (%s) still runs %s after its parent was killed", pid, leaguetest.CommandLine(pid), timeout)
		}
		time.Sleep(20 * time.Millisecond)
	}
}
