package check_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/leaguetui/leaguetui/internal/leaguetest"
)

// TestPullStartersPassStrict: the Python, Node and Go starters with
// --pull, which listen on no port, pass every check on a pull seat, the
// SHOULD ones too, but GET /health, which has no host to ask there and
// is skipped.
func TestPullStartersPassStrict(t *testing.T) {
	starters := map[string]func(t *testing.T) []string{
		"python": func(t *testing.T) []string {
			return []string{interpreter(t, "python3"), filepath.Join(examples(t), "python", "player.py")}
		},
		"node": func(t *testing.T) []string {
			return []string{interpreter(t, "node"), filepath.Join(examples(t), "node", "player.js")}
		},
		"go": func(t *testing.T) []string { return []string{leaguetest.GoStarter(t)} },
	}
	for name, command := range starters {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			cmd := append(command(t), "--pull", "--port", "{port}", "--manager", "{manager}", "--name", "{name}", "--data", "{data}")
			run := runCheck(t, append([]string{"--strict", "--move-timeout", "10s", "--"}, cmd...)...)
			seated := strings.Contains(run.stdout+run.stderr, "contact endpoint http://127.0.0.1:")
			seated = seated && strings.Contains(run.stdout+run.stderr, "/pull/P01/mcp")
			if run.code != 0 || !seated {
				t.Errorf("exit status %d, want 0 with the player on its pull seat\n%s\n%s", run.code, run.stdout, run.stderr)
			}
			got := verdicts(run.stdout)
			if len(got) < 20 {
				t.Errorf("%d verdicts, want every check's\n%s", len(got), run.stdout)
			}
			for id, v := range got {
				if want := map[bool]string{true: "SKIP", false: "PASS"}[id == "health/answers"]; v != want {
					t.Errorf("%s: %s, want %s", id, v, want)
				}
			}
		})
	}
}
