package security_test

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"syscall"
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
	cmd := exec.Command(leaguetest.Binary(t), "--no-ui", "--free-ports", "--data", dir, "--seed", "31",
		"--players", "4", "--referees", "2", "--move-timeout", "5s", "--join-timeout", "5s", "--retry-delay", "50ms")
	cmd.Env = append(os.Environ(), leaguetest.ChildEnv()...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()

	// Polling here observes the manager's environment; it synchronises
	// nothing: the manager lives as long as the league.
	admin := ""
	watch := time.NewTicker(2 * time.Millisecond)
	defer watch.Stop()
	deadline := time.After(3 * time.Minute)
	var err error
wait:
	for {
		select {
		case err = <-exited:
			break wait
		case <-deadline:
			_ = cmd.Process.Kill()
			<-exited
			killLeftovers(t, dir)
			t.Fatalf("leaguetui --no-ui did not finish within 3 minutes\n%s", stderr.String())
		case <-watch.C:
			if admin == "" {
				admin = managerAdminToken(cmd.Process.Pid)
			}
		}
	}
	if err != nil {
		killLeftovers(t, dir)
		t.Fatalf("leaguetui --no-ui: %v\n%s", err, stderr.String())
	}
	if admin == "" {
		t.Fatal("never saw the manager's LEAGUETUI_ADMIN_TOKEN while the league ran")
	}

	secrets := []secret{{"the admin", admin}}
	for id, c := range credentials(t, dir) {
		secrets = append(secrets, secret{id, c.AuthToken})
	}
	if len(secrets) != 1+4+2 {
		t.Errorf("%d tokens in the credentials files, want one per agent: 6", len(secrets)-1)
	}
	leaks, files := grepTree(t, dir, secrets, "credentials")
	for path, found := range leaks {
		t.Errorf("%s holds %v", path, found)
	}
	checkKinds(t, files, "logs/system/*.out")
	if found := leaksIn(stdout.String()+stderr.String(), fragments(secrets)); len(found) > 0 {
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

// killLeftovers ends the agents a failed run left behind: the processes
// started with this run's data folder, by pid.
func killLeftovers(t *testing.T, dataDir string) {
	left, _ := leaguetest.ProcessesMentioning(dataDir)
	for pid := range left {
		_ = syscall.Kill(pid, syscall.SIGKILL)
		t.Logf("killed left-over process %d", pid)
	}
}
