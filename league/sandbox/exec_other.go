//go:build !linux

package sandbox

import "fmt"

// Exec is ExecCommand, which confines this process and becomes the
// program: it cannot be done here, and leaguetui starts no program
// through it on this system.
func Exec(args []string) error {
	return fmt.Errorf("%s: %s", ExecCommand, unavailable)
}
