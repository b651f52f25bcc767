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
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/leaguetui/leaguetui/agents/protocol"
	"github.com/leaguetui/leaguetui/internal/leaguetest"
	"github.com/leaguetui/leaguetui/league/check"
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
		if len(f) >= 3 && (f[1] == "MUST" || f[1] == "SHOULD" || f[1] == "PLAYS") {
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

// A leaguetui referee of the link race, given the checker's page server
// in LEAGUETUI_PAGES_URL, runs the checker's race to the right result.
func TestLeaguetuiRefereeRunsALinkRace(t *testing.T) {
	t.Parallel()
	referee := []string{"env", "LEAGUETUI_REFEREE_KEY=" + leaguetest.RefereeKey, leaguetest.Binary(t), "referee",
		"--port", "{port}", "--manager", "{manager}", "--name", "{name}", "--data", "{data}", "--move-timeout", "2s",
		"--league-id", "league_check", "--game", "link_race"}
	run := runCheck(t, append([]string{"--role", "referee", "--game", "link_race", "--json", "--data", t.TempDir(), "--"}, referee...)...)
	if run.code != 0 {
		t.Fatalf("exit status %d, want 0\n%s\n%s", run.code, run.stdout, run.stderr)
	}
	results, summary := readJSON(t, run.stdout)
	for _, r := range results {
		want := check.Pass
		if r.ID == "referee/technical-loss-only-after-deadline" {
			want = check.Skip // checked in even/odd's matches
		}
		if r.Status != want {
			t.Errorf("%s: %s (%s), want %s", r.ID, r.Status, r.Message, want)
		}
	}
	if !summary.Plays || !strings.Contains(run.stderr, "the referee runs link_race R2M1") {
		t.Errorf("summary %+v; stderr:\n%s", summary, run.stderr)
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
	also  []string // the checks that judge the same fault too
}{
	{check: "register/request-is-well-formed", mode: "bad_register"},
	{check: "register/refusal-is-handled", mode: "ignore_refusal"},
	{check: "register/uses-assigned-id", mode: "wrong_sender"},
	{check: "rpc/unknown-method-is-32601", mode: "unknown_ok"},
	{check: "rpc/notification-gets-no-reply", mode: "answer_notifications"},
	{check: "rpc/id-echoed", mode: "id_zero", also: []string{"invite/ack-is-well-formed", "move/response-is-well-formed"}},
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
		if !covered[d.ID] && d.Level == check.Must {
			t.Errorf("no broken player fails %s", d.ID)
		}
	}
}

// peer is a misbehaving player: the conformance checks it must fail and
// pass, with what its runs need. Every peer is checked and played in a
// real league, and the checker's verdict "plays in a leaguetui league"
// must be the league's.
type peer struct {
	mode        string
	fails       []string // conformance checks it fails
	passes      []string // conformance checks it passes
	only        bool     // fails exactly fails, and no other conformance check
	args        []string // badplayer's own
	game        string   // "" for even_odd
	moveTimeout string   // the league's and the checker's, "" for the default
	mentions    string   // what the output must say (a field's name)
	// leagueSays is what the league's match files must say of the peer.
	leagueSays string
}

// otherPeers are players as other implementations write them: most
// play a league whatever conformance says of them.
var otherPeers = []peer{
	{mode: "style"}, {mode: "wrapped"}, {mode: "invalid"}, {mode: "malformed"},
	{mode: "request_reply", fails: []string{"invite/ack-is-well-formed"}},
	{mode: "idle_after_refusal", passes: []string{"register/refusal-is-handled"}, only: true},
	{mode: "lower_types", fails: []string{"invite/ack-is-well-formed", "move/response-is-well-formed"}, only: true},
	{mode: "no_match_id", fails: []string{"invite/ack-is-well-formed", "move/response-is-well-formed"}, only: true},
	{mode: "wrong_string_id", fails: []string{"rpc/id-echoed"}, only: true},
	{mode: "int_id_as_string", fails: []string{"rpc/id-echoed", "invite/ack-is-well-formed", "move/response-is-well-formed"}, only: true},
	{mode: "no_ping", passes: []string{"rpc/survives-malformed-json", "rpc/survives-oversize-body",
		"move/late-call-is-harmless", "move/foreign-match-is-harmless"}, only: true},
	// Refuses an oversize body unread and closes the connection, as
	// docs/check.md allows: the checker's ping after it must go out on a
	// new connection, as a league's referee's next call does.
	{mode: "refuse_oversize", passes: []string{"rpc/survives-oversize-body", "move/late-call-is-harmless"}, only: true},
	{mode: "no_parity", fails: []string{"move/parity-is-even-or-odd"}, mentions: "parity_choice", moveTimeout: "1s",
		leagueSays: "answered without CHOOSE_PARITY_RESPONSE's parity_choice"},
	{mode: "refuse_invites", fails: []string{"invite/ack-within-deadline"}, mentions: "but not with GAME_JOIN_ACK: E012"},
	{mode: "ack_move", game: "link_race", moveTimeout: "1s"},
	{mode: "no_move", game: "link_race"},
}

// peers are every misbehaving player: one per MUST check, failing exactly
// that check, then the others.
func peers() []peer {
	var out []peer
	for _, b := range brokenPlayers {
		p := peer{mode: b.mode, fails: append([]string{b.check}, b.also...), only: true, args: b.args}
		for i := 0; i+1 < len(b.flags); i += 2 {
			switch b.flags[i] {
			case "--game":
				p.game = b.flags[i+1]
			case "--move-timeout":
				p.moveTimeout = b.flags[i+1]
			}
		}
		out = append(out, p)
	}
	return append(out, otherPeers...)
}

// TestCheckPredictsTheLeague checks each misbehaving player with
// `leaguetui check` and plays it in a real league of two: the checker's
// exit status (its verdict "plays in a leaguetui league", without
// --strict) says whether the league gave the player a technical loss, and
// its conformance verdict fails what league.v2 forbids.
func TestCheckPredictsTheLeague(t *testing.T) {
	for _, p := range peers() {
		t.Run(p.mode, func(t *testing.T) {
			t.Parallel()
			game := cmpOr(p.game, "even_odd")
			var losses int
			var matchFiles string
			var wg sync.WaitGroup
			wg.Go(func() { losses, matchFiles = leagueTechnicalLosses(t, p, game) })
			flags := []string{"--game", game, "--data", t.TempDir()}
			if p.moveTimeout != "" {
				flags = append(flags, "--move-timeout", p.moveTimeout)
			}
			cmd := append([]string{leaguetest.BadPlayerBinary(t), "--port", "{port}", "--manager", "{manager}", "--name", "{name}", "--mode", p.mode}, p.args...)
			run := runCheck(t, append(append(flags, "--"), cmd...)...)
			wg.Wait()
			t.Logf("check exit status %d; the league: %d technical losses", run.code, losses)
			if plays := run.code == 0; plays != (losses == 0) {
				t.Errorf("check exit status %d, but the league gave the player %d technical losses", run.code, losses)
			}
			if losses > 0 && !strings.Contains(run.stdout, "FAIL  PLAYS  plays/"+game) {
				t.Errorf("no FAIL line names plays/%s", game)
			}
			got := verdicts(run.stdout)
			for _, id := range p.fails {
				if got[id] != "FAIL" {
					t.Errorf("%s: %q, want FAIL", id, got[id])
				}
			}
			for _, id := range p.passes {
				if got[id] != "PASS" {
					t.Errorf("%s: %q, want PASS", id, got[id])
				}
			}
			for id, v := range got {
				if p.only && v == "FAIL" && !slices.Contains(p.fails, id) && !strings.HasPrefix(id, "plays/") {
					t.Errorf("%s: FAIL, want only %v to fail", id, p.fails)
				}
			}
			if p.mentions != "" && !strings.Contains(run.stdout, p.mentions) {
				t.Errorf("the output does not name %s", p.mentions)
			}
			if p.leagueSays != "" && !strings.Contains(matchFiles, p.leagueSays) {
				t.Errorf("the league's match files do not say %q", p.leagueSays)
			}
			if t.Failed() {
				t.Logf("stdout:\n%s\nstderr:\n%s", run.stdout, run.stderr)
			}
		})
	}
}

func cmpOr(s, otherwise string) string {
	if s == "" {
		return otherwise
	}
	return s
}

// leagueTechnicalLosses plays the peer in a league of two, with a built-in
// opponent, and counts its technical losses in the final standings; it
// gives the match files too.
func leagueTechnicalLosses(t *testing.T, p peer, game string) (int, string) {
	dir := t.TempDir()
	strategy := map[string]string{"even_odd": "random", "link_race": "greedy"}[game]
	cmd := append([]string{leaguetest.BadPlayerBinary(t), "--port", "{port}", "--manager", "{manager}", "--name", "{name}", "--mode", p.mode}, p.args...)
	roster, err := json.Marshal(map[string]any{"players": []map[string]any{{"name": "bob", "strategy": strategy},
		{"name": "bad", "command": cmd}}})
	if err != nil {
		t.Error(err)
		return -1, ""
	}
	path := filepath.Join(t.TempDir(), "roster.json")
	if err := os.WriteFile(path, roster, 0o644); err != nil {
		t.Error(err)
		return -1, ""
	}
	args := []string{"--no-ui", "--data", dir, "--roster", path, "--game", game, "--seed", "6", "--free-ports"}
	if p.moveTimeout != "" {
		args = append(args, "--move-timeout", p.moveTimeout)
	}
	run := leaguetest.RunLeaguetui(t, dir, 3*time.Minute, nil, args...)
	if run.Err != nil {
		t.Errorf("the league: %v\n%s", run.Err, run.Stderr)
		return -1, ""
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*", "*", "standings.json"))
	files2, _ := filepath.Glob(filepath.Join(dir, "*", "standings.json"))
	files = append(files, files2...)
	if len(files) != 1 {
		t.Errorf("want one standings file in %s, found %v", dir, files)
		return -1, ""
	}
	var standings protocol.StandingsFile
	leaguetest.ReadJSON(t, files[0], &standings)
	var matches strings.Builder
	matchFiles, _ := filepath.Glob(filepath.Join(dir, "matches", "*", "*.json"))
	for _, f := range matchFiles {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Error(err)
		}
		matches.Write(data)
	}
	for _, row := range standings.Standings {
		if row.DisplayName == "bad" {
			if row.Played == 0 {
				t.Errorf("the peer played no match: %+v", row)
			}
			return row.TechnicalLosses, matches.String()
		}
	}
	t.Errorf("the peer is not in the standings: %+v", standings.Standings)
	return -1, ""
}

func TestExpectedFailures(t *testing.T) {
	t.Parallel()
	list := filepath.Join(t.TempDir(), "expected")
	if err := os.WriteFile(list, []byte("# EVEN is not a parity\nmove/parity-is-even-or-odd\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	upper := []string{leaguetest.BadPlayerBinary(t), "--port", "{port}", "--manager", "{manager}", "--name", "{name}", "--mode", "upper"}
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
