package node

import (
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"testing"
)

// reportProcsEnv makes the test binary, run again as a child, call
// OneProcessor and print the GOMAXPROCS it ends with.
const reportProcsEnv = "LEAGUETUI_TEST_REPORT_PROCS"

func TestMain(m *testing.M) {
	if os.Getenv(reportProcsEnv) != "" {
		OneProcessor()
		fmt.Println(runtime.GOMAXPROCS(0))
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// procsOf runs OneProcessor in a fresh process with GOMAXPROCS set to
// gomaxprocs ("" leaves it unset) and returns the GOMAXPROCS it ends with.
func procsOf(t *testing.T, gomaxprocs string) string {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), reportProcsEnv+"=1")
	cmd.Env = append(cmd.Env, "GOMAXPROCS="+gomaxprocs) // the last one wins
	if gomaxprocs == "" {
		cmd.Env = withoutVar(cmd.Env, "GOMAXPROCS")
	}
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("child: %v", err)
	}
	return strings.TrimSpace(string(out))
}

func withoutVar(env []string, name string) []string {
	var kept []string
	for _, kv := range env {
		if !strings.HasPrefix(kv, name+"=") {
			kept = append(kept, kv)
		}
	}
	return kept
}

func TestOneProcessorUnlessGOMAXPROCSIsSet(t *testing.T) {
	if got := procsOf(t, ""); got != "1" {
		t.Errorf("without GOMAXPROCS: GOMAXPROCS is %s, want 1", got)
	}
	if got := procsOf(t, "3"); got != "3" {
		t.Errorf("with GOMAXPROCS=3: GOMAXPROCS is %s, want the user's 3", got)
	}
}
