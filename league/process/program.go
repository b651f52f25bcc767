package process

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"sort"
	"strconv"
	"sync"
	"syscall"
	"time"

	"github.com/leaguetui/leaguetui/league/sandbox"
)

// ProgramSpec says how to start an outside program: a roster's player in
// any language, or the program `leaguetui check` examines. Its command
// line, folder and environment may use Placeholders; its output (stdout
// and stderr) goes to LogPath, capped and rotated.
type ProgramSpec struct {
	Name    string            // for messages
	Command []string          // the program and its arguments, with {placeholders}
	Dir     string            // its working folder, with {placeholders}; "": its data folder when confined, ours when not
	Env     map[string]string // its environment beside the clean one, values with {placeholders}
	// Secrets are KEY=value entries added to the environment as they are
	// (a referee key): never expanded, never on a command line.
	Secrets      []string
	Placeholders Placeholders
	LogPath      string
	Limits       sandbox.Limits
	// Shim is the leaguetui executable, which confines itself and then
	// becomes the program (sandbox.ExecCommand): the sandbox and the
	// limits hold from the program's first instruction.
	Shim    string
	Sandbox Confinement
	// PortHost, when set, is the host the program listens on its {port}
	// at, and lets a restart move it: a {port} that something else holds
	// when the program is to start again (a connection's local port, which
	// the kernel takes from the range free ports come from) is replaced by
	// a free one, so that no participant can keep another from coming
	// back. Only for a program no one else is told the port of (a
	// player: the league learns its endpoint from its registration).
	PortHost string
}

// Confinement is what a program's sandbox lets it do beyond running:
// the ports it may connect to, the paths it may read, and what it must
// never see. Off runs a trusted program unconfined.
type Confinement struct {
	Off     bool     // "sandbox": false
	Require bool     // refuse to run it with less than files, ports and signals confined
	Connect []uint16 // the TCP ports it may connect to: the league's manager and referees, its named hosts'
	AnyPort bool     // connect to any port (a referee calls players wherever they are)
	UDP     bool     // datagrams, for resolving the hosts its entry names
	Read    []string // more paths it may read
	Hide    []string // paths it may never read (the league's data and config folders, key files)
	// DiskBytes caps what its data folder and temporary folder hold
	// together: past it the program is stopped. 0 is no cap.
	DiskBytes uint64
}

// Resolved is a program's command line, folder and environment with the
// placeholders filled in.
type Resolved struct {
	Args []string
	Dir  string
	Env  []string // KEY=value, sorted by key
}

// Resolve fills in the placeholders, naming the first unknown one and
// where it is: what a roster's validation checks before anything starts.
func (s ProgramSpec) Resolve() (Resolved, error) {
	if len(s.Command) == 0 || s.Command[0] == "" {
		return Resolved{}, errors.New("no program to run")
	}
	args, err := s.Placeholders.ExpandAll(s.Command)
	if err != nil {
		return Resolved{}, err
	}
	dir, err := s.Placeholders.Expand(s.Dir)
	if err != nil {
		return Resolved{}, fmt.Errorf("dir: %w", err)
	}
	keys := make([]string, 0, len(s.Env))
	for k := range s.Env {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	env := make([]string, 0, len(keys))
	for _, k := range keys {
		v, err := s.Placeholders.Expand(s.Env[k])
		if err != nil {
			return Resolved{}, fmt.Errorf("env %s: %w", k, err)
		}
		env = append(env, k+"="+v)
	}
	return Resolved{Args: args, Dir: dir, Env: env}, nil
}

// Program is one run of an outside program.
type Program struct {
	Name   string
	cmd    *exec.Cmd
	jail   *jail
	exited chan struct{}
	err    error // how it exited, once exited is closed
}

// StartProgram starts the program spec describes, in a process group of
// its own that dies with leaguetui, confined unless spec.Sandbox.Off, and
// returns once it runs.
func StartProgram(spec ProgramSpec) (*Program, error) {
	return startJailed(spec, func(cmd *exec.Cmd, output *os.File) {
		cmd.Stdout, cmd.Stderr = output, output
	})
}

// startJailed starts the program spec describes in its jail, with its
// standard files as stdio sets them (output is the pipe to its log), and
// watches it to its end: StartProgram's and StartPiped's one start.
func startJailed(spec ProgramSpec, stdio func(cmd *exec.Cmd, output *os.File)) (*Program, error) {
	r, err := spec.Resolve()
	if err != nil {
		return nil, fmt.Errorf("%s: %w", spec.Name, err)
	}
	j, err := newJail(spec, r)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", spec.Name, err)
	}
	cmd := exec.Command(j.argv[0], j.argv[1:]...)
	cmd.Dir = cmp.Or(j.dir, r.Dir)
	cmd.Env = j.env
	stdio(cmd, j.output)
	// As for our own agents (see Start): a process group we signal as a
	// whole, and killed by the kernel if leaguetui dies (programAttr).
	programAttr(cmd, j)
	if err := j.start(cmd); err != nil {
		j.end()
		return nil, fmt.Errorf("cannot start %s (%q): %w", spec.Name, r.Args[0], err)
	}
	p := &Program{Name: spec.Name, cmd: cmd, jail: j, exited: make(chan struct{})}
	go func() {
		p.err = cmd.Wait()
		if why := j.stoppedFor(); why != "" {
			p.err = errors.New(why)
		}
		j.end() // every descendant ends with the program
		close(p.exited)
	}()
	return p, nil
}

// PID is the program's process id.
func (p *Program) PID() int { return p.cmd.Process.Pid }

// Describe says, in a line, how the program is confined: the same line
// opens its log.
func (p *Program) Describe() string { return p.Name + ": " + p.jail.Strength }

// Exited is closed when the program has exited.
func (p *Program) Exited() <-chan struct{} { return p.exited }

// ExitError is how the program exited (nil for status 0); call after Exited.
func (p *Program) ExitError() error { return p.err }

// Stop asks the program's process group to end (SIGTERM) and kills the
// group, and every descendant that left it, if it has not within grace.
func (p *Program) Stop(grace time.Duration) {
	pid := p.cmd.Process.Pid
	select {
	case <-p.exited:
		return
	default:
	}
	_ = signalGroup(pid, syscall.SIGTERM)
	select {
	case <-p.exited:
	case <-time.After(grace):
	}
	_ = signalGroup(pid, syscall.SIGKILL)
	p.jail.kill()
	<-p.exited
}

// Supervised is a program kept running: started again when it exits, at
// most a bounded number of times, until Stop.
type Supervised struct {
	spec     ProgramSpec
	restarts int
	notify   func(string)

	mu      sync.Mutex
	current *Program
	started int // runs so far
	stopped bool
	done    chan struct{}
	cancel  context.CancelFunc
	// down is closed when the program stays down for good: its restarts
	// spent, or it could not be started again; downWhy says how.
	down    chan struct{}
	downWhy string
}

// Supervise starts the program and starts it again each time it exits,
// up to restarts times, telling notify (nil: nobody) each exit and
// restart in a line. Stop ends it for good.
func Supervise(spec ProgramSpec, restarts int, notify func(string)) (*Supervised, error) {
	if notify == nil {
		notify = func(string) {}
	}
	first, err := StartProgram(spec)
	if err != nil {
		return nil, err
	}
	notify(first.Describe())
	ctx, cancel := context.WithCancel(context.Background())
	s := &Supervised{spec: spec, restarts: restarts, notify: notify, current: first, started: 1,
		done: make(chan struct{}), cancel: cancel, down: make(chan struct{})}
	go s.watch(ctx)
	return s, nil
}

// restartWait is the pause before a program that exited is started again:
// a program that fails at once does not spin.
const restartWait = 500 * time.Millisecond

func (s *Supervised) watch(ctx context.Context) {
	defer close(s.done)
	for {
		s.mu.Lock()
		p := s.current
		s.mu.Unlock()
		select {
		case <-p.Exited():
		case <-ctx.Done():
			return
		}
		s.mu.Lock()
		left := s.restarts - (s.started - 1)
		s.mu.Unlock()
		why := describeExit(p.ExitError())
		if left <= 0 {
			s.notify(fmt.Sprintf("%s exited (%s); no restart left, it stays down", s.spec.Name, why))
			s.giveUp(fmt.Sprintf("exited (%s) with no restart left", why))
			return
		}
		s.notify(fmt.Sprintf("%s exited (%s); starting it again (restarts left: %d)", s.spec.Name, why, left-1))
		select {
		case <-time.After(restartWait):
		case <-ctx.Done():
			return
		}
		s.moveTakenPort()
		next, err := StartProgram(s.spec)
		s.mu.Lock()
		s.started++
		if err == nil {
			s.current = next
		}
		s.mu.Unlock()
		if err != nil {
			s.notify(fmt.Sprintf("%s could not be started again: %v", s.spec.Name, err))
			s.giveUp(fmt.Sprintf("could not be started again: %v", err))
			return
		}
	}
}

// moveTakenPort gives the program a free {port} in place of one that is
// taken, when its spec lets a restart move it (PortHost).
func (s *Supervised) moveTakenPort() {
	port, err := strconv.Atoi(s.spec.Placeholders[PlaceholderPort])
	if s.spec.PortHost == "" || err != nil || CheckPortsFree(s.spec.PortHost, port) == nil {
		return
	}
	fresh, err := FreePort(s.spec.PortHost)
	if err != nil {
		return // it starts on its port, and says why it cannot listen
	}
	s.spec.Placeholders = maps.Clone(s.spec.Placeholders)
	s.spec.Placeholders[PlaceholderPort] = strconv.Itoa(fresh)
	s.notify(fmt.Sprintf("%s: its port %d is taken; it starts again on port %d", s.spec.Name, port, fresh))
}

// giveUp records that the program stays down, and why.
func (s *Supervised) giveUp(why string) {
	s.mu.Lock()
	s.downWhy = why
	s.mu.Unlock()
	close(s.down)
}

// Down is closed when the program stays down for good: it exited with no
// restart left, or could not be started again (not when Stop ends it).
func (s *Supervised) Down() <-chan struct{} { return s.down }

// DownReason says why the program stays down, once Down is closed.
func (s *Supervised) DownReason() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.downWhy
}

// describeExit says how a program ended, naming the signal (SIGKILL,
// SIGXCPU from a CPU limit, SIGSEGV from a memory limit hit on the stack).
func describeExit(err error) string {
	var exit *exec.ExitError
	if !errors.As(err, &exit) {
		if err == nil {
			return "exit status 0"
		}
		return err.Error()
	}
	if ws, ok := exit.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		return "killed by " + ws.Signal().String()
	}
	return exit.Error()
}

// Runs is how many times the program was started.
func (s *Supervised) Runs() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.started
}

// PID is the current run's process id.
func (s *Supervised) PID() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.current.PID()
}

// Running reports whether the current run has not exited.
func (s *Supervised) Running() bool {
	s.mu.Lock()
	p := s.current
	s.mu.Unlock()
	select {
	case <-p.Exited():
		return false
	default:
		return true
	}
}

// Stop ends supervision and the program, SIGTERM then SIGKILL after grace.
func (s *Supervised) Stop(grace time.Duration) {
	s.mu.Lock()
	if s.stopped {
		s.mu.Unlock()
		return
	}
	s.stopped = true
	s.mu.Unlock()
	s.cancel()
	<-s.done
	s.mu.Lock()
	p := s.current
	s.mu.Unlock()
	p.Stop(grace)
}
