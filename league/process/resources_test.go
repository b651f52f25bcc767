//go:build linux

package process

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/leaguetui/leaguetui/league/sandbox"
)

// helperEnv makes this test binary one of the programs the tests start
// (see TestMain); called with sandbox.ExecCommand it is leaguetui's shim.
const helperEnv = "LAUNCH_TEST_HELPER"

func TestMain(m *testing.M) {
	if len(os.Args) > 1 && os.Args[1] == sandbox.ExecCommand {
		err := sandbox.Exec(os.Args[2:]) // returns only on failure
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	switch os.Getenv(helperEnv) {
	case "orphans":
		orphansThenThreads(100, 10)
	case "":
		os.Exit(m.Run())
	}
	fmt.Fprintln(os.Stderr, "unknown helper", os.Getenv(helperEnv))
	os.Exit(2)
}

// self is this test binary, leaguetui's shim in these tests.
func self(t *testing.T) string {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return exe
}

// confinedSpec is a sandboxed program of the tests, its data folder made.
func confinedSpec(t *testing.T, command ...string) ProgramSpec {
	t.Helper()
	root := t.TempDir()
	data := filepath.Join(root, "data")
	if err := os.Mkdir(data, 0o755); err != nil {
		t.Fatal(err)
	}
	return ProgramSpec{Name: "program t", Command: command, LogPath: filepath.Join(root, "t.log"),
		Placeholders: Placeholders{PlaceholderData: data, PlaceholderName: "t"}, Shim: self(t)}
}

// exitOf waits, bounded, for the program to exit and returns how.
func exitOf(t *testing.T, p *Program, within time.Duration) error {
	t.Helper()
	select {
	case <-p.Exited():
		return p.ExitError()
	case <-time.After(within):
		p.Stop(time.Second)
		t.Fatalf("the program did not exit within %s", within)
		return nil
	}
}

// A file the program deletes while it keeps it open, in a folder it
// removes (no inotify event reaches leaguetui then), still counts against
// its disk cap: it is stopped within the periodic measure.
func TestDiskCapCountsDeletedOpenFiles(t *testing.T) {
	spec := confinedSpec(t, "/bin/sh", "-c", `mkdir "$HOME/d" && exec 3>"$HOME/d/f" && rm "$HOME/d/f" && rmdir "$HOME/d" &&
		head -c 25165824 /dev/zero >&3 && echo written && exec sleep 600`)
	spec.Sandbox.DiskBytes = 8 << 20
	spec.Limits.FileBytes = 64 << 20
	p, err := StartProgram(spec)
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	err = exitOf(t, p, 30*time.Second)
	t.Logf("stopped after %s: %v", time.Since(start).Round(time.Millisecond), err)
	if err == nil || !strings.Contains(err.Error(), "stopped by leaguetui: its data and temporary folders passed 8 MiB") {
		log, _ := os.ReadFile(spec.LogPath)
		t.Errorf("exit %v, want it stopped for its disk use\n%s", err, log)
	}
}

// The folders count what their files hold on disk: a sparse file its
// blocks, a file of two names once; a deleted file held open counts too.
func TestDiskUseCountsBlocks(t *testing.T) {
	dir := t.TempDir()
	sparse := filepath.Join(dir, "sparse")
	if err := os.WriteFile(sparse, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(sparse, 1<<30); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "full"), make([]byte, 1<<20), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Link(filepath.Join(dir, "full"), filepath.Join(dir, "again")); err != nil {
		t.Fatal(err)
	}
	used := diskUse([]string{dir}, 1<<40)
	if used < 1<<20 || used > 2<<20 {
		t.Errorf("diskUse = %d, want about 1 MiB (a sparse 1 GiB file, a 1 MiB file of two names)", used)
	}
	f, err := os.Create(filepath.Join(dir, "gone"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := os.Remove(f.Name()); err != nil {
		t.Fatal(err)
	}
	if _, err := f.Write(make([]byte, 4<<20)); err != nil {
		t.Fatal(err)
	}
	if err := f.Sync(); err != nil {
		t.Fatal(err)
	}
	dup, err := syscall.Dup(int(f.Fd()))
	if err != nil {
		t.Fatal(err)
	}
	defer syscall.Close(dup)
	held := sandbox.HeldDeleted([]int{os.Getpid()}, []string{dir})
	if held.Bytes < 4<<20 || held.Bytes > 5<<20 || held.Hidden != 0 {
		t.Errorf("held %+v, want the 4 MiB deleted file once", held)
	}
	if other := sandbox.HeldDeleted([]int{os.Getpid()}, []string{t.TempDir()}); other.Bytes != 0 {
		t.Errorf("held %+v beneath another folder, want none", other)
	}
}

// Orphans a program makes that exit are reaped as they exit: a program
// that made 100 of them still forks and starts threads under a process
// limit far below 100, where zombies would have used it up.
func TestOrphansAreReapedAsTheyExit(t *testing.T) {
	if !sandbox.Probe().Has("pids") {
		t.Skip("no pids cgroup controller here to hold a process limit: " + sandbox.Probe().CgroupWhy)
	}
	spec := confinedSpec(t, self(t))
	spec.Env = map[string]string{helperEnv: "orphans"}
	spec.Limits.Processes = 48
	p, err := StartProgram(spec)
	if err != nil {
		t.Fatal(err)
	}
	err = exitOf(t, p, 2*time.Minute)
	log, _ := os.ReadFile(spec.LogPath)
	if err != nil || !strings.Contains(string(log), "forked and started 10 threads") {
		t.Errorf("exit %v, want 0 after forking and starting threads\n%s", err, log)
	}
}

// orphansThenThreads is the program of TestOrphansAreReapedAsTheyExit:
// n times a shell that leaves a background child behind it (an orphan,
// which exits), then a fork and threads threads. A fork refused for the
// process limit is tried again, for 20 s at most: zombies that nobody
// reaps hold the limit for ever.
func orphansThenThreads(n, threads int) {
	deadline := time.Now().Add(20 * time.Second)
	retries := 0
	run := func(script string) {
		for {
			err := exec.Command("/bin/sh", "-c", script).Run()
			if err == nil {
				return
			}
			if time.Now().After(deadline) {
				fmt.Printf("cannot fork after %d retries: %v\n", retries, err)
				os.Exit(3)
			}
			retries++
			time.Sleep(time.Millisecond) // a pause between tries, not a wait for anything
		}
	}
	for range n {
		run(": &")
	}
	run(":")
	before := threadCount()
	var fds [2]int
	if err := syscall.Pipe(fds[:]); err != nil {
		fmt.Println(err)
		os.Exit(3)
	}
	for range threads {
		go func() {
			runtime.LockOSThread()
			var b [1]byte
			_, _ = syscall.Read(fds[0], b[:]) // holds its thread until the program exits
		}()
	}
	for i := 0; threadCount() < before+threads; i++ {
		if i > 10_000 {
			fmt.Printf("%d threads, want %d\n", threadCount(), before+threads)
			os.Exit(3)
		}
		runtime.Gosched()
	}
	fmt.Printf("forked and started %d threads after %d orphans (%d threads in all, %d forks tried again)\n",
		threads, n, threadCount(), retries)
	os.Exit(0)
}

func threadCount() int {
	status, _ := os.ReadFile("/proc/self/status")
	for _, line := range strings.Split(string(status), "\n") {
		if rest, ok := strings.CutPrefix(line, "Threads:"); ok {
			n, _ := strconv.Atoi(strings.TrimSpace(rest))
			return n
		}
	}
	return 0
}

// A program whose entry names no folder runs in its data folder, never
// in leaguetui's, and may not read what Hide names there (the roster, a
// .env) even though it may read the rest of the folder its script is in;
// its script, named relative to leaguetui's folder, still runs.
func TestNoDirRunsInItsOwnFolder(t *testing.T) {
	if sandbox.Probe().LandlockABI < 1 {
		t.Skip("no Landlock here to confine files")
	}
	root := t.TempDir()
	files := map[string]string{"roster.json": `{"players": [{"name": "x", "env": {"KEY": "sk-secret"}}]}`,
		".env": "OPENAI_API_KEY=sk-secret\n", "notes.txt": "not secret\n",
		"script.sh": `pwd > "$HOME/pwd"
for f in roster.json .env notes.txt; do
	if cat "$LEAGUE_DIR/$f" > /dev/null 2>&1; then echo "$f ALLOWED"; else echo "$f denied"; fi
done > "$HOME/reads"
`}
	for name, content := range files {
		if err := os.WriteFile(filepath.Join(root, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	t.Chdir(root)
	spec := confinedSpec(t, "/bin/sh", "script.sh")
	spec.Env = map[string]string{"LEAGUE_DIR": root}
	spec.Sandbox.Hide = []string{filepath.Join(root, "roster.json"), filepath.Join(root, ".env")}
	p, err := StartProgram(spec)
	if err != nil {
		t.Fatal(err)
	}
	if err := exitOf(t, p, 30*time.Second); err != nil {
		log, _ := os.ReadFile(spec.LogPath)
		t.Fatalf("exit %v\n%s", err, log)
	}
	data := spec.Placeholders[PlaceholderData]
	pwd, _ := os.ReadFile(filepath.Join(data, "pwd"))
	if got := strings.TrimSpace(string(pwd)); got != data {
		t.Errorf("it ran in %q, want its data folder %s", got, data)
	}
	reads, _ := os.ReadFile(filepath.Join(data, "reads"))
	if want := "roster.json denied\n.env denied\nnotes.txt ALLOWED\n"; string(reads) != want {
		t.Errorf("reads:\n%s\nwant:\n%s", reads, want)
	}
}

// The default disk cap is the most asked for on a roomy disk, and half the
// free space shared among the programs on a small one, in whole MiB and
// never below 1 MiB.
func TestDiskCapSharesHalfTheFreeSpace(t *testing.T) {
	dir := t.TempDir()
	var st syscall.Statfs_t
	if err := syscall.Statfs(dir, &st); err != nil {
		t.Fatal(err)
	}
	free := st.Bavail * uint64(st.Bsize)
	if got, shared := DiskCap(1<<20, dir, 1); got != 1<<20 || shared {
		t.Errorf("DiskCap(1 MiB) = %d, %v, want 1 MiB where %d bytes are free", got, shared, free)
	}
	got, shared := DiskCap(free, dir, 3)
	// The free space moves while others write: 64 MiB either way.
	if want := free / 2 / 3 >> 20 << 20; !shared || got > want+(64<<20) || got+(64<<20) < want || got%(1<<20) != 0 {
		t.Errorf("DiskCap(the free space, 3 programs) = %d, %v, want about %d", got, shared, want)
	}
	if got, _ := DiskCap(free, dir, 1<<40); got != 1<<20 {
		t.Errorf("DiskCap among very many = %d, want 1 MiB", got)
	}
}

// Where a program has no cgroup, its processes are its process tree: a
// child holding a deleted file is found through it.
func TestHeldDeletedThroughTheProcessTree(t *testing.T) {
	dir := t.TempDir()
	child := exec.Command("/bin/sh", "-c", `exec 3>"$0/f" && rm "$0/f" && head -c 1048576 /dev/zero >&3 && echo written && exec sleep 600`, dir)
	out, err := child.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := child.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = child.Process.Kill(); _ = child.Wait() }()
	line := make([]byte, 8)
	if n, err := out.Read(line); err != nil || string(line[:n]) != "written\n" {
		t.Fatalf("the child said %q: %v", line[:n], err)
	}
	j := &jail{} // no cgroup
	pids := j.processes(os.Getpid())
	if !slices.Contains(pids, child.Process.Pid) {
		t.Fatalf("processes %v lack the child %d", pids, child.Process.Pid)
	}
	if held := sandbox.HeldDeleted(pids, []string{dir}); held.Bytes < 1<<20 {
		t.Errorf("held %+v, want the child's 1 MiB deleted file", held)
	}
}
