package sandbox

import (
	"strings"
	"testing"
)

func TestDescribeSaysWhatHolds(t *testing.T) {
	s := Support{LandlockABI: 7, Seccomp: true, Supervise: true, CgroupBase: "/sys/fs/cgroup", Controllers: []string{"memory", "pids"}}
	got := s.Describe(Limits{MemoryBytes: 512 << 20, Processes: 64, FileBytes: 8 << 20}, false)
	want := "files, ports, signals (Landlock ABI 7); native ABI only, every other ABI refused; Multipath TCP, UNIX, raw and " +
		"unasked datagram sockets, namespaces, keyrings and io_uring refused (seccomp); listen on an unbound socket " +
		"confined (seccomp user notification); " +
		"cgroup v2: every descendant ended with it, memory 512 MiB, 64 processes; rlimits: memory 512 MiB, files 8 MiB"
	if got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	if !s.Confines() {
		t.Errorf("%+v does not confine", s)
	}
	s.Supervise, s.SuperviseWhy = false, "this kernel has no pidfd_getfd (Linux 5.6)"
	if got := s.Describe(Limits{}, false); !strings.Contains(got, "; listen on an unbound socket NOT confined (this kernel has no pidfd_getfd (Linux 5.6)); ") {
		t.Errorf("without supervision: %s", got)
	}
	if s.Confines() {
		t.Errorf("%+v confines, with listen() on an unbound socket not confined", s)
	}
	none := Support{CgroupWhy: "no cgroup v2 hierarchy is mounted"}.Describe(Limits{Processes: 64}, false)
	if want := "files, ports and signals NOT confined (this kernel has no Landlock); other ABIs, Multipath TCP, UNIX, raw and " +
		"datagram sockets, namespaces, keyrings and io_uring NOT refused, listen on an unbound socket NOT confined (no seccomp " +
		"filter here); no cgroup (no cgroup v2 hierarchy is mounted): descendants swept as their subreaper; processes: " +
		"RLIMIT_NPROC 64, counted over all of leaguetui's user's processes"; none != want {
		t.Errorf("got  %s\nwant %s", none, want)
	}
}
