package security_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/leaguetui/leaguetui/internal/leaguetest"
	"github.com/leaguetui/leaguetui/internal/leaguetest/fakellm"
)

// TestHeadlessLeagueLeaksNoToken runs a whole `leaguetui --no-ui` league
// and greps its data folder, the agents' outputs in logs/system included,
// and leaguetui's output for every token issued, for the admin token leaguetui made
// for its manager (read from the manager's environment while it runs) and
// for the API key of its model players (read from a file; the fake
// provider checks that it arrived).
func TestHeadlessLeagueLeaksNoToken(t *testing.T) {
	t.Parallel()
	if !leaguetest.HaveProc() {
		t.Skip("no /proc here: cannot read the admin token leaguetui gives its manager")
	}
	dir := t.TempDir()
	fake := fakellm.Start(fakellm.Good)
	defer fake.Close()
	apiKey := randomToken(t, "sk")
	keyFile := filepath.Join(t.TempDir(), "api-key")
	if err := os.WriteFile(keyFile, []byte(apiKey+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	// Observing the manager's environment synchronises nothing: the
	// manager lives as long as the league.
	admin := ""
	observe := func(pid int) {
		if admin == "" {
			admin = managerAdminToken(pid)
		}
	}
	run := leaguetest.RunLeaguetui(t, dir, 3*time.Minute, observe, "--no-ui", "--free-ports", "--data", dir, "--seed", "31",
		"--players", "4", "--referees", "2", "--move-timeout", "5s", "--join-timeout", "5s", "--retry-delay", "50ms",
		"--strategies", "llm,random", "--llm-model", "fake", "--llm-base-url", fake.OpenAIURL(), "--llm-api-key-file", keyFile)
	if run.Err != nil {
		leaguetest.KillLeftovers(t, dir)
		t.Fatalf("leaguetui --no-ui: %v\n%s", run.Err, run.Stderr)
	}
	if admin == "" {
		t.Fatal("never saw the manager's LEAGUETUI_ADMIN_TOKEN while the league ran")
	}

	requests := fake.Requests()
	if len(requests) == 0 || requests[0].Key != apiKey {
		t.Errorf("the model players sent %d requests, the first without the key", len(requests))
	}
	secrets := []secret{{"the admin", admin}, {"the model API", apiKey}}
	for id, c := range credentials(t, dir) {
		secrets = append(secrets, secret{id, c.AuthToken})
	}
	if len(secrets) != 2+1+4+2 {
		t.Errorf("%d tokens in the credentials files, want one per agent and the manager's key: 7", len(secrets)-2)
	}
	codes := joinCodes(t, dir)
	secrets = append(secrets, codes...)
	leaks, files := grepTree(t, dir, secrets, "credentials")
	if found := leaks["join-codes.json"]; len(found) == len(codes) { // where they are meant to be, each its player's
		delete(leaks, "join-codes.json")
	}
	// admin.token is where the admin token is meant to be, for a second
	// console: readable by its owner only, and holding nothing else.
	if info, err := os.Stat(filepath.Join(dir, "admin.token")); err != nil {
		t.Errorf("admin.token: %v", err)
	} else if info.Mode().Perm() != 0o600 {
		t.Errorf("admin.token has mode %v, want 0600", info.Mode().Perm())
	} else if data, _ := os.ReadFile(filepath.Join(dir, "admin.token")); strings.TrimSpace(string(data)) != admin {
		t.Errorf("admin.token holds something other than the admin token")
	} else {
		delete(leaks, "admin.token")
	}
	for path, found := range leaks {
		t.Errorf("%s holds %v", path, found)
	}
	checkKinds(t, files, "logs/system/*.out")
	if found := leaksIn(run.Stdout+run.Stderr, fragments(secrets)); len(found) > 0 {
		t.Errorf("leaguetui's output holds %v", found)
	}
	t.Logf("grepped %d files of the data folder for %d tokens: %d leak", len(files), len(secrets), len(leaks))
}

// joinCodes are the join codes leaguetui gave its own players, from the
// data folder's join-codes.json, which only its owner may read.
func joinCodes(t *testing.T, dir string) []secret {
	t.Helper()
	path := filepath.Join(dir, "join-codes.json")
	if info, err := os.Stat(path); err != nil || info.Mode().Perm() != 0o600 {
		t.Errorf("join-codes.json: %v, want mode 0600 (%v)", info, err)
		return nil
	}
	var codes map[string]string
	leaguetest.ReadJSON(t, path, &codes)
	var out []secret
	for name, code := range codes {
		out = append(out, secret{"the join code of " + name, code})
	}
	if len(out) != 4 {
		t.Errorf("join-codes.json holds %d codes, want one per player: 4", len(out))
	}
	return out
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
