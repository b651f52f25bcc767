package check

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"time"
)

// agentProcess is the agent the checker started: its own process group,
// so that stopping it stops what it started too (an interpreter's
// children, a shell's command).
type agentProcess struct {
	cmd     *exec.Cmd
	outPath string
	done    chan struct{}
	err     error // from Wait, once done is closed
}

// startAgent runs argv with its output in outPath, with env added to the
// checker's environment.
func startAgent(argv, env []string, outPath string) (*agentProcess, error) {
	if err := os.MkdirAll(filepath.Dir(outPath), 0o755); err != nil {
		return nil, err
	}
	out, err := os.OpenFile(outPath, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Stdout, cmd.Stderr = out, out
	cmd.Env = append(os.Environ(), env...)
	// Pdeathsig: an agent never outlives a checker killed outright.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	if err := cmd.Start(); err != nil {
		out.Close()
		return nil, fmt.Errorf("cannot start %s: %w", argv[0], err)
	}
	p := &agentProcess{cmd: cmd, outPath: outPath, done: make(chan struct{})}
	go func() {
		p.err = cmd.Wait()
		out.Close()
		close(p.done)
	}()
	return p, nil
}

// exited reports whether the agent has ended, and how.
func (p *agentProcess) exited() (bool, string) {
	select {
	case <-p.done:
		if p.err == nil {
			return true, "exit status 0"
		}
		return true, p.err.Error()
	default:
		return false, ""
	}
}

// wait waits up to d for the agent to end.
func (p *agentProcess) wait(d time.Duration) bool {
	select {
	case <-p.done:
		return true
	case <-time.After(d):
		return false
	}
}

// stop ends the agent's process group: SIGTERM, then SIGKILL after grace.
func (p *agentProcess) stop(grace time.Duration) {
	if done, _ := p.exited(); done {
		return
	}
	pgid := p.cmd.Process.Pid // Setpgid: the group's id is the leader's pid
	_ = syscall.Kill(-pgid, syscall.SIGTERM)
	if p.wait(grace) {
		return
	}
	_ = syscall.Kill(-pgid, syscall.SIGKILL)
	<-p.done
}

// tail is the end of the agent's output, for a message about its death.
func (p *agentProcess) tail() string {
	data, err := os.ReadFile(p.outPath)
	if err != nil {
		return ""
	}
	lines := strings.Split(strings.TrimSpace(string(data)), "\n")
	if len(lines) > 5 {
		lines = lines[len(lines)-5:]
	}
	return strings.Join(lines, " | ")
}
