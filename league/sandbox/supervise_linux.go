package sandbox

import (
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"unsafe"

	"golang.org/x/sys/unix"
)

// listen() on a socket never bound binds a port the kernel chooses, on
// every address: Landlock's bind rule never sees that bind. The filter
// therefore hands every listen() to leaguetui (SECCOMP_RET_USER_NOTIF),
// which takes a copy of the socket (pidfd_getfd), checks that it is bound
// to one of the program's ports, and calls listen() on the copy itself,
// answering with its result: the program's own call never runs, so no
// check can be raced (SECCOMP_USER_NOTIF_FLAG_CONTINUE would let it run
// after the check). A listen() leaguetui cannot answer (it is gone) fails
// with ENOSYS.

// SupervisorFD is the descriptor the supervisor's socket has in
// ExecCommand: the first of the command's ExtraFiles.
const SupervisorFD = 3

// Supervisor answers the listen() calls of one sandboxed program and of
// everything it starts.
type Supervisor struct {
	bind  []uint16
	child *os.File // ExecCommand's end of the socket, until Started

	mu       sync.Mutex
	closed   bool
	conn     *net.UnixConn // leaguetui's end, until the listener came
	listener *os.File
}

// NewSupervisor prepares the supervision of a program that may listen on
// the ports bind only.
func NewSupervisor(bind []uint16) (*Supervisor, error) {
	fds, err := unix.Socketpair(unix.AF_UNIX, unix.SOCK_STREAM|unix.SOCK_CLOEXEC, 0)
	if err != nil {
		return nil, fmt.Errorf("supervisor: %w", err)
	}
	parent := os.NewFile(uintptr(fds[0]), "supervisor")
	defer parent.Close() // FileConn holds a copy
	conn, err := net.FileConn(parent)
	if err != nil {
		unix.Close(fds[1])
		return nil, fmt.Errorf("supervisor: %w", err)
	}
	return &Supervisor{bind: bind, child: os.NewFile(uintptr(fds[1]), "supervisor"), conn: conn.(*net.UnixConn)}, nil
}

// File is what the program's command passes as its first ExtraFiles.
func (s *Supervisor) File() *os.File { return s.child }

// Started is called once the program's command started (ok) or failed
// to: leaguetui's copy of the program's end is closed, and the program's
// listen() calls are answered from now on.
func (s *Supervisor) Started(ok bool) {
	s.child.Close()
	if !ok {
		s.Close()
		return
	}
	go s.serve()
}

// Close ends the supervision, which ends by itself once every process
// under the filter has ended: a listen() of what the program left behind
// fails with ENOSYS from now on.
func (s *Supervisor) Close() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.closed = true
	if s.conn != nil {
		s.conn.Close()
	}
	if s.listener != nil {
		s.listener.Close()
	}
}

func (s *Supervisor) serve() {
	defer s.Close()
	listener, err := s.receive()
	if err != nil {
		return // ExecCommand failed or was closed before it confined the program
	}
	rc, err := listener.SyscallConn()
	if err != nil {
		return
	}
	for {
		var n notification
		if err := recvNotification(rc, &n); err != nil {
			return // every process under the filter ended, or Close
		}
		if errno, answer := s.listen(rc, &n); answer {
			respond(rc, n.ID, errno)
		}
	}
}

// receive takes the filter's listener from ExecCommand, readied for Go's
// poller so that Close ends a wait for it.
func (s *Supervisor) receive() (*os.File, error) {
	buf, oob := make([]byte, 1), make([]byte, unix.CmsgSpace(4*4))
	_, oobn, _, _, err := s.conn.ReadMsgUnix(buf, oob) // MSG_CMSG_CLOEXEC: no other program inherits it
	if err != nil {
		return nil, err
	}
	msgs, err := unix.ParseSocketControlMessage(oob[:oobn])
	if err != nil || len(msgs) != 1 {
		return nil, errors.New("supervisor: no listener")
	}
	fds, err := unix.ParseUnixRights(&msgs[0])
	if err != nil || len(fds) == 0 {
		return nil, errors.New("supervisor: no listener")
	}
	for _, extra := range fds[1:] {
		unix.Close(extra)
	}
	if err := unix.SetNonblock(fds[0], true); err != nil {
		unix.Close(fds[0])
		return nil, err
	}
	listener := os.NewFile(uintptr(fds[0]), "seccomp listener")
	s.mu.Lock()
	defer s.mu.Unlock()
	s.conn.Close()
	s.conn = nil
	if s.closed {
		listener.Close()
		return nil, os.ErrClosed
	}
	s.listener = listener
	return listener, nil
}

// seccompData and notification are struct seccomp_data and struct
// seccomp_notif; response is struct seccomp_notif_resp.
type seccompData struct {
	Nr   int32
	Arch uint32
	IP   uint64
	Args [6]uint64
}

type notification struct {
	ID    uint64
	Pid   uint32
	Flags uint32
	Data  seccompData
}

type response struct {
	ID    uint64
	Val   int64
	Error int32
	Flags uint32
}

// recvNotification waits for the next notification. SECCOMP_IOCTL_NOTIF_RECV
// blocks, whatever O_NONBLOCK says, and is not woken when the last process
// under the filter ends: it is called only once poll(2) says one is
// waiting, and poll's POLLHUP ends the wait.
func recvNotification(rc syscall.RawConn, n *notification) error {
	var err error
	readErr := rc.Read(func(fd uintptr) bool {
		for {
			pfd := []unix.PollFd{{Fd: int32(fd), Events: unix.POLLIN}}
			if _, err = unix.Poll(pfd, 0); err == unix.EINTR {
				continue
			}
			switch {
			case err != nil:
				return true
			case pfd[0].Revents&unix.POLLIN != 0:
				*n = notification{} // the kernel wants it zeroed
				err = ioctl(fd, unix.SECCOMP_IOCTL_NOTIF_RECV, unsafe.Pointer(n))
				if err == unix.ENOENT || err == unix.EINTR {
					continue // its caller was killed meanwhile: the next one
				}
				return true
			case pfd[0].Revents&(unix.POLLHUP|unix.POLLERR|unix.POLLNVAL) != 0:
				err = io.EOF
				return true
			}
			return false // none waiting: Go's poller wakes this again
		}
	})
	if readErr != nil {
		return readErr
	}
	return err
}

// listen answers one notification: the errno its listen() returns, and
// whether to answer at all (not when its caller is gone).
func (s *Supervisor) listen(rc syscall.RawConn, n *notification) (unix.Errno, bool) {
	if n.Data.Nr != unix.SYS_LISTEN || n.Data.Arch != nativeArch {
		return unix.EPERM, true
	}
	// The notification names the calling thread; its descriptors are its
	// process's.
	tgid, err := threadGroup(n.Pid)
	if err != nil {
		return 0, false
	}
	pidfd, err := unix.PidfdOpen(tgid, 0)
	if err != nil {
		return 0, false
	}
	defer unix.Close(pidfd)
	// Still waiting, the caller is alive: tgid and pidfd are its own, not
	// those of a process that took its number since.
	if !idValid(rc, n.ID) {
		return 0, false
	}
	// listen(int fd, int backlog): the low 32 bits, as the kernel reads them.
	sock, err := unix.PidfdGetfd(pidfd, int(int32(n.Data.Args[0])), 0)
	if err != nil {
		return errnoOf(err), true
	}
	defer unix.Close(sock)
	if errno := s.mayListen(sock); errno != 0 {
		return errno, true
	}
	if err := unix.Listen(sock, int(int32(n.Data.Args[1]))); err != nil {
		return errnoOf(err), true
	}
	// A socket bound by connect() loses its port when that connection
	// fails: should that have happened since the check, listen() took a
	// port the kernel chose, which is closed at once.
	if errno := s.mayListen(sock); errno != 0 {
		_ = unix.Shutdown(sock, unix.SHUT_RDWR)
		return errno, true
	}
	return 0, true
}

// mayListen is 0 for a socket bound to one of the program's ports, EPERM
// for an unbound or foreign one, ENOTSOCK for what is no socket.
func (s *Supervisor) mayListen(sock int) unix.Errno {
	sa, err := unix.Getsockname(sock)
	if err != nil {
		return errnoOf(err)
	}
	var port int
	switch a := sa.(type) {
	case *unix.SockaddrInet4:
		port = a.Port
	case *unix.SockaddrInet6:
		port = a.Port
	default:
		return unix.EPERM
	}
	for _, p := range s.bind {
		if port != 0 && int(p) == port {
			return 0
		}
	}
	return unix.EPERM
}

// threadGroup is the process a thread belongs to, from /proc.
func threadGroup(tid uint32) (int, error) {
	status, err := os.ReadFile("/proc/" + strconv.FormatUint(uint64(tid), 10) + "/status")
	if err != nil {
		return 0, err
	}
	return strconv.Atoi(field(status, "Tgid"))
}

func idValid(rc syscall.RawConn, id uint64) bool {
	var err error
	if cerr := rc.Control(func(fd uintptr) {
		err = ioctl(fd, unix.SECCOMP_IOCTL_NOTIF_ID_VALID, unsafe.Pointer(&id))
	}); cerr != nil {
		return false
	}
	return err == nil
}

// respond answers notification id with errno (0: success). ENOENT, its
// caller killed or interrupted meanwhile, needs nothing: listen() may be
// called again, and answered the same.
func respond(rc syscall.RawConn, id uint64, errno unix.Errno) {
	r := response{ID: id, Error: -int32(errno)}
	_ = rc.Control(func(fd uintptr) {
		_ = ioctl(fd, unix.SECCOMP_IOCTL_NOTIF_SEND, unsafe.Pointer(&r))
	})
}

func ioctl(fd uintptr, req uint, arg unsafe.Pointer) error {
	if _, _, errno := unix.Syscall(unix.SYS_IOCTL, fd, uintptr(req), uintptr(arg)); errno != 0 {
		return errno
	}
	return nil
}

func errnoOf(err error) unix.Errno {
	var errno unix.Errno
	if errors.As(err, &errno) {
		return errno
	}
	return unix.EPERM
}

// superviseSupport says whether leaguetui can answer a program's listen()
// here, and if not why.
func superviseSupport() (bool, string) {
	switch {
	case !actionAvailable(unix.SECCOMP_RET_USER_NOTIF):
		return false, "this kernel has no seccomp user notification (Linux 5.0)"
	case noPidfdGetfd():
		return false, "this kernel has no pidfd_getfd (Linux 5.6)"
	case yamaForbids():
		return false, "Yama's ptrace_scope forbids leaguetui pidfd_getfd on its programs"
	}
	return true, ""
}

func noPidfdGetfd() bool {
	_, err := unix.PidfdGetfd(-1, 0, 0)
	return errors.Is(err, unix.ENOSYS)
}

// yamaForbids says Yama's ptrace_scope keeps leaguetui from its programs'
// descriptors: 3 always, 2 without CAP_SYS_PTRACE.
func yamaForbids() bool {
	data, err := os.ReadFile("/proc/sys/kernel/yama/ptrace_scope")
	if err != nil {
		return false // no Yama: a parent may ptrace its descendants
	}
	scope, _ := strconv.Atoi(strings.TrimSpace(string(data)))
	if scope >= 3 {
		return true
	}
	if scope < 2 {
		return false
	}
	have := unix.CapUserHeader{Version: unix.LINUX_CAPABILITY_VERSION_3}
	var caps [2]unix.CapUserData
	if unix.Capget(&have, &caps[0]) != nil {
		return true
	}
	return caps[0].Effective&(1<<unix.CAP_SYS_PTRACE) == 0
}
