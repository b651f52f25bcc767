package check_test

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/leaguetui/leaguetui/internal/leaguetest"
)

// examples is the folder of the starter players.
func examples(t *testing.T) string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..", "examples")
}

// interpreter finds a starter's interpreter: a missing one skips, except
// under CI=true, where it fails.
func interpreter(t *testing.T, name string) string {
	path, err := exec.LookPath(name)
	if err != nil {
		leaguetest.SkipWithout(t, "no "+name+" to run the starter with: "+err.Error())
	}
	return path
}

// jdk finds the java of a JDK 17 or newer on PATH (javac beside it: the
// source launcher needs the compiler); none skips, except under CI=true.
func jdk(t *testing.T) string {
	java := interpreter(t, "java")
	resolved, err := filepath.EvalSymlinks(java)
	if err == nil {
		_, err = os.Stat(filepath.Join(filepath.Dir(resolved), "javac"))
	}
	if err != nil {
		leaguetest.SkipWithout(t, "no JDK to run examples/java/Player.java with (Debian: openjdk-17-jdk-headless): "+err.Error())
	}
	out, err := exec.Command(java, "-version").CombinedOutput()
	version := regexp.MustCompile(`version "(\d+)`).FindSubmatch(out)
	if err != nil || version == nil {
		t.Fatalf("%s -version: %v\n%s", java, err, out)
	}
	if n, _ := strconv.Atoi(string(version[1])); n < 17 {
		leaguetest.SkipWithout(t, fmt.Sprintf("%s is Java %d; examples/java/Player.java needs 17 or newer", java, n))
	}
	return java
}

// Each starter passes every check, the SHOULD ones too.
func TestStartersPassStrict(t *testing.T) {
	starters := map[string]func(t *testing.T) []string{
		"python": func(t *testing.T) []string {
			return []string{interpreter(t, "python3"), filepath.Join(examples(t), "python", "player.py")}
		},
		"node": func(t *testing.T) []string {
			return []string{interpreter(t, "node"), filepath.Join(examples(t), "node", "player.js")}
		},
		"java": func(t *testing.T) []string {
			// Source-launch mode, no build step, with the java on PATH as it
			// is installed (Debian's links its configuration into /etc).
			return []string{jdk(t), filepath.Join(examples(t), "java", "Player.java")}
		},
		"go": func(t *testing.T) []string { return []string{leaguetest.GoStarter(t)} },
	}
	for name, command := range starters {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			cmd := append(command(t), "--port", "{port}", "--manager", "{manager}", "--name", "{name}", "--data", "{data}")
			run := runCheck(t, append([]string{"--strict", "--move-timeout", "10s", "--"}, cmd...)...)
			if run.code != 0 || !strings.Contains(run.stdout, "OK: ") {
				t.Errorf("exit status %d, want 0\n%s\n%s", run.code, run.stdout, run.stderr)
			}
			for id, v := range verdicts(run.stdout) {
				if v != "PASS" {
					t.Errorf("%s: %s", id, v)
				}
			}
			// The verdict names the sandbox it holds for: the strength line,
			// its syscall filter and listen's supervision among it.
			if !regexp.MustCompile(`(?m)^sandbox: .*native ABI only.*listen on an unbound socket`).MatchString(run.stdout) {
				t.Errorf("the verdict does not end on the sandbox's strength line\n%s", run.stdout)
			}
		})
	}
}
