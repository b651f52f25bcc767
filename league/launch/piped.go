package launch

import (
	"cmp"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"syscall"
)

// Piped is a program leaguetui talks to over its standard input and
// output (a game program, one JSON object a line): Stdin is what it
// reads, Stdout what it writes; its standard error goes to the log.
// Both are pipes that take deadlines (SetWriteDeadline, SetReadDeadline).
type Piped struct {
	*Program
	Stdin  *os.File
	Stdout *os.File
}

// StartPiped is StartProgram for a program driven over its standard
// input and output, in the same sandbox, limits and log: only its
// standard error goes to spec.LogPath. The caller closes Stdin and
// Stdout once done, and stops the program.
func StartPiped(spec ProgramSpec) (*Piped, error) {
	r, err := spec.Resolve()
	if err != nil {
		return nil, fmt.Errorf("%s: %w", spec.Name, err)
	}
	j, err := newJail(spec, r)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", spec.Name, err)
	}
	inR, inW, err := os.Pipe()
	if err != nil {
		j.end()
		return nil, fmt.Errorf("%s: %w", spec.Name, err)
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		inR.Close()
		inW.Close()
		j.end()
		return nil, fmt.Errorf("%s: %w", spec.Name, err)
	}
	cmd := exec.Command(j.argv[0], j.argv[1:]...)
	cmd.Dir = cmp.Or(j.dir, r.Dir)
	cmd.Env = j.env
	cmd.Stdin, cmd.Stdout, cmd.Stderr = inR, outW, j.output
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	if j.cgroup != nil {
		cmd.SysProcAttr.UseCgroupFD, cmd.SysProcAttr.CgroupFD = true, j.cgroup.FD()
	}
	err = j.start(cmd)
	inR.Close() // the program holds its own copies
	outW.Close()
	if err != nil {
		inW.Close()
		outR.Close()
		j.end()
		return nil, fmt.Errorf("cannot start %s (%q): %w", spec.Name, r.Args[0], err)
	}
	p := &Program{Name: spec.Name, cmd: cmd, jail: j, exited: make(chan struct{})}
	go func() {
		p.err = cmd.Wait()
		if why := j.stoppedFor(); why != "" {
			p.err = errors.New(why)
		}
		j.end()
		close(p.exited)
	}()
	return &Piped{Program: p, Stdin: inW, Stdout: outR}, nil
}
