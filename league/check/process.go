package check

import (
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"time"

	"github.com/leaguetui/leaguetui/config"
	"github.com/leaguetui/leaguetui/league/process"
)

// agentProcess is the agent the checker started, confined as a roster
// program is (process.StartProgram): its own process group and cgroup, so
// that stopping it stops what it started too (an interpreter's children,
// a shell's command, a child in a session of its own).
type agentProcess struct {
	program *process.Program
	outPath string
}

// checkedProgram names the checked agent in its output file's lines.
const checkedProgram = "the checked agent"

// agentSpec is how the checker starts the agent: with the placeholders
// filled in, its output in the data folder, and a sandbox that lets it
// reach the checker's manager (a referee: any port, since it calls
// players) and read nothing of the data folder but its own {data}, nor a
// .env in leaguetui's working folder. Its disk cap is the default, or half
// the free space of the data folder's disk where that is less.
func (s *session) agentSpec(ph process.Placeholders) process.ProgramSpec {
	data, _ := filepath.Abs(s.data)
	env, _ := filepath.Abs(".env")
	disk, _ := process.DiskCap(uint64(config.DefaultProgramLimits.DiskMB)<<20, data, 1)
	confine := process.Confinement{Off: s.opts.NoSandbox, Require: s.opts.RequireSandbox,
		AnyPort: s.opts.Role == RefereeRole, Hide: []string{data, env}, DiskBytes: disk}
	if u, err := url.Parse(s.mgr.URL); err == nil {
		if port, err := strconv.ParseUint(u.Port(), 10, 16); err == nil {
			confine.Connect = []uint16{uint16(port)}
		}
	}
	confine.Read = s.opts.Read // --read, as a roster entry's "read"
	return process.ProgramSpec{Name: checkedProgram, Command: s.opts.Command, Placeholders: ph,
		LogPath: filepath.Join(s.data, "agent.out"), Shim: s.opts.Executable, Sandbox: confine,
		Limits: s.opts.Limits}
}

// startAgent runs the agent spec describes.
func startAgent(spec process.ProgramSpec) (*agentProcess, error) {
	if err := os.MkdirAll(spec.Placeholders[process.PlaceholderData], 0o755); err != nil {
		return nil, err
	}
	p, err := process.StartProgram(spec)
	if err != nil {
		return nil, err
	}
	return &agentProcess{program: p, outPath: spec.LogPath}, nil
}

// describe says how the agent is confined.
func (p *agentProcess) describe() string { return p.program.Describe() }

// exited reports whether the agent has ended, and how.
func (p *agentProcess) exited() (bool, string) {
	select {
	case <-p.program.Exited():
		if err := p.program.ExitError(); err != nil {
			return true, err.Error()
		}
		return true, "exit status 0"
	default:
		return false, ""
	}
}

// wait waits up to d for the agent to end.
func (p *agentProcess) wait(d time.Duration) bool {
	select {
	case <-p.program.Exited():
		return true
	case <-time.After(d):
		return false
	}
}

// stop ends the agent and all it started: SIGTERM, then SIGKILL after
// grace.
func (p *agentProcess) stop(grace time.Duration) { p.program.Stop(grace) }
