//go:build !linux

package process

import (
	"fmt"
	"os"

	"github.com/leaguetui/leaguetui/league/sandbox"
)

// prepare makes the temporary folder, the environment and the command
// line, on a system without leaguetui's sandbox (Landlock, seccomp and
// cgroups are Linux's): the program runs unconfined, as an entry with
// "sandbox": false runs on Linux (leaguetui's environment less its
// LEAGUETUI_ variables, in its entry's folder or leaguetui's), and with no
// limits, which only Linux's shim sets; its disk cap still holds. The
// strength line says so, and --require-sandbox refuses it.
func (j *jail) prepare(r Resolved) error {
	spec := j.spec
	support := sandbox.Probe()
	j.Strength = support.Describe(spec.Limits, spec.Sandbox.Off)
	if !spec.Sandbox.Off && spec.Sandbox.Require && !support.Confines() {
		return fmt.Errorf("--require-sandbox: this machine cannot confine it (%s)", j.Strength)
	}
	temp, err := os.MkdirTemp("", "leaguetui-"+sandbox.SafeName(spec.Name)+"-")
	if err != nil {
		return err
	}
	j.temp = temp
	j.env = append(append(trustedEnv(), r.Env...), spec.Secrets...)
	j.argv = r.Args
	return nil
}
