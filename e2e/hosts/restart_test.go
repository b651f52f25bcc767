//go:build linux

package hosts_test

import (
	"net/url"
	"syscall"
	"testing"
	"time"

	"github.com/leaguetui/leaguetui/engine"
)

// TestManagerKilledResumesFromItsOwnVolume kills (SIGKILL) the manager of
// a league whose agents each keep their own data folder on their own
// machine while a match is running, and starts it again on its machine,
// at its address, on its own folder alone, as a StatefulSet restarts its
// pod on its volume. The referees and players run on untouched. The
// restarted manager says so on its feed, carries the league on by itself
// to the standings the same seed gives on one host, and serves every
// match's transcript, those played before its death included.
//
// So that a match is surely running when the manager dies, P04 is stopped
// (SIGSTOP) before the league starts, and the manager is killed once
// another match of round 1 has its result: P04's match cannot end before
// P04 runs again, which it does, well within its join timeout, before the
// manager is restarted.
func TestManagerKilledResumesFromItsOwnVolume(t *testing.T) {
	requireNetns(t)
	const seed = "43"
	want := oneHostStandings(t, seed, 4)
	l := newLAN(t, "mgr", "ref", "pa", "pb", "console")
	g := startLANLeague(t, l, lanOptions{Seed: seed, Listen: "0.0.0.0", Players: []string{"pa", "pa", "pb", "pb"}})
	stopped := g.players[3]
	if err := syscall.Kill(stopped.PID(), syscall.SIGSTOP); err != nil {
		t.Fatal(err)
	}
	resume := func() { _ = syscall.Kill(stopped.PID(), syscall.SIGCONT) }
	t.Cleanup(resume) // by PID, so that it can be stopped at the end even if the test fails first

	startControl(t, g, "console")
	g.waitJournal(t, "a result of round 1", func(ev engine.Event) bool { return ev.Kind == engine.EventMatchResult })
	g.mgr.Kill()
	before := lastSeq(g.journal(t))
	t.Logf("killed the manager (pid %d) after event %d, %s stopped", g.mgr.PID(), before, stopped.ID)
	resume()

	u, err := url.Parse(g.mgr.Endpoint)
	if err != nil {
		t.Fatal(err)
	}
	// The port the kernel chose at first: nothing else listens on the
	// manager's machine, and the agents know the manager by that address.
	g.startManager(t, "manager restarted", u.Port())
	watch := watchLeague(t, g, "console")
	restarted := watch.next(t, time.Minute, "manager_restarted", func(ev engine.Event) bool {
		return ev.Kind == engine.EventRestarted
	})
	if restarted.Seq <= before {
		t.Errorf("manager_restarted is event %d, want one after the %d the first manager journaled", restarted.Seq, before)
	}
	watch.next(t, 3*time.Minute, "the league's end", func(ev engine.Event) bool { return ev.Kind == engine.EventLeagueCompleted })
	sameRows(t, finalStandings(t, g.dirs["mgr"]), want)
	g.checkTranscripts(t)
}

// waitJournal waits for an event of the manager's journal that match
// accepts, read from the manager's data folder.
func (g *lanLeague) waitJournal(t *testing.T, what string, match func(engine.Event) bool) {
	t.Helper()
	deadline := time.Now().Add(time.Minute)
	for {
		for _, ev := range g.journal(t) {
			if match(ev) {
				return
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("no %s in the manager's journal within a minute", what)
		}
		time.Sleep(50 * time.Millisecond) // a poll interval: the journal is appended to, nothing signals it
	}
}
