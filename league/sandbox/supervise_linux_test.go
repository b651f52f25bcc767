package sandbox

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// listenHelper makes this test binary a sandboxed program that tries
// listen(): `TEST _exec-sandboxed -- TEST listen-helper PORT [late]`. It is
// read in init, before the package's TestMain.
const listenHelper = "listen-helper"

func init() {
	if len(os.Args) > 1 && os.Args[1] == ExecCommand {
		fmt.Fprintln(os.Stderr, Exec(os.Args[2:]))
		os.Exit(2)
	}
	if len(os.Args) > 2 && os.Args[1] == listenHelper {
		port, _ := strconv.Atoi(os.Args[2])
		tryListen(port, len(os.Args) > 3 && os.Args[3] == "late")
		os.Exit(0)
	}
}

// tryListen says on stdout how listen() went on a socket never bound,
// then on one bound to port, which then takes one connection and greets
// it. late waits for a line on stdin first.
func tryListen(port int, late bool) {
	if late {
		fmt.Println("ready")
		_, _ = bufio.NewReader(os.Stdin).ReadString('\n')
	}
	unbound, _ := unix.Socket(unix.AF_INET, unix.SOCK_STREAM, 0)
	if err := unix.Listen(unbound, 4); err != nil {
		fmt.Println("unbound:", err)
	} else {
		sa, _ := unix.Getsockname(unbound)
		fmt.Println("unbound: listening on", sa.(*unix.SockaddrInet4).Port)
	}
	fd, _ := unix.Socket(unix.AF_INET6, unix.SOCK_STREAM, 0)
	_ = unix.SetsockoptInt(fd, unix.SOL_SOCKET, unix.SO_REUSEADDR, 1)
	if err := unix.Bind(fd, &unix.SockaddrInet6{Port: port}); err != nil {
		fmt.Println("bind:", err)
		return
	}
	if err := unix.Listen(fd, 4); err != nil {
		fmt.Println("bound:", err)
		return
	}
	fmt.Println("bound: listening")
	conn, _, err := unix.Accept(fd)
	if err == nil {
		_, _ = unix.Write(conn, []byte("hello\n"))
		unix.Close(conn)
	}
}

// sandboxedListener starts the helper confined, as launch does, with a
// supervisor for port; its stdout comes back line by line.
func sandboxedListener(t *testing.T, port int, late bool) (*Supervisor, *bufio.Reader, io.Writer, *exec.Cmd) {
	t.Helper()
	s := Probe()
	if !s.Seccomp || !s.Supervise {
		t.Skip("listen() cannot be supervised here: " + s.SuperviseWhy)
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	data, temp := filepath.Join(dir, "data"), filepath.Join(dir, "tmp")
	for _, d := range []string{data, temp} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	p := Request{Program: exe, Dir: dir, Data: data, Temp: temp, Bind: []uint16{uint16(port)}}.Policy()
	p.Supervisor = SupervisorFD
	entry, err := p.Encode()
	if err != nil {
		t.Fatal(err)
	}
	supervisor, err := NewSupervisor(p.Bind)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(supervisor.Close)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	t.Cleanup(cancel)
	args := []string{ExecCommand, "--", exe, listenHelper, strconv.Itoa(port)}
	if late {
		args = append(args, "late")
	}
	cmd := exec.CommandContext(ctx, exe, args...)
	cmd.Env, cmd.Dir, cmd.Stderr = []string{entry}, dir, os.Stderr
	cmd.ExtraFiles = []*os.File{supervisor.File()}
	stdin, _ := cmd.StdinPipe()
	stdout, _ := cmd.StdoutPipe()
	err = cmd.Start()
	supervisor.Started(err == nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	return supervisor, bufio.NewReader(stdout), stdin, cmd
}

func freePort(t *testing.T) int {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port
}

func line(t *testing.T, r *bufio.Reader) string {
	t.Helper()
	s, err := r.ReadString('\n')
	if err != nil {
		t.Fatalf("the sandboxed program said %q, then: %v", s, err)
	}
	return strings.TrimSpace(s)
}

// A sandboxed program's listen() on a socket it never bound (a port the
// kernel would choose, which Landlock never sees) is refused; on its own
// port it listens, and a client outside reaches it.
func TestListenOnlyOnItsOwnPort(t *testing.T) {
	port := freePort(t)
	_, out, _, cmd := sandboxedListener(t, port, false)
	if got := line(t, out); got != "unbound: operation not permitted" {
		if strings.HasPrefix(got, "unbound: listening on ") {
			other, _ := strconv.Atoi(strings.TrimPrefix(got, "unbound: listening on "))
			if conn, err := net.DialTimeout("tcp", net.JoinHostPort("127.0.0.1", strconv.Itoa(other)), 5*time.Second); err == nil {
				conn.Close()
				t.Errorf("a client outside connected to port %d the kernel chose", other)
			}
		}
		t.Fatalf("listen() on an unbound socket: %q, want EPERM", got)
	}
	if got := line(t, out); got != "bound: listening" {
		t.Fatalf("listen() on its own port %d: %q", port, got)
	}
	conn, err := net.DialTimeout("tcp", net.JoinHostPort("127.0.0.1", strconv.Itoa(port)), 5*time.Second)
	if err != nil {
		t.Fatalf("cannot reach the program on its port: %v", err)
	}
	defer conn.Close()
	_ = conn.SetDeadline(time.Now().Add(30 * time.Second))
	if greeting, err := bufio.NewReader(conn).ReadString('\n'); greeting != "hello\n" {
		t.Errorf("the program's greeting: %q, %v", greeting, err)
	}
	if err := cmd.Wait(); err != nil {
		t.Errorf("the program: %v", err)
	}
}

// Once leaguetui no longer supervises it, a program's listen() fails
// with ENOSYS, on its own port too.
func TestListenUnsupervisedFails(t *testing.T) {
	supervisor, out, in, _ := sandboxedListener(t, freePort(t), true)
	if got := line(t, out); got != "ready" {
		t.Fatalf("the program said %q, want ready", got)
	}
	supervisor.Close()
	fmt.Fprintln(in, "go")
	if got := line(t, out); got != "unbound: function not implemented" {
		t.Errorf("listen() on an unbound socket: %q, want ENOSYS", got)
	}
	if got := line(t, out); got != "bound: function not implemented" {
		t.Errorf("listen() on its own port: %q, want ENOSYS", got)
	}
}
