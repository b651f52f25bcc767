package node

import (
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"runtime/pprof"
	"sync"
)

// CPUProfileEnv names a folder: an agent started with it set writes a CPU
// profile there as <role>-<pid>.pprof, for go tool pprof. The bench's
// children inherit it, so one bench run profiles the manager, every
// referee and every player.
const CPUProfileEnv = "LEAGUETUI_CPUPROFILE"

// CPUProfileWindowEnv, set to CPUProfileOnSignal beside CPUProfileEnv,
// makes the profile cover a window its parent chooses instead of the
// agent's whole life: the agent starts profiling on CPUProfileStart and
// writes the profile on CPUProfileStop (or when it stops, if still
// profiling). The bench opens the window at the league's start and closes
// it at its end, so that start-up (registration, the MCP tool list encoded
// once) and shutdown do not count.
const (
	CPUProfileWindowEnv = "LEAGUETUI_CPUPROFILE_WINDOW"
	CPUProfileOnSignal  = "signal"
)

// The signals that open and close the profiled window, CPUProfileStart
// and CPUProfileStop, are in cpuprofile_unix.go and cpuprofile_windows.go.

// ProfileCPU starts the CPU profile CPUProfileEnv asks for, or, with
// CPUProfileWindowEnv, waits for the signals that open and close it. It
// returns what stops it and writes what is left; without the variable it
// does nothing.
func ProfileCPU(role string) (stop func(), err error) {
	dir := os.Getenv(CPUProfileEnv)
	if dir == "" {
		return func() {}, nil
	}
	p := NewCPUProfile(filepath.Join(dir, fmt.Sprintf("%s-%d.pprof", role, os.Getpid())))
	if os.Getenv(CPUProfileWindowEnv) != CPUProfileOnSignal {
		if err := p.Start(); err != nil {
			return nil, fmt.Errorf("%s: %w", CPUProfileEnv, err)
		}
		return p.Stop, nil
	}
	signals := make(chan os.Signal, 2)
	signal.Notify(signals, CPUProfileStart, CPUProfileStop)
	done := make(chan struct{})
	go func() {
		defer close(done)
		for sig := range signals {
			if sig == CPUProfileStart {
				_ = p.Start() // a profile already running is kept; a folder that cannot be written leaves no file, which the bench reports
			} else {
				p.Stop()
			}
		}
	}()
	return func() {
		signal.Stop(signals)
		close(signals)
		<-done
		p.Stop()
	}, nil
}

// CPUProfile is this process's CPU profile written to one file, started
// and stopped at most once at a time (Go profiles one per process).
type CPUProfile struct {
	path string
	mu   sync.Mutex
	file *os.File // nil when not profiling
}

// NewCPUProfile is a profile to be written to path once started.
func NewCPUProfile(path string) *CPUProfile { return &CPUProfile{path: path} }

// Start creates the file and starts profiling; a profile already running
// is kept.
func (p *CPUProfile) Start() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.file != nil {
		return nil
	}
	f, err := os.Create(p.path)
	if err != nil {
		return err
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		f.Close()
		return err
	}
	p.file = f
	return nil
}

// Stop stops profiling and closes the file, whole; nothing when not
// profiling.
func (p *CPUProfile) Stop() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.file == nil {
		return
	}
	pprof.StopCPUProfile()
	p.file.Close()
	p.file = nil
}
