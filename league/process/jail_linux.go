package process

import (
	"fmt"
	"os"
	"strconv"

	"github.com/leaguetui/leaguetui/league/sandbox"
)

// prepare makes the temporary folder, the cgroup, the environment and
// the command line.
func (j *jail) prepare(r Resolved) error {
	spec := j.spec
	support := sandbox.Probe()
	limits := spec.Limits
	j.Strength = support.Describe(limits, spec.Sandbox.Off)
	if !spec.Sandbox.Off && spec.Sandbox.Require && !support.Confines() {
		return fmt.Errorf("--require-sandbox: this machine cannot confine it (%s)", j.Strength)
	}
	if support.CgroupBase != "" {
		cg, err := sandbox.NewCgroup(support, spec.Name, limits)
		if err != nil {
			return fmt.Errorf("cgroup: %w", err)
		}
		j.cgroup = cg
	}
	// Orphans come to leaguetui, which reaps them: a cgroup's kill leaves
	// no zombie behind either.
	becomeSubreaper()
	temp, err := os.MkdirTemp("", "leaguetui-"+sandbox.SafeName(spec.Name)+"-")
	if err != nil {
		return err
	}
	j.temp = temp
	data := spec.Placeholders[PlaceholderData]
	if spec.Sandbox.Off {
		j.env = append(append(trustedEnv(), r.Env...), spec.Secrets...)
		j.argv = r.Args
		if limits != (sandbox.Limits{}) {
			return j.viaShim(sandbox.Policy{Unconfined: true, Limits: rlimitsOnly(limits, support)}, r)
		}
		return nil
	}
	j.env = append(append(cleanEnv(data, temp), r.Env...), spec.Secrets...)
	program, err := findProgram(r.Args[0], r.Dir)
	if err != nil {
		return err
	}
	dir := r.Dir
	if dir == "" {
		// No folder named: it runs in a folder of its own, never in
		// leaguetui's (the roster, a .env), and the paths its command
		// names are taken from leaguetui's folder as they were.
		dir = ownFolder(data, temp)
		j.dir = dir
		absolutePaths(r.Args, spec.Command)
	}
	home, _ := os.UserHomeDir()
	req := sandbox.Request{Program: program, Args: r.Args[1:], Dir: dir, Data: data, Temp: temp, Home: home,
		Read: spec.Sandbox.Read, Hide: spec.Sandbox.Hide, Connect: spec.Sandbox.Connect,
		AnyPort: spec.Sandbox.AnyPort, UDP: spec.Sandbox.UDP, Limits: rlimitsOnly(limits, support),
		Require: spec.Sandbox.Require}
	if port, err := strconv.ParseUint(spec.Placeholders[PlaceholderPort], 10, 16); err == nil {
		req.Bind = []uint16{uint16(port)}
	}
	r.Args[0] = program
	return j.viaShim(req.Policy(), r)
}
