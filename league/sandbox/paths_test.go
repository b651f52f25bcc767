package sandbox

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// A folder the program may read that holds the league's data folder is
// granted piecewise: every entry but the data folder, and its listing.
func TestPolicyKeepsHiddenPathsOut(t *testing.T) {
	root, home := t.TempDir(), t.TempDir()
	for _, dir := range []string{filepath.Join(root, "data/credentials"), filepath.Join(root, "src"),
		filepath.Join(home, ".pyenv/shims"), filepath.Join(home, ".ssh")} {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, file := range []string{filepath.Join(root, "src/player.py"), filepath.Join(root, "notes.txt"),
		filepath.Join(home, ".pyenv/shims/python3")} {
		if err := os.WriteFile(file, []byte("#!/bin/sh\n"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	data := filepath.Join(root, "data")
	p := Request{Program: filepath.Join(home, ".pyenv/shims/python3"), Args: []string{"src/player.py", "--port", "9"},
		Dir: root, Data: filepath.Join(data, "programs", "alice"), Temp: "/tmp/leaguetui-alice", Home: home,
		Hide: []string{data}, Bind: []uint16{9}, Connect: []uint16{8000}}.Policy()
	for _, want := range []string{filepath.Join(root, "src"), filepath.Join(root, "notes.txt"), filepath.Join(home, ".pyenv"), "/bin"} {
		if !slices.Contains(p.Read, want) {
			t.Errorf("read %v lacks %s", p.Read, want)
		}
	}
	for _, never := range []string{root, data, home, filepath.Join(home, ".ssh")} {
		if slices.Contains(p.Read, never) {
			t.Errorf("read %v holds %s", p.Read, never)
		}
	}
	if !slices.Contains(p.List, root) {
		t.Errorf("list %v lacks %s, the folder that holds the data folder", p.List, root)
	}
	if !slices.Contains(p.Write, filepath.Join(data, "programs", "alice")) || !slices.Contains(p.Write, "/tmp/leaguetui-alice") {
		t.Errorf("write %v lacks the program's own folders", p.Write)
	}
	if !slices.Equal(p.Bind, []uint16{9}) || !slices.Equal(p.Connect, []uint16{8000}) || p.AnyPort || p.UDP {
		t.Errorf("ports: bind %v connect %v any %v udp %v", p.Bind, p.Connect, p.AnyPort, p.UDP)
	}
}

// Neither /, nor the home folder, nor the shared temporary folder is ever
// granted whole, whatever the arguments name.
func TestPolicyNeverGrantsWideFolders(t *testing.T) {
	home := t.TempDir()
	p := Request{Program: "/bin/sh", Args: []string{"/", home, os.TempDir()}, Dir: "/", Home: home,
		Data: filepath.Join(home, "d"), Temp: filepath.Join(os.TempDir(), "x")}.Policy()
	for _, wide := range []string{"/", home, os.TempDir()} {
		if slices.Contains(p.Read, wide) {
			t.Errorf("read %v holds %s", p.Read, wide)
		}
	}
}

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
