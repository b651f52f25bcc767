package check_test

import (
	"bytes"
	"context"
	"encoding/json"
	"encoding/xml"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/leaguetui/leaguetui/agents/check"
	"github.com/leaguetui/leaguetui/internal/leaguetest"
)

func TestMain(m *testing.M) { leaguetest.Main(m) }

// checkRun is one `leaguetui check` that has exited.
type checkRun struct {
	stdout, stderr string
	code           int
}

// runCheck runs `leaguetui check args…` until it exits, within a bound.
func runCheck(t *testing.T, args ...string) checkRun {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, leaguetest.Binary(t), append([]string{"check"}, args...)...)
	cmd.Env = append(os.Environ(), leaguetest.ChildEnv()...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	run := checkRun{stdout: stdout.String(), stderr: stderr.String()}
	var exit *exec.ExitError
	switch {
	case errors.As(err, &exit):
		run.code = exit.ExitCode()
	case err != nil:
		t.Fatalf("leaguetui check %v: %v\n%s", args, err, run.stderr)
	}
	if ctx.Err() != nil {
		t.Fatalf("leaguetui check %v did not end within its bound\n%s\n%s", args, run.stdout, run.stderr)
	}
	return run
}

// verdicts reads the check lines of the text output: id -> PASS, FAIL, SKIP…
func verdicts(out string) map[string]string {
	got := map[string]string{}
	for _, line := range strings.Split(out, "\n") {
		f := strings.Fields(line)
		if len(f) >= 3 && (f[1] == "MUST" || f[1] == "SHOULD") {
			got[strings.TrimSuffix(f[2], ":")] = f[0]
		}
	}
	return got
}

// leaguetuiPlayer is the command line of leaguetui's own player.
func leaguetuiPlayer(t *testing.T) []string {
	return []string{leaguetest.Binary(t), "player", "--port", "{port}", "--manager", "{manager}", "--name", "{name}", "--data", "{data}",
		"--league-id", "league_check"} // leaguetui's agents keep their credentials per league
}

func TestLeaguetuiPlayerPassesEveryCheck(t *testing.T) {
	t.Parallel()
	junit := filepath.Join(t.TempDir(), "check.xml")
	run := runCheck(t, append([]string{"--strict", "--junit", junit, "--data", t.TempDir(), "--"}, leaguetuiPlayer(t)...)...)
	if run.code != 0 {
		t.Fatalf("exit status %d, want 0\n%s\n%s", run.code, run.stdout, run.stderr)
	}
	got := verdicts(run.stdout)
	want := check.Selected(check.PlayerRole, true)
	for _, d := range want {
		if got[d.ID] != "PASS" {
			t.Errorf("%s: %q, want PASS\n%s", d.ID, got[d.ID], run.stdout)
		}
	}
	if len(got) != len(want) {
		t.Errorf("%d check lines, want %d:\n%s", len(got), len(want), run.stdout)
	}
	checkJUnit(t, junit, want, nil)
}

func TestLeaguetuiRefereePassesEveryCheck(t *testing.T) {
	t.Parallel()
	referee := []string{"env", "LEAGUETUI_REFEREE_KEY=" + leaguetest.RefereeKey, leaguetest.Binary(t), "referee",
		"--port", "{port}", "--manager", "{manager}", "--name", "{name}", "--data", "{data}", "--move-timeout", "2s",
		"--league-id", "league_check"}
	run := runCheck(t, append([]string{"--strict", "--role", "referee", "--json", "--data", t.TempDir(), "--"}, referee...)...)
	if run.code != 0 {
		t.Fatalf("exit status %d, want 0\n%s\n%s", run.code, run.stdout, run.stderr)
	}
	results, summary := readJSON(t, run.stdout)
	want := check.Selected(check.RefereeRole, true)
	if len(results) != len(want) {
		t.Errorf("%d results, want one per check (%d)", len(results), len(want))
	}
	for i, d := range want {
		if i < len(results) && (results[i].ID != d.ID || results[i].Status != check.Pass) {
			t.Errorf("result %d: %s %s (%s), want %s PASS", i, results[i].ID, results[i].Status, results[i].Message, d.ID)
		}
	}
	if !summary.OK || summary.Passed != len(want) {
		t.Errorf("summary %+v, want all %d passed", summary, len(want))
	}
}

// readJSON reads --json output: one object per check, then the summary.
func readJSON(t *testing.T, out string) ([]check.Result, check.Summary) {
	t.Helper()
	lines := strings.Split(strings.TrimSpace(out), "\n")
	var results []check.Result
	for _, line := range lines[:len(lines)-1] {
		var r check.Result
		if err := json.Unmarshal([]byte(line), &r); err != nil {
			t.Fatalf("a --json line is not a result: %v\n%s", err, line)
		}
		results = append(results, r)
	}
	var last struct {
		Summary *check.Summary `json:"summary"`
	}
	if err := json.Unmarshal([]byte(lines[len(lines)-1]), &last); err != nil || last.Summary == nil {
		t.Fatalf("the last --json line is not the summary: %v\n%s", err, lines[len(lines)-1])
	}
	return results, *last.Summary
}

// checkJUnit parses a JUnit file: one testcase per check, a failure
// element on exactly the failed ones.
func checkJUnit(t *testing.T, path string, want []check.Def, failed map[string]bool) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Suites []struct {
			Tests    int `xml:"tests,attr"`
			Failures int `xml:"failures,attr"`
			Cases    []struct {
				Name    string    `xml:"name,attr"`
				Failure *struct{} `xml:"failure"`
			} `xml:"testcase"`
		} `xml:"testsuite"`
	}
	if err := xml.Unmarshal(data, &doc); err != nil {
		t.Fatalf("the JUnit file is not XML: %v\n%s", err, data)
	}
	if len(doc.Suites) != 1 || len(doc.Suites[0].Cases) != len(want) || doc.Suites[0].Tests != len(want) {
		t.Fatalf("want one testsuite of %d testcases, got:\n%s", len(want), data)
	}
	for i, c := range doc.Suites[0].Cases {
		if c.Name != want[i].ID || (c.Failure != nil) != failed[c.Name] {
			t.Errorf("testcase %d: %s failure=%v, want %s failure=%v", i, c.Name, c.Failure != nil, want[i].ID, failed[want[i].ID])
		}
	}
	if doc.Suites[0].Failures != len(failed) {
		t.Errorf("failures=%d, want %d", doc.Suites[0].Failures, len(failed))
	}
}

// brokenPlayers are, for each MUST check of a player, a badplayer mode
// that fails exactly that check (and the flags its run needs).
var brokenPlayers = []struct {
	check string
	mode  string
	args  []string // badplayer's own
	flags []string // the checker's
}{
	{check: "register/request-is-well-formed", mode: "bad_register"},
	{check: "register/refusal-is-handled", mode: "ignore_refusal"},
	{check: "register/uses-assigned-id", mode: "wrong_sender"},
	{check: "rpc/unknown-method-is-32601", mode: "unknown_ok"},
	{check: "rpc/notification-gets-no-reply", mode: "answer_notifications"},
	{check: "rpc/id-echoed", mode: "id_zero"},
	{check: "notify/acks", mode: "no_notify_ack"},
	{check: "invite/ack-within-deadline", mode: "stall"},
	{check: "invite/ack-is-well-formed", mode: "decline"},
	{check: "move/answer-within-deadline", mode: "slow", args: []string{"--delay", "3s"}, flags: []string{"--move-timeout", "1s"}},
	{check: "move/parity-is-even-or-odd", mode: "upper"},
	{check: "move/link-is-on-the-page", mode: "wrong_link", flags: []string{"--game", "link_race"}},
	{check: "move/response-is-well-formed", mode: "no_move_type"},
	{check: "result/ack", mode: "no_result_ack"},
	{check: "rpc/survives-malformed-json", mode: "crash_on_malformed"},
	{check: "rpc/survives-oversize-body", mode: "crash_on_oversize"},
	{check: "move/late-call-is-harmless", mode: "crash_on_late"},
	{check: "move/foreign-match-is-harmless", mode: "crash_on_foreign"},
}

func TestEveryMustCheckHasABrokenPlayer(t *testing.T) {
	covered := map[string]bool{}
	for _, b := range brokenPlayers {
		covered[b.check] = true
	}
	for _, d := range check.Selected(check.PlayerRole, false) {
		if !covered[d.ID] {
			t.Errorf("no broken player fails %s", d.ID)
		}
	}
}

// Each broken player fails its check, and no other: exit status 1 and a
// FAIL line naming the check.
func TestBrokenPlayerFailsItsCheck(t *testing.T) {
	for _, b := range brokenPlayers {
		t.Run(b.mode, func(t *testing.T) {
			t.Parallel()
			flags := b.flags
			if len(flags) == 0 || flags[0] != "--game" {
				flags = append([]string{"--game", "even_odd"}, flags...)
			}
			cmd := append([]string{leaguetest.BadPlayerBinary(t), "--manager", "{manager}", "--name", "{name}", "--mode", b.mode}, b.args...)
			run := runCheck(t, append(append(flags, "--data", t.TempDir(), "--"), cmd...)...)
			if run.code != 1 {
				t.Errorf("exit status %d, want 1", run.code)
			}
			for id, v := range verdicts(run.stdout) {
				if (v == "FAIL") != (id == b.check) {
					t.Errorf("%s: %s", id, v)
				}
			}
			if !strings.Contains(run.stdout, "FAIL  MUST   "+b.check+"\n") {
				t.Errorf("no FAIL line names %s", b.check)
			}
			if t.Failed() {
				t.Logf("stdout:\n%s\nstderr:\n%s", run.stdout, run.stderr)
			}
		})
	}
}

func TestExpectedFailures(t *testing.T) {
	t.Parallel()
	list := filepath.Join(t.TempDir(), "expected")
	if err := os.WriteFile(list, []byte("# EVEN is not a parity\nmove/parity-is-even-or-odd\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	upper := []string{leaguetest.BadPlayerBinary(t), "--manager", "{manager}", "--name", "{name}", "--mode", "upper"}
	run := runCheck(t, append([]string{"--game", "even_odd", "--expected-failures", list, "--data", t.TempDir(), "--"}, upper...)...)
	if run.code != 0 || verdicts(run.stdout)["move/parity-is-even-or-odd"] != "XFAIL" {
		t.Errorf("a listed check that fails: exit status %d, want 0 and XFAIL\n%s", run.code, run.stdout)
	}
	junit := filepath.Join(t.TempDir(), "check.xml")
	run = runCheck(t, append([]string{"--game", "even_odd", "--expected-failures", list, "--junit", junit, "--data", t.TempDir(), "--"},
		leaguetuiPlayer(t)...)...)
	if run.code != 1 || verdicts(run.stdout)["move/parity-is-even-or-odd"] != "XPASS" ||
		!strings.Contains(run.stdout, "take it off the list") {
		t.Errorf("a listed check that passes: exit status %d, want 1 and XPASS\n%s", run.code, run.stdout)
	}
	checkJUnit(t, junit, check.Selected(check.PlayerRole, false), map[string]bool{"move/parity-is-even-or-odd": true})

	if err := os.WriteFile(list, []byte("move/no-such-check\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if run := runCheck(t, "--expected-failures", list, "--listen"); run.code != 2 {
		t.Errorf("an unknown id in the list: exit status %d, want 2\n%s", run.code, run.stderr)
	}
}

func TestUsageErrors(t *testing.T) {
	t.Parallel()
	for _, args := range [][]string{
		{},                                 // no command, no --listen
		{"--listen", "--", "python3", "x"}, // both
		{"--role", "manager", "--listen"},  // no such role
		{"--game", "chess", "--listen"},    // no such game
		{"--", "prog", "--port", "{nope}"}, // unknown placeholder
		{"--no-such-flag"},                 // unknown flag
	} {
		if run := runCheck(t, args...); run.code != 2 || !strings.Contains(run.stderr, "see --help") {
			t.Errorf("leaguetui check %q: exit status %d, want 2 with a one-line reason\n%s", args, run.code, run.stderr)
		}
	}
}

// --listen prints the manager URL and checks the player a person (here,
// the test) starts with it.
func TestListenChecksAPlayerStartedByHand(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, leaguetest.Binary(t), "check", "--listen", "--game", "even_odd")
	cmd.Env = append(os.Environ(), leaguetest.ChildEnv()...)
	var stdout bytes.Buffer
	stderr := &watched{news: make(chan struct{}, 1)}
	cmd.Stdout, cmd.Stderr = &stdout, stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = cmd.Process.Kill() }() // a no-op once it has exited
	managerURL := ""
	for managerURL == "" {
		select {
		case <-stderr.news:
		case <-ctx.Done():
			t.Fatalf("leaguetui check --listen printed no manager URL:\n%s", stderr.String())
		}
		for _, line := range strings.Split(stderr.String(), "\n") {
			if url, ok := strings.CutPrefix(line, "leaguetui check: manager at "); ok && strings.HasSuffix(url, "/mcp") {
				managerURL = url
			}
		}
	}
	dir := t.TempDir()
	leaguetest.StartPlayer(t, dir, managerURL, "by-hand")
	if err := cmd.Wait(); err != nil {
		t.Fatalf("leaguetui check --listen: %v\n%s", err, stdout.String())
	}
	got := verdicts(stdout.String())
	if got["register/refusal-is-handled"] != "SKIP" || got["move/parity-is-even-or-odd"] != "PASS" || got["result/ack"] != "PASS" {
		t.Errorf("verdicts of a player started by hand:\n%s", stdout.String())
	}
}

// docs/check.md lists every check as the catalogue has it.
func TestCheckDocListsEveryCheck(t *testing.T) {
	_, file, _, _ := runtime.Caller(0)
	doc, err := os.ReadFile(filepath.Join(filepath.Dir(file), "..", "..", "docs", "check.md"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(doc), check.Markdown()) {
		t.Errorf("docs/check.md's table of checks is not the catalogue's; put this table in it:\n%s", check.Markdown())
	}
}

// brokenReferees are, for each check of a referee's own, and its
// registration's, a badreferee mode that fails exactly that check (the
// JSON-RPC checks are shared with players and covered by brokenPlayers).
var brokenReferees = []struct{ check, mode string }{
	{"register/request-is-well-formed", "bad_register"},
	{"register/uses-assigned-id", "wrong_sender"},
	{"referee/acks-start-match", "no_ack_start"},
	{"referee/invites-both", "invite_one"},
	{"referee/asks-both-for-a-move", "no_move_call"},
	{"referee/result-matches-moves", "wrong_winner"},
	{"referee/reports-once", "report_twice"},
	{"referee/technical-loss-only-after-deadline", "early_tl"},
}

func TestEveryRefereeCheckHasABrokenReferee(t *testing.T) {
	covered := map[string]bool{}
	for _, b := range brokenReferees {
		covered[b.check] = true
	}
	for _, d := range check.Selected(check.RefereeRole, false) {
		if strings.HasPrefix(d.ID, "referee/") && !covered[d.ID] {
			t.Errorf("no broken referee fails %s", d.ID)
		}
	}
}

func TestBrokenRefereeFailsItsCheck(t *testing.T) {
	for _, b := range append(brokenReferees, struct{ check, mode string }{"", "good"}) {
		t.Run(b.mode, func(t *testing.T) {
			t.Parallel()
			cmd := []string{leaguetest.BadRefereeBinary(t), "--manager", "{manager}", "--name", "{name}", "--mode", b.mode}
			run := runCheck(t, append([]string{"--role", "referee", "--data", t.TempDir(), "--"}, cmd...)...)
			want := 1
			if b.check == "" {
				want = 0 // the mode that gets nothing wrong
			}
			if run.code != want {
				t.Errorf("exit status %d, want %d", run.code, want)
			}
			for id, v := range verdicts(run.stdout) {
				if (v == "FAIL") != (id == b.check) {
					t.Errorf("%s: %s", id, v)
				}
			}
			if b.check != "" && !strings.Contains(run.stdout, "FAIL  MUST   "+b.check+"\n") {
				t.Errorf("no FAIL line names %s", b.check)
			}
			if t.Failed() {
				t.Logf("stdout:\n%s\nstderr:\n%s", run.stdout, run.stderr)
			}
		})
	}
}

// watched is a writer that says when something was written to it.
type watched struct {
	mu   sync.Mutex
	buf  bytes.Buffer
	news chan struct{}
}

func (w *watched) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	select {
	case w.news <- struct{}{}:
	default:
	}
	return w.buf.Write(p)
}

func (w *watched) String() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.buf.String()
}
