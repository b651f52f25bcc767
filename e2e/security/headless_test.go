package security_test

import (
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/leaguetui/leaguetui/internal/leaguetest"
)

// TestHeadlessLeagueLeaksNoToken runs a whole `leaguetui --no-ui` league
// and greps its data folder, the agents' outputs in logs/system included,
// and leaguetui's output for every token issued and for the admin token leaguetui made
// for its manager (read from the manager's environment while it runs).
func TestHeadlessLeagueLeaksNoToken(t *testing.T) {
	t.Parallel()
	if !leaguetest.HaveProc() {
		t.Skip("no /proc here: cannot read the admin token leaguetui gives its manager")
	}
	dir := t.TempDir()
	// Observing the manager's environment synchronises nothing: the
	// manager lives as long as the league.
	admin := ""
	observe := func(pid int) {
		if admin == "" {
			admin = managerAdminToken(pid)
		}
	}
	run := leaguetest.RunLeaguetui(t, dir, 3*time.Minute, observe, "--no-ui", "--free-ports", "--data", dir, "--seed", "31",
		"--players", "4", "--referees", "2", "--move-timeout", "5s", "--join-timeout", "5s", "--retry-delay", "50ms")
	if run.Err != nil {
		leaguetest.KillLeftovers(t, dir)
		t.Fatalf("leaguetui --no-ui: %v\n%s", run.Err, run.Stderr)
	}
	if admin == "" {
		t.Fatal("never saw the manager's LEAGUETUI_ADMIN_TOKEN while the league ran")
	}

	secrets := []secret{{"the admin", admin}}
	for id, c := range credentials(t, dir) {
		secrets = append(secrets, secret{id, c.AuthToken})
	}
	if len(secrets) != 1+1+4+2 {
		t.Errorf("%d tokens in the credentials files, want one per agent and the manager's key: 7", len(secrets)-1)
	}
	leaks, files := grepTree(t, dir, secrets, "credentials")
	for path, found := range leaks {
		t.Errorf("%s holds %v", path, found)
	}
	checkKinds(t, files, "logs/system/*.out")
	if found := leaksIn(run.Stdout+run.Stderr, fragments(secrets)); len(found) > 0 {
		t.Errorf("leaguetui's output holds %v", found)
	}
	t.Logf("grepped %d files of the data folder for %d tokens: %d leak", len(files), len(secrets), len(leaks))
}

// managerAdminToken reads the admin token from the environment of the
// manager child of pid, or "" if there is none yet.
func managerAdminToken(pid int) string {
	children, _ := leaguetest.ChildPIDs(pid)
	for _, child := range children {
		if !strings.Contains(leaguetest.CommandLine(child), " manager ") {
			continue
		}
		env, err := os.ReadFile(fmt.Sprintf("/proc/%d/environ", child))
		if err != nil {
			continue
		}
		token := ""
		for _, kv := range strings.Split(string(env), "\x00") {
			if value, ok := strings.CutPrefix(kv, "LEAGUETUI_ADMIN_TOKEN="); ok {
				token = value // the last one is the one the process sees
			}
		}
		return token
	}
	return ""
}
