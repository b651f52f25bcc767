package leaguetest

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"
)

// PeakRSS is the most resident memory the live process pid has held
// (VmHWM in /proc/PID/status), in bytes: the figure a memory bound of an
// agent under attack is checked against. It skips the test where there
// is no /proc.
func PeakRSS(t testing.TB, pid int) int64 {
	t.Helper()
	if !HaveProc() {
		SkipWithout(t, "no /proc to read an agent's memory from")
	}
	raw, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		t.Fatalf("memory of pid %d: %v", pid, err)
	}
	for _, line := range strings.Split(string(raw), "\n") {
		if rest, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			kb, err := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
			if err != nil {
				t.Fatalf("VmHWM of pid %d: %q", pid, line)
			}
			return kb << 10
		}
	}
	t.Fatalf("no VmHWM in /proc/%d/status", pid)
	return 0
}
