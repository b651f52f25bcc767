//go:build unix

package leaguetest

import (
	"fmt"
	"syscall"
	"testing"
)

// RefusingEndpoint returns an /mcp URL on 127.0.0.1 where every connection
// is refused for as long as the test runs: a port the kernel gave us, bound
// but never listened on. A fixed port such as :8000 or :9 cannot promise
// that, since anything on the machine may be listening there.
func RefusingEndpoint(t testing.TB) string {
	t.Helper()
	// Under ForkLock, as the net package does where no SOCK_CLOEXEC is
	// (macOS): no agent the test starts meanwhile inherits the socket.
	syscall.ForkLock.RLock()
	fd, err := syscall.Socket(syscall.AF_INET, syscall.SOCK_STREAM, 0)
	if err == nil {
		syscall.CloseOnExec(fd)
	}
	syscall.ForkLock.RUnlock()
	if err != nil {
		t.Fatalf("socket: %v", err)
	}
	t.Cleanup(func() { _ = syscall.Close(fd) })
	if err := syscall.Bind(fd, &syscall.SockaddrInet4{Addr: [4]byte{127, 0, 0, 1}}); err != nil {
		t.Fatalf("bind 127.0.0.1:0: %v", err)
	}
	sa, err := syscall.Getsockname(fd)
	if err != nil {
		t.Fatalf("getsockname: %v", err)
	}
	return fmt.Sprintf("http://127.0.0.1:%d/mcp", sa.(*syscall.SockaddrInet4).Port)
}
