// Package process starts agents as child processes of this same binary and
// stops them: each agent its own OS process, so one crash takes down nothing
// else.
package process

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"time"

	"github.com/leaguetui/leaguetui/agents/node"
)

// Child is one agent process we started.
type Child struct {
	Name     string
	Endpoint string // its /mcp URL
	ID       string // the id the manager gave it, for players and referees
	cmd      *exec.Cmd
	exited   chan error
	lines    chan string
}

// Spec says how to start one agent.
type Spec struct {
	Name       string   // for messages and the output file
	Args       []string // arguments after the executable
	Env        []string // extra environment
	OutputPath string   // where its stderr goes
	Register   bool     // wait for it to register, not only to listen
	// DataLock, when set, is the data folder's lock (store.DataLock.File)
	// passed down to the child, which then owns the folder with us.
	DataLock *os.File
}

// Start runs exe with spec and waits until the child says it is listening
// (and registered, if asked), or exits, or timeout passes.
func Start(ctx context.Context, exe string, spec Spec, timeout time.Duration) (*Child, error) {
	out, err := os.OpenFile(spec.OutputPath, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", spec.Name, err)
	}
	cmd := exec.Command(exe, spec.Args...)
	cmd.Env = append(os.Environ(), spec.Env...)
	cmd.Env = append(cmd.Env, fmt.Sprintf("%s=%d", node.ParentPIDEnv, os.Getpid()))
	cmd.Stderr = out
	// The data folder's lock passed down, its own process group, and (where
	// the system can) its death with us: see agentAttr.
	agentAttr(cmd, spec.DataLock)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		out.Close()
		return nil, err
	}
	if err := startOnForkThread(cmd); err != nil {
		out.Close()
		return nil, fmt.Errorf("cannot start %s: %w", spec.Name, err)
	}
	c := &Child{Name: spec.Name, cmd: cmd, exited: make(chan error, 1), lines: make(chan string, 16)}
	go c.readLines(stdout)
	go func() { c.exited <- cmd.Wait(); out.Close() }()
	if err := c.awaitReady(ctx, spec, timeout); err != nil {
		c.Kill()
		return nil, err
	}
	return c, nil
}

func (c *Child) readLines(r io.Reader) {
	scanner := bufio.NewScanner(r)
	for scanner.Scan() {
		select {
		case c.lines <- scanner.Text():
		default: // nobody listens any more; keep draining so the child never blocks
		}
	}
	close(c.lines)
}

func (c *Child) awaitReady(ctx context.Context, spec Spec, timeout time.Duration) error {
	deadline := time.After(timeout)
	for {
		select {
		case line, ok := <-c.lines:
			if !ok {
				return c.diedEarly(spec)
			}
			if url, found := strings.CutPrefix(line, node.ReadyListening); found {
				c.Endpoint = url
				if !spec.Register {
					return nil
				}
			}
			if id, found := strings.CutPrefix(line, node.ReadyRegistered); found {
				c.ID = id
				return nil
			}
		case <-deadline:
			return fmt.Errorf("%s did not get ready within %s (see %s)", spec.Name, timeout, spec.OutputPath)
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

// diedEarly explains a child that exited before it was ready, with the last
// line it wrote (usually the reason: a port in use, a bad flag).
func (c *Child) diedEarly(spec Spec) error {
	err := <-c.exited
	c.exited <- err
	last := lastLine(spec.OutputPath)
	return fmt.Errorf("%s exited before it was ready (%v): %s", spec.Name, err, last)
}

func lastLine(path string) string {
	data, err := os.ReadFile(path)
	if err != nil {
		return ""
	}
	lines := strings.Split(strings.TrimSpace(string(data)), "\n")
	return lines[len(lines)-1]
}

// PID is the child's process id.
func (c *Child) PID() int { return c.cmd.Process.Pid }

// Running reports whether the process has not exited.
func (c *Child) Running() bool {
	select {
	case err := <-c.exited:
		c.exited <- err
		return false
	default:
		return true
	}
}

// Exited waits up to timeout (0: not at all) for the child to exit, and
// says whether it has and how: the error of its wait ("signal: killed",
// "exit status 1"), nil for status 0.
func (c *Child) Exited(timeout time.Duration) (exited bool, status error) {
	var err error
	select {
	case err = <-c.exited:
	default:
		timer := time.NewTimer(timeout)
		defer timer.Stop()
		select {
		case err = <-c.exited:
		case <-timer.C:
			return false, nil
		}
	}
	c.exited <- err // for Running, Stop and Kill
	return true, err
}

// Stop asks the child to end (SIGTERM) and kills it if it has not within grace.
func (c *Child) Stop(grace time.Duration) error {
	if !c.Running() {
		return nil
	}
	_ = askToStop(c.cmd.Process)
	select {
	case err := <-c.exited:
		c.exited <- err // for Running and a later Stop or Kill
		return nil
	case <-time.After(grace):
		c.Kill()
		return fmt.Errorf("%s did not stop within %s and was killed", c.Name, grace)
	}
}

// Kill ends the child at once and waits for it.
func (c *Child) Kill() {
	if !c.Running() {
		return
	}
	_ = c.cmd.Process.Kill()
	err := <-c.exited
	c.exited <- err
}

// FreePort is a port the kernel says is free on host now, closed again for
// an outside program to listen on (one whose command line names {port}).
func FreePort(host string) (int, error) {
	ln, err := net.Listen("tcp", net.JoinHostPort(host, "0"))
	if err != nil {
		return 0, err
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port, nil
}

// CheckPortsFree fails naming the first port in use on host.
func CheckPortsFree(host string, ports ...int) error {
	for _, port := range ports {
		ln, err := net.Listen("tcp", net.JoinHostPort(host, strconv.Itoa(port)))
		if err != nil {
			return &PortInUseError{Port: port, Err: err}
		}
		ln.Close()
	}
	return nil
}

// PortInUseError names a port that is taken.
type PortInUseError struct {
	Port int
	Err  error
}

func (e *PortInUseError) Error() string {
	return fmt.Sprintf("port %d is in use (%v); stop what holds it, or pass --free-ports to take free ports", e.Port, e.Err)
}

// IsPortInUse reports a PortInUseError.
func IsPortInUse(err error) bool {
	var p *PortInUseError
	return errors.As(err, &p)
}
