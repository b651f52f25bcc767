// Package sandbox confines a program leaguetui starts for a league (a
// roster's player or referee, the agent `leaguetui check` examines): every
// such program is a participant, and a participant may be hostile.
//
// Two halves meet in one Policy. leaguetui (the parent) decides what the
// program may touch: the files it needs to run, its own data folder and a
// private temporary folder, the ports of the league, the hosts its entry
// names, a clean environment, limits. It then starts the program through
// leaguetui's hidden ExecCommand, which applies the Policy to itself
// (capabilities dropped, rlimits, Landlock for files, ports and signals,
// a seccomp filter for the sockets Landlock does not see) and becomes the
// program: the confinement holds from the program's first instruction and
// passes to everything it starts. The parent also puts the program in a
// cgroup of its own where one can be made (or sweeps its orphans as their
// subreaper), so that no descendant outlives it.
package sandbox

import (
	"encoding/json"
	"fmt"
	"os"
	"strings"
)

// Policy is what a sandboxed program may do, handed from the parent to
// ExecCommand in the environment variable PolicyEnv (removed before the
// program runs). Paths are absolute.
type Policy struct {
	// Read are files and folders the program may read and execute,
	// everything beneath a folder included.
	Read []string `json:"read,omitempty"`
	// List are folders whose entries the program may list, but not read:
	// the parents of a folder it may not see, inside one it may.
	List []string `json:"list,omitempty"`
	// Write are files and folders the program may read, write, create and
	// remove in: its own data folder, its temporary folder, /dev/null.
	Write []string `json:"write,omitempty"`
	// Bind are the TCP ports it may listen on.
	Bind []uint16 `json:"bind,omitempty"`
	// Connect are the TCP ports it may connect to; AnyPort lifts that
	// rule (a referee calls players wherever they registered).
	Connect []uint16 `json:"connect,omitempty"`
	AnyPort bool     `json:"any_port,omitempty"`
	// UDP allows datagram sockets (DNS), which Landlock's port rules do not
	// cover: only for a program whose entry names hosts to reach.
	UDP bool `json:"udp,omitempty"`
	// Limits are applied as rlimits, inherited by what it starts.
	Limits Limits `json:"limits"`
	// Require makes ExecCommand fail rather than run the program with
	// less than files, ports and signals confined.
	Require bool `json:"require,omitempty"`
	// Join are v1 cgroups' cgroup.procs files the program joins before it
	// runs, for the limits a v2 cgroup cannot hold here.
	Join []string `json:"join,omitempty"`
	// Unconfined applies the limits only: a program its entry trusts
	// ("sandbox": false).
	Unconfined bool `json:"unconfined,omitempty"`
	// Supervisor is the descriptor (SupervisorFD) of the socket over
	// which ExecCommand hands its seccomp filter's listener to leaguetui,
	// which then answers each listen() of the program (see Supervisor); 0
	// where leaguetui cannot, and listen() is not confined.
	Supervisor int `json:"supervisor,omitempty"`
}

// Limits are resource limits; 0 is none.
type Limits struct {
	MemoryBytes uint64 `json:"memory_bytes,omitempty"` // private writable memory (RLIMIT_DATA; memory.max in a cgroup)
	CPUSeconds  uint64 `json:"cpu_seconds,omitempty"`  // CPU time (RLIMIT_CPU): SIGXCPU, then SIGKILL
	Processes   uint64 `json:"processes,omitempty"`    // processes and threads (pids.max in a cgroup only)
	FileBytes   uint64 `json:"file_bytes,omitempty"`   // the largest file it may write (RLIMIT_FSIZE)
}

// PolicyEnv carries the Policy from the parent to ExecCommand.
const PolicyEnv = "LEAGUETUI_SANDBOX_POLICY"

// ExecCommand is leaguetui's hidden command that confines itself by the
// Policy in PolicyEnv and then executes the program in its place:
//
//	leaguetui _exec-sandboxed -- PROGRAM ARGS...
const ExecCommand = "_exec-sandboxed"

// Argv is the command line that starts program confined by ExecCommand,
// with leaguetui's executable exe.
func Argv(exe, program string, args []string) []string {
	return append([]string{exe, ExecCommand, "--", program}, args...)
}

// Encode is the PolicyEnv entry for p.
func (p Policy) Encode() (string, error) {
	data, err := json.Marshal(p)
	if err != nil {
		return "", err
	}
	return PolicyEnv + "=" + string(data), nil
}

// takePolicy reads the Policy from the environment and removes it, so the
// program never sees it.
func takePolicy() (Policy, error) {
	var p Policy
	raw, ok := os.LookupEnv(PolicyEnv)
	if !ok {
		return p, fmt.Errorf("%s: no %s in the environment", ExecCommand, PolicyEnv)
	}
	os.Unsetenv(PolicyEnv)
	if err := json.Unmarshal([]byte(raw), &p); err != nil {
		return p, fmt.Errorf("%s: %s: %w", ExecCommand, PolicyEnv, err)
	}
	return p, nil
}

// parseArgs reads ExecCommand's arguments: -- PROGRAM ARGS...
func parseArgs(args []string) ([]string, error) {
	if len(args) < 2 || args[0] != "--" {
		return nil, fmt.Errorf("%s: want -- PROGRAM [ARGS...], got %q", ExecCommand, strings.Join(args, " "))
	}
	return args[1:], nil
}
