//go:build linux

// Command sandboxprobe tries, from inside the sandbox leaguetui starts a
// program in, each way out that a hostile program would: the secrets of
// leaguetui's environment, the league's data folder, other programs'
// folders, ports that are no agent's, the sockets Landlock does not see,
// signals and ptrace on leaguetui's processes, a child that outlives it,
// files past the size limit. It writes what it got to --report as JSON
// and then becomes the program after "--" (a real player), so that the
// league it sits in plays on as without it.
//
//	PROBE_SECRETS=FILE:FILE... PROBE_WRITES=DIR:DIR... sandboxprobe --report FILE [--data-root DIR]
//	    [--await DIR] [--foreign-port N] [--unix-socket PATH] [--port N] [--manager URL]
//	    [--big-file BYTES] [--fill] -- PROGRAM ARGS...
//
// The calls the seccomp filter refuses are tried natively, with high bits
// in int arguments, and through the 32-bit and x32 ABIs (calls.go,
// abi_*.go); listen() on a socket never bound must fail, and on its own
// --port work.
//
// --fill starts a child that writes into HOME without end once the player
// has registered: the disk cap's test.
package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"net"
	"net/url"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// Report is what the probe got: for each try, "denied: why" or
// "ALLOWED: what"; Allowed are the tries that must work (its own folder,
// the manager); Linger is the process id of the child meant to outlive it.
type Report struct {
	Escapes map[string]string `json:"escapes"`
	Allowed map[string]string `json:"allowed"`
	Linger  int               `json:"linger"`
}

func main() {
	if len(os.Args) > 1 && os.Args[1] == "linger" {
		for {
			time.Sleep(time.Hour) // the child that must not outlive the program
		}
	}
	if len(os.Args) > 1 && os.Args[1] == "noop" {
		os.Exit(0) // the child of a clone or unshare try
	}
	if len(os.Args) > 1 && os.Args[1] == "fill" {
		awaitRegistered()
		fillHome()
	}
	report := flag.String("report", "", "where to write the report")
	dataRoot := flag.String("data-root", "", "the league's data folder, none of which it may read")
	foreignPort := flag.Int("foreign-port", 0, "a port that is no agent's")
	unixSocket := flag.String("unix-socket", "", "a pathname UNIX socket outside the sandbox")
	port := flag.Int("port", 0, "its own port, on which it may listen")
	manager := flag.String("manager", "", "the manager's URL, which it may reach")
	bigFile := flag.Int64("big-file", 0, "bytes to write into one file of its HOME")
	fill := flag.Bool("fill", false, "write into HOME without end")
	await := flag.String("await", "", "a folder to wait for a file in (20 s at most) before trying to read")
	flag.Parse()
	// The paths it must not reach come in the environment: a path on a
	// program's command line is one its entry names, which it may read.
	secrets := filepath.SplitList(os.Getenv("PROBE_SECRETS"))
	writes := filepath.SplitList(os.Getenv("PROBE_WRITES"))
	signal.Ignore(syscall.SIGXFSZ) // a write past the file size limit fails instead
	if *fill {
		// A child fills the disk once the player it becomes has
		// registered, so the league counts it in.
		if self, err := os.Executable(); err == nil {
			_ = exec.Command(self, "fill").Start()
		}
	}
	if *report == "" {
		becomeProgram() // only filling: nothing to try or report
	}
	r := Report{Escapes: map[string]string{}, Allowed: map[string]string{}}
	r.Escapes["env"] = envSecrets()
	awaitFile(*await)
	r.readAll(*dataRoot, secrets)
	for _, dir := range writes {
		r.Escapes["write:"+dir] = outcome(os.WriteFile(filepath.Join(dir, "escaped"), []byte("x"), 0o644), "wrote")
	}
	r.Allowed["write:home"] = outcome(os.WriteFile(filepath.Join(os.Getenv("HOME"), "mine"), []byte("x"), 0o644), "wrote")
	if *foreignPort > 0 {
		r.Escapes["connect:foreign"] = dial(*foreignPort)
	}
	if u, err := url.Parse(*manager); err == nil && u.Port() != "" {
		port, _ := strconv.Atoi(u.Port())
		r.Allowed["connect:manager"] = dial(port)
	}
	r.sockets()
	r.filteredCalls(*foreignPort, *unixSocket, *port)
	r.processes()
	if *bigFile > 0 {
		r.Escapes["file-size"] = writeBig(*bigFile)
	}
	r.Linger = linger()
	if f, err := os.OpenFile(filepath.Join(os.Getenv("HOME"), "lingers"), os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644); err == nil {
		fmt.Fprintln(f, r.Linger) // one line a start: the checker starts an agent twice
		f.Close()
	}
	if err := writeReport(*report, r); err != nil {
		fmt.Fprintln(os.Stderr, "sandboxprobe:", err)
		os.Exit(1)
	}
	becomeProgram()
}

// becomeProgram executes the program after "--", if any, in its place.
func becomeProgram() {
	if rest := flag.Args(); len(rest) > 0 {
		err := syscall.Exec(rest[0], rest, os.Environ())
		fmt.Fprintln(os.Stderr, "sandboxprobe: exec:", err)
		os.Exit(1)
	}
	os.Exit(0)
}

// awaitFile waits until dir holds a file (another agent's credentials,
// say), 20 s at most: names are listed, never read.
func awaitFile(dir string) {
	if dir == "" {
		return
	}
	deadline := time.Now().Add(20 * time.Second)
	for time.Now().Before(deadline) {
		entries, _ := os.ReadDir(dir)
		for _, e := range entries {
			if e.Type().IsRegular() || e.IsDir() {
				return
			}
		}
		time.Sleep(50 * time.Millisecond) // polling a folder another process fills
	}
}

// outcome is a try's result: denied with its error, or allowed.
func outcome(err error, what string) string {
	if err != nil {
		return "denied: " + err.Error()
	}
	return "ALLOWED: " + what
}

func envSecrets() string {
	var seen []string
	for _, kv := range os.Environ() {
		if strings.HasPrefix(kv, "LEAGUETUI_") {
			name, _, _ := strings.Cut(kv, "=")
			seen = append(seen, name)
		}
	}
	if len(seen) > 0 {
		return "ALLOWED: " + strings.Join(seen, ",")
	}
	return "denied: no LEAGUETUI_ variable in the environment"
}

// readAll tries every file of the data folder it can find, and each named
// secret; its own HOME (inside the data folder) excepted.
func (r *Report) readAll(root string, secrets []string) {
	home := os.Getenv("HOME")
	files := slices.Clone(secrets)
	if root != "" {
		_ = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				r.Escapes["walk:"+path] = "denied: " + err.Error()
				return nil
			}
			if d.IsDir() && path == home {
				return filepath.SkipDir
			}
			if d.Type().IsRegular() {
				files = append(files, path)
			}
			return nil
		})
	}
	for _, f := range files {
		_, err := os.ReadFile(f)
		r.Escapes["read:"+f] = outcome(err, "read")
	}
}

func dial(port int) string {
	conn, err := net.DialTimeout("tcp", net.JoinHostPort("127.0.0.1", strconv.Itoa(port)), 2*time.Second)
	if err == nil {
		conn.Close()
	}
	return outcome(err, "connected")
}

// sockets tries the sockets Landlock's port rules do not see.
func (r *Report) sockets() {
	for _, s := range []struct {
		name                   string
		family, kind, protocol int
	}{{"socket:mptcp", syscall.AF_INET, syscall.SOCK_STREAM, 262},
		{"socket:udp", syscall.AF_INET, syscall.SOCK_DGRAM, 0},
		{"socket:udp6", syscall.AF_INET6, syscall.SOCK_DGRAM, 0},
		{"socket:raw", syscall.AF_INET, syscall.SOCK_RAW, syscall.IPPROTO_ICMP},
		{"socket:unix", syscall.AF_UNIX, syscall.SOCK_STREAM, 0},
		{"socket:packet", syscall.AF_PACKET, syscall.SOCK_RAW, 0}} {
		fd, err := syscall.Socket(s.family, s.kind, s.protocol)
		if err == nil {
			syscall.Close(fd)
		}
		r.Escapes[s.name] = outcome(err, "opened")
	}
}

// processes tries signals and ptrace on leaguetui (its parent) and on the
// league's manager.
func (r *Report) processes() {
	targets := map[string]int{"parent": os.Getppid()}
	if pid := findManager(); pid > 0 {
		targets["manager"] = pid
	}
	for name, pid := range targets {
		r.Escapes["signal:"+name] = outcome(syscall.Kill(pid, 0), "may signal "+strconv.Itoa(pid))
		err := syscall.PtraceAttach(pid)
		if err == nil {
			_ = syscall.PtraceDetach(pid)
		}
		r.Escapes["ptrace:"+name] = outcome(err, "attached to "+strconv.Itoa(pid))
		_, err = os.ReadFile(fmt.Sprintf("/proc/%d/environ", pid))
		r.Escapes["environ:"+name] = outcome(err, "read its environment")
	}
}

// findManager is the process id of a `leaguetui manager`, from /proc.
func findManager() int {
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		cmdline, err := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
		if err == nil && strings.Contains(string(cmdline), "\x00manager\x00") && strings.Contains(string(cmdline), "--hold") {
			return pid
		}
	}
	return 0
}

// writeBig writes n bytes into one file of HOME: past the file size limit
// the write fails.
func writeBig(n int64) string {
	f, err := os.Create(filepath.Join(os.Getenv("HOME"), "big"))
	if err != nil {
		return "denied: " + err.Error()
	}
	defer f.Close()
	chunk := make([]byte, 1<<20)
	var written int64
	for written < n {
		k, err := f.Write(chunk)
		written += int64(k)
		if err != nil {
			return fmt.Sprintf("denied: %v after %d bytes", err, written)
		}
	}
	return fmt.Sprintf("ALLOWED: wrote %d bytes", written)
}

// linger starts a child in a session of its own, out of the program's
// process group: it must end with the program all the same.
func linger() int {
	self, err := os.Executable()
	if err != nil {
		return 0
	}
	cmd := exec.Command(self, "linger")
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	if err := cmd.Start(); err != nil {
		return 0
	}
	return cmd.Process.Pid
}

// awaitRegistered waits, a minute at most, until the player saved the id
// the manager gave it beneath HOME/credentials.
func awaitRegistered() {
	deadline := time.Now().Add(time.Minute)
	for time.Now().Before(deadline) {
		registered := false
		_ = filepath.WalkDir(filepath.Join(os.Getenv("HOME"), "credentials"), func(path string, d fs.DirEntry, err error) error {
			if err == nil && d.Type().IsRegular() {
				data, _ := os.ReadFile(path)
				registered = registered || strings.Contains(string(data), `"P0`)
			}
			return nil
		})
		if registered {
			return
		}
		time.Sleep(20 * time.Millisecond) // polling a file another process writes
	}
}

// fillHome writes 1 MiB files into HOME until something stops it.
func fillHome() {
	chunk := make([]byte, 1<<20)
	for i := 0; ; i++ {
		err := os.WriteFile(filepath.Join(os.Getenv("HOME"), fmt.Sprintf("fill-%d", i)), chunk, 0o644)
		if err != nil && !errors.Is(err, syscall.EFBIG) {
			fmt.Fprintln(os.Stderr, "sandboxprobe: fill:", err)
		}
	}
}

func writeReport(path string, r Report) error {
	data, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(path, data, 0o644)
}
