//go:build unix

package main_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/leaguetui/leaguetui/agents/node"
	"github.com/leaguetui/leaguetui/internal/leaguetest"
)

// readmeCommands are the lines of the README's "Common commands" block,
// each without its comment.
func readmeCommands(t *testing.T) []string {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join("..", "..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	text := string(raw)
	i := strings.Index(text, "\n## Common commands\n")
	if i < 0 {
		t.Fatal(`README.md has no "## Common commands" section`)
	}
	text = text[i:]
	start := strings.Index(text, "\n```sh\n")
	if start < 0 {
		t.Fatal(`README.md's "Common commands" has no sh block`)
	}
	text = text[start+len("\n```sh\n"):]
	block, _, ok := strings.Cut(text, "\n```")
	if !ok {
		t.Fatal(`README.md's "Common commands" block does not end`)
	}
	comment := regexp.MustCompile(`\s{2,}# .*$`)
	var lines []string
	for _, line := range strings.Split(block, "\n") {
		if line = strings.TrimSpace(comment.ReplaceAllString(line, "")); line != "" {
			lines = append(lines, line)
		}
	}
	if len(lines) < 10 {
		t.Fatalf("README.md's common commands: only %d lines: %q", len(lines), lines)
	}
	return lines
}

// freshClone is a scratch folder laid out as a fresh clone of the
// repository: every top-level entry of the work tree linked in, but for
// git's own and what a league or report writes.
func freshClone(t *testing.T) string {
	t.Helper()
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	entries, err := os.ReadDir(root)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	written := regexp.MustCompile(`^(\.git|data|data-.*|report-.*|roster\.json|leaguetui)$`)
	for _, e := range entries {
		if written.MatchString(e.Name()) {
			continue
		}
		if err := os.Symlink(filepath.Join(root, e.Name()), filepath.Join(dir, e.Name())); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// readmeRunTimeout bounds one command of the block; bench, the longest,
// takes about a minute with -race on a shared 2-core machine.
const readmeRunTimeout = 5 * time.Minute

// TestReadmeCommonCommandsRunInOrder (issue 49, item 6): the README's
// common commands, parsed out of README.md, run top to bottom in a fresh
// clone, each exiting 0: no league of one refuses the next. As a test
// runs them: `go run ./cmd/leaguetui` is the binary the tests build, a
// league takes --free-ports (leagues of other tests may hold the default
// ports), the console's leagues run with --no-ui (the same league,
// headless), a fixed port of the web view or of the manager alone is 0
// (the kernel's choice), the manager alone runs until it is ready and is
// then stopped (SIGTERM, exit 0), and replay runs in a real terminal
// (tmux) and is quit with q. Only the console attached to HOST (a
// machine of the reader's; --no-ui has no attached mode) is skipped.
func TestReadmeCommonCommandsRunInOrder(t *testing.T) {
	bin := leaguetest.Binary(t)
	dir := freshClone(t)
	quoted := "'" + bin + "'"
	for i, line := range readmeCommands(t) {
		words := strings.Fields(strings.ReplaceAll(line, "go run ./cmd/leaguetui", "leaguetui"))
		name := fmt.Sprintf("%02d %s", i+1, strings.Join(words[:min(3, len(words))], " "))
		t.Run(name, func(t *testing.T) {
			t.Logf("README: %s", line)
			cmd := strings.ReplaceAll(line, "go run ./cmd/leaguetui", quoted)
			switch {
			case strings.Contains(cmd, " --attach "):
				t.Skip("the console attached to a manager on HOST, a machine of the reader's: only a terminal shows it, and --no-ui takes no --attach")
			case strings.Contains(cmd, "python3 ") && !have("python3"):
				leaguetest.SkipWithout(t, "no python3: this command runs the Python starter player")
			}
			// A league: free ports, and the console's league headless.
			league := quoted + " --"
			if strings.Contains(cmd, league) {
				flags := " --free-ports"
				if !strings.Contains(cmd, "--no-ui") {
					flags = " --no-ui" + flags
				}
				cmd = strings.Replace(cmd, league, quoted+flags+" --", 1)
			}
			cmd = strings.ReplaceAll(cmd, "--web 127.0.0.1:8080", "--web 127.0.0.1:0")
			switch {
			case strings.Contains(cmd, quoted+" manager "):
				runAgentUntilReady(t, dir, strings.Replace(strings.Replace(cmd, quoted, "exec "+quoted, 1), "--port 8000", "--port 0", 1))
			case strings.Contains(cmd, quoted+" replay "):
				runInTerminal(t, dir, cmd)
			case strings.Contains(cmd, "| jq ") && !have("jq"):
				// No jq here: the same pipeline's first half, and jq's filter done here.
				first, _, _ := strings.Cut(cmd, "|")
				out := runShell(t, dir, first)
				var doc struct {
					Standings struct {
						Standings []struct {
							PlayerID string `json:"player_id"`
						} `json:"standings"`
					} `json:"standings"`
				}
				lines := strings.Split(strings.TrimSpace(out), "\n")
				if err := json.Unmarshal([]byte(lines[len(lines)-1]), &doc); err != nil || len(doc.Standings.Standings) == 0 {
					t.Errorf("the last line of stdout is not the standings line (%v):\n%s", err, out)
				}
			case strings.HasPrefix(cmd, "source <("):
				runShell(t, dir, cmd+" && complete -p leaguetui")
			default:
				if out := runShell(t, dir, cmd); strings.Contains(cmd, "| jq ") && !regexp.MustCompile(`^P\d+\n$`).MatchString(out) {
					t.Errorf("the champion: stdout %q, want one player id", out)
				}
			}
		})
	}
	// What the block left: a league in each data folder it named, the
	// report beside them.
	for _, want := range []string{"data", "data-8", "data-json", "data-swiss", "data-race", "data-config", "data-roster", "data-web", "report-league_2025_even_odd/index.html"} {
		if _, err := os.Stat(filepath.Join(dir, want)); err != nil {
			t.Errorf("after the block: %v", err)
		}
	}
}

func have(program string) bool {
	_, err := exec.LookPath(program)
	return err == nil
}

// runShell runs one line with bash (pipefail) in dir, bounded, requires
// exit status 0 and returns its stdout.
func runShell(t *testing.T, dir, line string) string {
	t.Helper()
	cmd := exec.Command("bash", "-o", "pipefail", "-c", line)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), leaguetest.ChildEnv()...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	select {
	case err := <-exited:
		if err != nil {
			t.Fatalf("%s: %v (want exit status 0)\nstdout:\n%s\nstderr:\n%s", line, err, stdout.String(), stderr.String())
		}
	case <-time.After(readmeRunTimeout):
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGTERM) // leaguetui stops its agents
		<-exited
		t.Fatalf("%s: still running after %s\nstderr:\n%s", line, readmeRunTimeout, stderr.String())
	}
	return stdout.String()
}

// runAgentUntilReady runs a line that starts one agent, which runs until
// stopped: it waits for the agent's ready line, then stops it with
// SIGTERM and requires exit status 0.
func runAgentUntilReady(t *testing.T, dir, line string) {
	t.Helper()
	cmd := exec.Command("bash", "-c", line)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), leaguetest.ChildEnv()...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	ready := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			if url, ok := strings.CutPrefix(sc.Text(), node.ReadyListening); ok {
				ready <- url
			}
		}
		close(ready)
	}()
	select {
	case url, ok := <-ready:
		if !ok {
			_ = cmd.Wait()
			t.Fatalf("%s: exited before it was ready\nstderr:\n%s", line, stderr.String())
		}
		t.Logf("ready at %s", url)
	case <-time.After(leaguetest.ReadyTimeout):
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		t.Fatalf("%s: not ready within %s\nstderr:\n%s", line, leaguetest.ReadyTimeout, stderr.String())
	}
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	select {
	case err := <-exited:
		if err != nil {
			t.Errorf("%s: stopped with SIGTERM: %v (want exit status 0)\nstderr:\n%s", line, err, stderr.String())
		}
	case <-time.After(30 * time.Second):
		_ = cmd.Process.Kill()
		<-exited
		t.Fatalf("%s: did not stop on SIGTERM\nstderr:\n%s", line, stderr.String())
	}
}

// runInTerminal runs an interactive line in a real terminal (tmux): it
// waits for the replay of the first match, quits with q and requires exit
// status 0.
func runInTerminal(t *testing.T, dir, line string) {
	t.Helper()
	// The shell says how the command ended, on the screen tmux keeps
	// (remain-on-exit): tmux's own pane status, read when the program is
	// the pane's process, was seen empty for good under CI=true.
	const ended = "leaguetui ended with status "
	x := leaguetest.NewTmux(t, 100, 30, "cd '"+dir+"' && "+line+"; echo '"+ended+"'$?")
	x.WaitScreen(30*time.Second, "replay · league", "match 1 of")
	x.Keys("q")
	deadline := time.Now().Add(30 * time.Second)
	for !strings.Contains(x.Transcript(), ended) {
		if time.Now().After(deadline) {
			t.Fatalf("%s: did not quit on q:\n%s\nprocesses in the terminal:\n%s", line, x.Transcript(), processesUnder(x.Pane("#{pane_pid}")))
		}
		time.Sleep(50 * time.Millisecond) // a poll interval, as WaitScreen's
	}
	if transcript := x.Transcript(); !strings.Contains(transcript, ended+"0") {
		t.Errorf("%s: want status 0:\n%s", line, transcript)
	}
}

// processesUnder lists the processes whose parent is pid, with their
// state, for a failure's message.
func processesUnder(pid string) string {
	out, err := exec.Command("ps", "-o", "pid,stat,wchan:20,args", "--ppid", pid).CombinedOutput()
	if err != nil {
		return fmt.Sprintf("ps --ppid %s: %v: %s", pid, err, out)
	}
	return string(out)
}
