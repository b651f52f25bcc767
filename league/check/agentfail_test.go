package check_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/leaguetui/leaguetui/internal/leaguetest"
	"github.com/leaguetui/leaguetui/league/sandbox"
)

// An agent the sandbox refuses a file it needs, and that then exits or
// never registers, is reported with its last lines and the path it was
// refused, with how to grant it; --read grants it.
func TestRefusedPathIsNamed(t *testing.T) {
	if sandbox.Probe().LandlockABI < 1 {
		leaguetest.SkipWithout(t, "no Landlock here to confine files: "+sandbox.Probe().Describe(sandbox.Limits{}, false))
	}
	// The file is not on the agent's command line (what it names is
	// granted), only in its script.
	needed := filepath.Join(t.TempDir(), "needed.conf")
	if err := os.WriteFile(needed, []byte("the needed setting\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	hint := "the sandbox may have denied it " + needed + `: grant it with --read PATH (a roster entry's "read")`
	for _, c := range []struct {
		name, then, waited string
	}{
		{"exits", "exit 3", "the agent exited (exit status 3); its last output: "},
		{"never registers", "exec sleep 300", "nothing within 3s; its last output: "},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			script := filepath.Join(t.TempDir(), "agent.sh")
			text := "#!/bin/sh\necho starting\ncat " + needed + "\n" + c.then + "\n"
			if err := os.WriteFile(script, []byte(text), 0o755); err != nil {
				t.Fatal(err)
			}
			run := runCheck(t, "--register-timeout", "3s", "--", script, "--port", "{port}")
			why := "why:     no LEAGUE_REGISTER_REQUEST reached the manager: " + c.waited + "starting | cat: " + needed + ": Permission denied; " + hint
			if run.code != 1 || !strings.Contains(run.stdout, why) {
				t.Errorf("exit status %d, want 1 and %q in\n%s\n%s", run.code, why, run.stdout, run.stderr)
			}
			granted := runCheck(t, "--register-timeout", "3s", "--read", needed, "--", script, "--port", "{port}")
			if want := c.waited + "starting | the needed setting"; !strings.Contains(granted.stdout, want) ||
				strings.Contains(granted.stdout, "may have denied") {
				t.Errorf("with --read %s: want %q and no hint in\n%s\n%s", needed, want, granted.stdout, granted.stderr)
			}
		})
	}
}
