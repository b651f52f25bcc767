package hostile_test

import (
	"context"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/leaguetui/leaguetui/internal/leaguetest"
)

// TestLeagueIDTraversal: a league id that climbs out of the data folder is
// refused at start, by the manager and by --no-ui, with an error that names
// the flag, and nothing is written outside the data folder.
func TestLeagueIDTraversal(t *testing.T) {
	t.Parallel()
	for _, id := range []string{"../../x", "..", "a/b", ".hidden"} {
		for _, cmd := range [][]string{
			{"manager", "--port", "0"},
			{"--no-ui", "--free-ports", "--players", "2", "--referees", "1"},
		} {
			base, data := nestedDataDir(t)
			args := append(cmd, "--data", data, "--league-id", id)
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			c := exec.CommandContext(ctx, leaguetest.Binary(t), args...)
			c.Env = append(c.Environ(), "LEAGUETUI_ADMIN_TOKEN=adm-hostile")
			out, err := c.CombinedOutput()
			cancel()
			if err == nil {
				t.Errorf("%v ran; want a refusal\n%s", args, out)
			}
			if !strings.Contains(string(out), "--league-id") || !strings.Contains(string(out), "unsafe name") {
				t.Errorf("%v: the error does not name the league id:\n%s", args, out)
			}
			nothingOutside(t, base, data)
		}
	}
}
