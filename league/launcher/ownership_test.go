package launcher_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/leaguetui/leaguetui/agents/store"
	"github.com/leaguetui/leaguetui/engine"
	"github.com/leaguetui/leaguetui/internal/leaguetest"
	"github.com/leaguetui/leaguetui/league/launcher"
)

// TestDataFolderHasOneOwner: while a launched league holds its data
// folder, a second Launch on it is refused at once, naming this process as
// the owner, and starts nothing (no manager, no token written); so is a
// manager started by hand on the folder, which would append to the same
// journal. The league that owns the folder is not disturbed, and once it
// is stopped the folder is free: the next Launch opens the league it
// holds, not started yet, with the admin token of the first run.
func TestDataFolderHasOneOwner(t *testing.T) {
	dir := t.TempDir()
	first := launch(t, newSpec(t, dir, 2, 1, 7, launcher.Given{Seed: true}))
	owner := fmt.Sprintf("PID %d (", os.Getpid())
	token, err := os.ReadFile(first.AdminTokenFile)
	if err != nil || first.AdminTokenFile == "" {
		t.Fatalf("the admin token file %q: %v", first.AdminTokenFile, err)
	}

	ctx, cancel := context.WithTimeout(t.Context(), leagueTimeout)
	defer cancel()
	second, err := launcher.Launch(ctx, newSpec(t, dir, 2, 1, 7, launcher.Given{Seed: true}))
	if second != nil {
		second.Stop()
		t.Fatalf("a second Launch on the folder returned a league (manager %v)", second.Manager)
	}
	if !errors.Is(err, store.ErrDataFolderInUse) || !strings.Contains(err.Error(), dir) || !strings.Contains(err.Error(), owner) {
		t.Fatalf("a second Launch on the folder: %v; want it refused as in use, naming %s and %s…)", err, dir, owner)
	}
	if again, _ := os.ReadFile(first.AdminTokenFile); string(again) != string(token) {
		t.Error("the refused Launch wrote the folder's admin token")
	}

	manager := exec.Command(leaguetest.Binary(t), "manager", "--port", "0", "--data", dir)
	manager.Env = append(os.Environ(), launcher.AdminTokenEnv+"=secret")
	out, err := manager.CombinedOutput()
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != 1 || !strings.Contains(string(out), owner) {
		t.Fatalf("a manager started by hand on the folder: %v\n%s\nwant exit status 1, naming %s…)", err, out, owner)
	}

	status, err := first.Control.Standings(t.Context())
	if err != nil || status.State != engine.LeagueWaiting || !first.Manager.Running() {
		t.Fatalf("the owner's league after the refusals: %s, %v (manager running: %v)", status.State, err, first.Manager.Running())
	}
	first.Stop()
	for _, c := range first.Children() {
		if c.Running() {
			t.Errorf("%s (PID %d) still runs after Stop", c.Name, c.PID())
		}
	}

	next := launch(t, newSpec(t, dir, 2, 1, 7, launcher.Given{Seed: true}))
	if next.Resumed != nil || next.Unfinished() || len(next.Players) != 2 || len(next.Referees) != 1 {
		t.Errorf("the folder after Stop: Resumed %+v, %d players, %d referees; want the league not started, launched again",
			next.Resumed, len(next.Players), len(next.Referees))
	}
	if next.AdminToken != strings.TrimSpace(string(token)) {
		t.Error("the next run has another admin token: a console attached with the first would lose control")
	}
}
