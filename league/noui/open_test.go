package noui_test

import (
	"regexp"
	"strings"
	"testing"
)

// TestOpenRefereesAndKeyOffCommandLines: a --no-ui league started with
// --open-referees says on stderr that its manager admits any referee, and
// the referee key it made for its own referees is on no command line (ps
// shows those to anyone on the machine): it goes in the environment.
func TestOpenRefereesAndKeyOffCommandLines(t *testing.T) {
	t.Parallel()
	run := runHeadless(t, 2, 1, 5, "--open-referees")
	if !strings.Contains(run.stderr, "the league is open: its manager admits any referee") {
		t.Errorf("--no-ui did not say the league is open:\n%s", run.stderr)
	}
	if len(run.children) == 0 {
		t.Skip("no /proc to read the children's command lines from")
	}
	key := regexp.MustCompile(`ref-[0-9a-f]{64}`)
	for pid, line := range run.children {
		if key.MatchString(line) || strings.Contains(line, "REFEREE_KEY") {
			t.Errorf("the referee key is on the command line of pid %d: %s", pid, line)
		}
	}
}
