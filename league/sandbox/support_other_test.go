//go:build !linux

package sandbox

import (
	"runtime"
	"strings"
	"testing"
)

// Without Linux's sandbox, the strength line says so plainly, and nothing
// counts as confined.
func TestDescribeSaysThereIsNoSandbox(t *testing.T) {
	s := Probe()
	got := s.Describe(Limits{MemoryBytes: 512 << 20}, false)
	if want := "sandbox not available on " + runtime.GOOS + ": programs run unconfined"; !strings.HasPrefix(got, want) {
		t.Errorf("got  %s\nwant it to start %s", got, want)
	}
	if s.Confines() || s.Has("memory") || s.CgroupBase != "" || s.Supervise {
		t.Errorf("%+v claims a sandbox", s)
	}
	if err := Exec([]string{"--", "true"}); err == nil {
		t.Error("Exec confined a program without a sandbox")
	}
}
