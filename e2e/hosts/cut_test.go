//go:build linux

package hosts_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/leaguetui/leaguetui/agents/tlsconf"
	"github.com/leaguetui/leaguetui/engine"
	"github.com/leaguetui/leaguetui/league/control"
)

// controlEnv makes the test binary, run again inside a namespace, the
// league's control client (see runControl): the test process itself is on
// the host, which has no address on the test's LAN.
const controlEnv = "LEAGUETUI_TEST_CONTROL"

// watchEnv makes runControl only watch a league already under way.
const watchEnv = "LEAGUETUI_TEST_WATCH"

// runControl starts the league of the manager at base with the admin
// token of LEAGUETUI_ADMIN_TOKEN (unless watchEnv is set), then prints each
// event of its feed as a line "EVENT <json>" until the league ends. It
// returns the exit status.
func runControl(base string) int {
	if err := tlsconf.Setup(os.Getenv("LEAGUETUI_TLS_CA")); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	ctl := control.New(base, os.Getenv("LEAGUETUI_ADMIN_TOKEN"))
	if os.Getenv(watchEnv) == "" {
		if err := ctl.Start(ctx); err != nil {
			fmt.Fprintln(os.Stderr, "start:", err)
			return 1
		}
	}
	out := json.NewEncoder(os.Stdout)
	var cursor int64
	for {
		page, err := ctl.Events(ctx, cursor, 5*time.Second)
		if err != nil {
			fmt.Fprintln(os.Stderr, "events:", err)
			return 1
		}
		for _, ev := range page.Events {
			fmt.Print("EVENT ")
			_ = out.Encode(ev)
			if ev.Kind == engine.EventLeagueCompleted || ev.Kind == engine.EventStopped {
				return 0
			}
		}
		cursor = page.LastSeq
	}
}

// feed is the control client run on a machine of the LAN: it starts the
// league and passes its events on.
type feed struct {
	events chan engine.Event
}

func startControl(t *testing.T, g *lanLeague, machine string) *feed {
	t.Helper()
	return startFeed(t, g, machine)
}

// watchLeague is a feed from a machine of the LAN of a league already
// started.
func watchLeague(t *testing.T, g *lanLeague, machine string) *feed {
	t.Helper()
	return startFeed(t, g, machine, watchEnv+"=1")
}

func startFeed(t *testing.T, g *lanLeague, machine string, env ...string) *feed {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("ip", "netns", "exec", g.lan.ns[machine], exe)
	cmd.Env = append(append(os.Environ(), controlEnv+"="+g.base(), "LEAGUETUI_ADMIN_TOKEN="+g.admin), env...)
	if g.ca != nil {
		cmd.Env = append(cmd.Env, "LEAGUETUI_TLS_CA="+g.ca.CertFile)
	}
	var stderr strings.Builder
	cmd.Stderr = &stderr
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	f := &feed{events: make(chan engine.Event, 1024)}
	go func() {
		defer close(f.events)
		scanner := bufio.NewScanner(stdout)
		scanner.Buffer(nil, 16<<20)
		for scanner.Scan() {
			var ev engine.Event
			if line, ok := strings.CutPrefix(scanner.Text(), "EVENT "); ok && json.Unmarshal([]byte(line), &ev) == nil {
				f.events <- ev
			}
		}
	}()
	t.Cleanup(func() {
		_ = syscall.Kill(cmd.Process.Pid, syscall.SIGKILL) // by PID; already gone when the league ended
		err := cmd.Wait()
		if t.Failed() {
			t.Logf("control client (%v), its stderr:\n%s", err, stderr.String())
		}
	})
	return f
}

// next returns the next event that match accepts, failing past timeout or
// at the end of the feed.
func (f *feed) next(t *testing.T, timeout time.Duration, what string, match func(engine.Event) bool) engine.Event {
	t.Helper()
	deadline := time.After(timeout)
	for {
		select {
		case ev, ok := <-f.events:
			if !ok {
				t.Fatalf("the feed ended before %s", what)
			}
			if match(ev) {
				return ev
			}
		case <-deadline:
			t.Fatalf("no %s within %s", what, timeout)
		}
	}
}

// lanFlags shorten a league's waits so a cut link costs seconds, not
// minutes, and keep a player that missed matches in the league.
var lanFlags = []string{"--join-timeout", "1s", "--move-timeout", "2s", "--generic-timeout", "2s",
	"--retry-delay", "200ms", "--suspend-after", "0"}

// TestCutLinkGivesTechnicalLossesOnlyWhileCut plays six players, P06 alone
// on its machine, and unplugs that machine's cable once round 1 is done.
// P06's matches while it is cut end as its technical losses after the
// retries; once the cable is back it plays its later matches normally, and
// nobody else loses anything to the cut.
func TestCutLinkGivesTechnicalLossesOnlyWhileCut(t *testing.T) {
	l := newLAN(t, "mgr", "ref", "pa", "pb", "ctl")
	g := startLANLeague(t, l, lanOptions{Seed: "41", Listen: "0.0.0.0",
		Players: []string{"pa", "pa", "pa", "pa", "pa", "pb"}, Extra: lanFlags})
	const cutOff = "P06"
	f := startControl(t, g, "ctl")

	started := f.next(t, time.Minute, "league start", func(ev engine.Event) bool { return ev.Kind == engine.EventLeagueStarted })
	cutAt := f.next(t, 2*time.Minute, "end of round 1", func(ev engine.Event) bool {
		return ev.Kind == engine.EventRoundCompleted && ev.Round == 1
	}).Seq
	l.cut("pb")
	t.Logf("cut %s's link after event %d", cutOff, cutAt)
	lost := f.next(t, 2*time.Minute, "a technical loss of "+cutOff, func(ev engine.Event) bool {
		return ev.Kind == engine.EventMatchResult && ev.Result != nil && slices.Contains(ev.Result.Offenders, cutOff)
	})
	l.plug("pb")
	// The feed reaches this test late under load: the manager may have
	// assigned more matches between the loss and the plug. A match is
	// journaled as assigned before its referee hears of it, so only matches
	// after the journal's last event at this moment surely began plugged.
	plugAt := max(lost.Seq, lastSeq(g.journal(t)))
	t.Logf("plugged it back after event %d (first loss %s at event %d)", plugAt, lost.MatchID, lost.Seq)
	f.next(t, 5*time.Minute, "the league's end", func(ev engine.Event) bool { return ev.Kind == engine.EventLeagueCompleted })

	checkCutWindow(t, g.journal(t), cutOff, cutAt, plugAt)
	if started.Start == nil {
		t.Errorf("league_started = %+v, without its start", started)
	} else if rounds, err := started.Start.Schedule(); err != nil || len(rounds) != 5 {
		t.Errorf("league_started = %+v, %d rounds (%v), want 5 rounds", started.Start, len(rounds), err)
	}
	final := finalStandings(t, g.dirs["mgr"])
	for _, r := range final.Standings {
		if r.PlayerID != cutOff && r.TechnicalLosses != 0 {
			t.Errorf("%s has %d technical losses; only %s was cut", r.PlayerID, r.TechnicalLosses, cutOff)
		}
		if r.Played != 5 {
			t.Errorf("%s played %d matches, want 5", r.PlayerID, r.Played)
		}
	}
}

// checkCutWindow reads the journal: every technical loss is the cut
// player's, in a match assigned while its link was down; it lost at least
// one; and each of its matches assigned after the link came back (there
// must be some) was played to a real result.
func checkCutWindow(t *testing.T, events []engine.Event, player string, cutAt, plugAt int64) {
	t.Helper()
	assigned := map[string]int64{}
	var lost, playedAfter int
	for _, ev := range events {
		switch {
		case ev.Kind == engine.EventMatchAssigned:
			if _, again := assigned[ev.MatchID]; !again {
				assigned[ev.MatchID] = ev.Seq
			}
		case ev.Kind == engine.EventMatchResult && ev.Result != nil:
			r := ev.Result
			if r.PlayerA != player && r.PlayerB != player {
				if len(r.Offenders) > 0 {
					t.Errorf("%s: technical loss of %v, who were never cut", r.MatchID, r.Offenders)
				}
				continue
			}
			at := assigned[r.MatchID]
			switch {
			case len(r.Offenders) > 0 && (at <= cutAt || at > plugAt):
				t.Errorf("%s (assigned at event %d, link cut after %d, back after %d): technical loss of %v outside the cut",
					r.MatchID, at, cutAt, plugAt, r.Offenders)
			case len(r.Offenders) > 0:
				lost++
			case at > plugAt:
				playedAfter++
			}
		}
	}
	if lost == 0 {
		t.Errorf("%s lost no match while cut", player)
	}
	if playedAfter == 0 {
		t.Errorf("%s played no match after its link came back", player)
	}
	t.Logf("%s: %d technical losses while cut, %d matches played after", player, lost, playedAfter)
}

// lastSeq is the sequence number of the last event in events, 0 for none.
func lastSeq(events []engine.Event) int64 {
	if len(events) == 0 {
		return 0
	}
	return events[len(events)-1].Seq
}
