package check_test

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/leaguetui/leaguetui/engine"
	"github.com/leaguetui/leaguetui/internal/leaguetest"
)

// refereePeer is a badreferee mode: the conformance checks it fails, and
// those it must pass. Each is checked, and referees a real league.
type refereePeer struct {
	mode   string
	fails  []string // the conformance checks it fails, and no other
	passes []string
}

// refereePeers are the broken referees, one per referee check, then those
// that get nothing wrong, or play as other implementations' referees do.
func refereePeers() []refereePeer {
	var out []refereePeer
	for _, b := range brokenReferees {
		out = append(out, refereePeer{mode: b.mode, fails: []string{b.check}})
	}
	return append(out,
		refereePeer{mode: "good"},
		refereePeer{mode: "ignore_refusal", passes: []string{"register/refusal-is-handled"}},
		// Another dialect: START_MATCH, not start_match; leaguetui's manager
		// tries the other forms.
		refereePeer{mode: "start_upper", fails: []string{"referee/acks-start-match"},
			passes: []string{"referee/result-matches-moves"}},
		// No start_match at all: it plays the matches the round
		// announcement gives it, as league.v2 has it.
		refereePeer{mode: "announced", fails: []string{"referee/acks-start-match"},
			passes: []string{"referee/invites-both", "referee/result-matches-moves"}},
	)
}

// refereeMoveTimeout is the move deadline the referee gives, in the
// checker's matches and the league's alike.
const refereeMoveTimeout = "3s"

func badRefereeCommand(t *testing.T, mode string) []string {
	return []string{leaguetest.BadRefereeBinary(t), "--port", "{port}", "--manager", "{manager}", "--name", "{name}",
		"--mode", mode, "--move-timeout", refereeMoveTimeout}
}

// TestRefereeCheckPredictsTheLeague checks each misbehaving referee with
// `leaguetui check --role referee` and makes it the referee of a real
// league: the checker's verdict "plays in a leaguetui league" (its exit
// status, without --strict) says whether the league played the referee's
// matches right (see refereeLeague), and its conformance verdict fails
// what league.v2 forbids, and only that.
func TestRefereeCheckPredictsTheLeague(t *testing.T) {
	for _, p := range refereePeers() {
		t.Run(p.mode, func(t *testing.T) {
			t.Parallel()
			var playedRight bool
			var why string
			var wg sync.WaitGroup
			wg.Go(func() { playedRight, why = refereeLeague(t, p.mode) })
			run := runCheck(t, append([]string{"--role", "referee", "--data", t.TempDir(), "--"}, badRefereeCommand(t, p.mode)...)...)
			wg.Wait()
			t.Logf("check exit status %d; the league played its matches right: %v %s", run.code, playedRight, why)
			got := verdicts(run.stdout)
			if plays := run.code == 0; plays != playedRight {
				t.Errorf("check exit status %d, but the league played the referee's matches right: %v (%s)", run.code, playedRight, why)
			}
			if want := map[bool]string{true: "PASS", false: "FAIL"}[playedRight]; got["plays/referees-matches"] != want {
				t.Errorf("plays/referees-matches: %q, want %s", got["plays/referees-matches"], want)
			}
			for id, v := range got {
				if v == "FAIL" && !slices.Contains(p.fails, id) && !strings.HasPrefix(id, "plays/") {
					t.Errorf("%s: FAIL, want only %v to fail", id, p.fails)
				}
			}
			for _, id := range p.fails {
				if !strings.Contains(run.stdout, "FAIL  MUST   "+id+"\n") {
					t.Errorf("no FAIL line names %s", id)
				}
			}
			for _, id := range p.passes {
				if got[id] != "PASS" {
					t.Errorf("%s: %q, want PASS", id, got[id])
				}
			}
			if t.Failed() {
				t.Logf("stdout:\n%s\nstderr:\n%s", run.stdout, run.stderr)
			}
		})
	}
}

// refereeLeague runs a league of two sound players, bob (built-in) and
// one that answers each move when half the time its call's deadline
// leaves has passed (late, but in time), with the referee of mode as its
// only referee. The league is open (--open-referees), as leagues that
// take other implementations' referees are: the referee presents no
// referee key and sends no match tickets. It reports whether the league
// played the referee's matches right: it completed (it did not stall for
// want of a referee that could take a match), no match ended in a
// technical loss (no player gave cause for one), and each result follows
// even/odd's rule from the moves and the number the referee reported;
// else why not.
func refereeLeague(t *testing.T, mode string) (bool, string) {
	dir, conf := t.TempDir(), t.TempDir()
	patient := []string{leaguetest.BadPlayerBinary(t), "--port", "{port}", "--manager", "{manager}", "--name", "{name}",
		"--mode", "half_deadline"}
	roster := map[string]any{
		"players":  []map[string]any{{"name": "bob", "strategy": "random"}, {"name": "patient", "command": patient}},
		"referees": []map[string]any{{"name": "other", "command": badRefereeCommand(t, mode)}},
	}
	// One attempt per call and short timeouts: a match its referee never
	// reports stalls the league in seconds, not minutes.
	system := `{"timeouts": {"game_join_ack_timeout_sec": 3, "game_over_timeout_sec": 3, "match_result_report_timeout_sec": 3,
	  "generic_response_timeout_sec": 3}, "retry_policy": {"max_retries": 1}}`
	if err := os.WriteFile(filepath.Join(conf, "system.json"), []byte(system), 0o644); err != nil {
		t.Fatal(err)
	}
	rosterPath := leaguetest.WriteJSON(t, roster)
	args := []string{"--no-ui", "--data", dir, "--config", conf, "--roster", rosterPath, "--game", "even_odd", "--seed", "6",
		"--free-ports", "--open-referees", "--games-per-pair", "2", "--move-timeout", refereeMoveTimeout}
	stderr, err := runUntilSettled(t, dir, args)
	if err != nil {
		return false, err.Error()
	}
	if !strings.Contains(stderr, "league completed\n") {
		t.Errorf("the league neither completed nor stalled:\n%s", stderr)
		return false, "the league did not complete"
	}
	journals, _ := filepath.Glob(filepath.Join(dir, "leagues", "*", "journal.jsonl"))
	if len(journals) != 1 {
		t.Errorf("want one journal in %s, found %v", dir, journals)
		return false, "no journal"
	}
	results := 0
	for _, ev := range leaguetest.Journal(t, dir, filepath.Base(filepath.Dir(journals[0]))) {
		if ev.Kind != engine.EventMatchResult {
			continue
		}
		results++
		if why := wrongEvenOddResult(ev); why != "" {
			return false, why
		}
	}
	if results != 2 { // two players, twice
		return false, fmt.Sprintf("%d results, want 2", results)
	}
	return true, ""
}

// wrongEvenOddResult says what is wrong with a match's result: a
// technical loss, or a result that does not follow the moves and the
// drawn number; "" when nothing is.
func wrongEvenOddResult(ev engine.Event) string {
	r := ev.Result
	if r.Status == engine.StatusTechnicalLoss {
		return fmt.Sprintf("%s: technical loss for %v, though both players answer in time", r.MatchID, r.Offenders)
	}
	if ev.Facts == nil {
		return r.MatchID + ": no moves recorded"
	}
	a, b := ev.Facts.Moves[r.PlayerA], ev.Facts.Moves[r.PlayerB]
	n, _ := ev.Facts.Details["drawn_number"].(float64)
	parity := map[bool]string{true: "even", false: "odd"}[int(n)%2 == 0]
	want := ""
	switch {
	case a == b:
	case a == parity:
		want = r.PlayerA
	default:
		want = r.PlayerB
	}
	if r.Winner != want || (want == "") != (r.Status == engine.StatusDraw) {
		return fmt.Sprintf("%s: %s, winner %q; the moves (%s %s, %s %s) and %v give winner %q", r.MatchID, r.Status, r.Winner,
			r.PlayerA, a, r.PlayerB, b, n, want)
	}
	return ""
}

// runUntilSettled runs `leaguetui args…` until the league completes, or
// stops it (Ctrl-C, twice: the second stops at once) when it stalls; the
// error is the stall. It gives what the league said on stderr.
func runUntilSettled(t *testing.T, dir string, args []string) (string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	cmd := exec.Command(leaguetest.Binary(t), args...)
	cmd.Env = append(os.Environ(), leaguetest.ChildEnv()...)
	stderr := &watched{news: make(chan struct{}, 1)}
	cmd.Stderr = stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer leaguetest.KillLeftovers(t, dir)
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	var stalled error
	for stalled == nil {
		select {
		case err := <-exited:
			if err != nil {
				t.Errorf("leaguetui %v: %v\n%s", args, err, stderr.String())
			}
			return stderr.String(), nil
		case <-stderr.news:
			for _, line := range strings.Split(stderr.String(), "\n") {
				if strings.HasPrefix(line, "league stalled: ") {
					stalled = fmt.Errorf("%s", line)
				}
			}
		case <-ctx.Done():
			stalled = fmt.Errorf("the league did not settle within its bound")
			t.Errorf("%v:\n%s", stalled, stderr.String())
		}
	}
	for range 2 {
		_ = cmd.Process.Signal(os.Interrupt)
		select {
		case <-exited:
			return stderr.String(), stalled
		case <-time.After(15 * time.Second):
		}
	}
	_ = cmd.Process.Kill()
	<-exited
	return stderr.String(), stalled
}
