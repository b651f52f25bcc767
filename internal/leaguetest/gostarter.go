package leaguetest

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// goStarter caches GoStarter's build for this test binary.
var goStarter = struct {
	once sync.Once
	path string
	err  error
}{}

// GoStarter is the Go starter player of examples/go, a module of its own
// with the standard library only, built as a student builds it (go build
// in its folder) the first time a test of this test binary asks for it,
// into a folder of its own that the test binary removes at the end (Main).
func GoStarter(t testing.TB) string {
	t.Helper()
	goStarter.once.Do(func() { goStarter.path, goStarter.err = buildGoStarter() })
	if goStarter.err != nil {
		t.Fatal(goStarter.err)
	}
	return goStarter.path
}

func buildGoStarter() (string, error) {
	root, err := exec.Command(goTool(), "list", "-m", "-f", "{{.Dir}}").Output()
	if err != nil {
		return "", fmt.Errorf("go list -m: %w", err)
	}
	buildMu.Lock()
	if buildDir == "" {
		if buildDir, err = os.MkdirTemp("", "leaguetest-bin-"); err != nil {
			buildMu.Unlock()
			return "", err
		}
	}
	path := filepath.Join(buildDir, "go-starter")
	buildMu.Unlock()
	build := exec.Command(goTool(), "build", "-o", path, ".")
	build.Dir = filepath.Join(strings.TrimSpace(string(root)), "examples", "go")
	if out, err := build.CombinedOutput(); err != nil {
		return "", fmt.Errorf("go build examples/go: %v\n%s", err, out)
	}
	return path, nil
}
