//go:build unix

package faults_test

import (
	"context"
	"fmt"
	"net/url"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/leaguetui/leaguetui/agents/protocol"
	"github.com/leaguetui/leaguetui/agents/store"
	"github.com/leaguetui/leaguetui/engine"
	"github.com/leaguetui/leaguetui/internal/leaguetest"
	"github.com/leaguetui/leaguetui/league/control"
	"github.com/leaguetui/leaguetui/league/process"
)

// fairLeague is a manager, one referee and six players of the random
// strategy. A built-in random player's move depends only on the seed, the
// match and the player, and so does the referee's draw: every match that
// is played ends as in any other run of the same seed, whatever happened
// before it. One referee means one circuit breaker per player, which a
// player that fails once opens.
type fairLeague struct {
	dir     string
	manager *process.Child
	referee *process.Child
	players []*process.Child
	ctl     *control.Client
}

func startFairLeague(t *testing.T) *fairLeague {
	t.Helper()
	l := &fairLeague{dir: t.TempDir()}
	l.manager = leaguetest.StartManager(t, l.dir, adminToken, append([]string{"--seed", "23"}, timeouts...)...)
	l.ctl = control.New(l.manager.Endpoint, adminToken)
	l.referee = l.startReferee(t, 0)
	for i := range 6 {
		l.players = append(l.players, leaguetest.StartPlayer(t, l.dir, l.manager.Endpoint, fmt.Sprintf("fair%d", i+1),
			append([]string{"--strategy", "random", "--seed", fmt.Sprint(i + 1)}, timeouts...)...))
	}
	if err := l.ctl.Start(context.Background()); err != nil {
		t.Fatalf("start: %v", err)
	}
	return l
}

// startReferee starts REF01 on port (0: a free one). Started again in the
// same data folder, it registers as itself with its saved credentials.
func (l *fairLeague) startReferee(t *testing.T, port int) *process.Child {
	t.Helper()
	return leaguetest.StartReferee(t, l.dir, l.manager.Endpoint, "REF01", append([]string{"--port", fmt.Sprint(port)}, timeouts...)...)
}

// finish reads the feed from cursor to the league's end and returns every
// event (read holds those before cursor), the results by match and the
// standings rows. A match with two results fails the test.
func (l *fairLeague) finish(t *testing.T, read []engine.Event, cursor int64) ([]engine.Event, map[string]engine.Result, []protocol.StandingRow) {
	t.Helper()
	events := append(slices.Clone(read), finishFeed(t, l.ctl, cursor)...)
	byMatch := map[string]engine.Result{}
	for _, r := range results(events) {
		if _, twice := byMatch[r.MatchID]; twice {
			t.Errorf("%s has two results on the feed", r.MatchID)
		}
		byMatch[r.MatchID] = r
	}
	standings, err := l.ctl.Standings(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return events, byMatch, standings.Standings
}

func sameResult(a, b engine.Result) bool {
	return a.Status == b.Status && a.Winner == b.Winner && slices.Equal(a.Offenders, b.Offenders)
}

// lastAssigned maps each match to the sequence number of its last
// assignment to a referee.
func lastAssigned(events []engine.Event) map[string]int64 {
	at := map[string]int64{}
	for _, ev := range events {
		if ev.Kind == engine.EventMatchAssigned {
			at[ev.MatchID] = ev.Seq
		}
	}
	return at
}

// matchReason reads the reason the referee gave for a match's outcome.
func matchReason(t *testing.T, dir, matchID string) string {
	t.Helper()
	var doc struct {
		Result struct {
			Reason string `json:"reason"`
		} `json:"result"`
	}
	path, err := store.Layout{Root: dir, LeagueID: leagueID}.Match(matchID)
	if err != nil {
		t.Fatal(err)
	}
	readJSON(t, path, &doc)
	return doc.Result.Reason
}

// TestStoppedPlayerRecovers stops a player (SIGSTOP) after its first match
// until it has lost one for it (its calls ran past the move timeout, and the
// referee's circuit breaker for it is open), then resumes it (SIGCONT). A
// technical loss needs a real attempt that failed within its deadlines, so
// its only technical losses are of matches assigned while it was stopped,
// each for a timeout; every match assigned once it was back, and every
// other match, ends exactly as in the uninterrupted run of the same seed.
func TestStoppedPlayerRecovers(t *testing.T) {
	t.Parallel()
	base := startFairLeague(t)
	l := startFairLeague(t)
	victim := l.players[len(l.players)-1]
	t.Cleanup(func() { _ = syscall.Kill(victim.PID(), syscall.SIGCONT) }) // before it is stopped for good

	var read []engine.Event
	var cursor int64
	for stopped := false; ; {
		var events []engine.Event
		events, cursor = leaguetest.NextEvents(t, l.ctl, cursor, leagueTimeout, engine.EventMatchResult)
		read = append(read, events...)
		r := *events[len(events)-1].Result
		switch {
		case !plays(r, victim.ID):
			continue
		case !stopped:
			if r.Status == engine.StatusTechnicalLoss {
				t.Fatalf("%s lost its first match technically before it was stopped: %+v", victim.ID, r)
			}
			if err := syscall.Kill(victim.PID(), syscall.SIGSTOP); err != nil {
				t.Fatal(err)
			}
			stopped = true
			continue
		case r.Status != engine.StatusTechnicalLoss:
			continue // answered before the stop
		}
		break
	}
	if err := syscall.Kill(victim.PID(), syscall.SIGCONT); err != nil {
		t.Fatal(err)
	}
	now, err := l.ctl.Standings(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	resumedAt := now.Version // every later event happened with the victim back

	_, want, _ := base.finish(t, nil, 0)
	events, got, _ := l.finish(t, read, cursor)
	assigned := lastAssigned(events)
	if len(got) != len(want) || len(want) != 15 {
		t.Fatalf("%d results, the uninterrupted run %d; want 15", len(got), len(want))
	}
	lost, afterResume := 0, 0
	for id, r := range got {
		w := want[id]
		switch {
		case plays(r, victim.ID) && r.Status == engine.StatusTechnicalLoss:
			lost++
			reason := matchReason(t, l.dir, id)
			if assigned[id] > resumedAt || !slices.Equal(r.Offenders, []string{victim.ID}) || !strings.Contains(reason, protocol.CodeTimeout) {
				t.Errorf("%s: a technical loss of %v, assigned at event %d (the victim was back at %d), for %q; "+
					"want only %s's, of a match assigned while it was stopped, for a timeout (%s)",
					id, r.Offenders, assigned[id], resumedAt, reason, victim.ID, protocol.CodeTimeout)
			}
		case !sameResult(r, w):
			t.Errorf("%s: %s won by %q; uninterrupted: %s won by %q (assigned at event %d, the victim back at %d)",
				id, r.Status, r.Winner, w.Status, w.Winner, assigned[id], resumedAt)
		}
		if plays(r, victim.ID) && assigned[id] > resumedAt {
			afterResume++
		}
	}
	if lost == 0 || afterResume == 0 {
		t.Errorf("%s lost %d matches technically and played %d assigned once it was back; want at least one of each",
			victim.ID, lost, afterResume)
	}
	t.Logf("%s: %d technical losses while stopped, %d matches played normally once back", victim.ID, lost, afterResume)
}

// resumeBound is how soon a referee back from a restart must have played
// a match: far more than a match takes, far less than a breaker's reset.
const resumeBound = 30 * time.Second

// TestOnlyRefereeRestartsAsItself kills the league's only referee with
// SIGKILL, twice, and each time starts it again as itself: first on its old
// port, then on a new one. Meanwhile the league says it is stalled; once the
// referee is back it is used at once (no open circuit breaker, no stale
// endpoint), and the league ends exactly as the uninterrupted run of the
// same seed.
func TestOnlyRefereeRestartsAsItself(t *testing.T) {
	t.Parallel()
	base := startFairLeague(t)
	l := startFairLeague(t)
	u, err := url.Parse(l.referee.Endpoint)
	if err != nil {
		t.Fatal(err)
	}
	oldPort, err := strconv.Atoi(u.Port())
	if err != nil {
		t.Fatal(err)
	}

	var read []engine.Event
	var cursor int64
	var stalls []engine.Event
	for i, port := range []int{oldPort, 0} {
		for len(results(read)) < 3*(i+1) {
			var events []engine.Event
			events, cursor = leaguetest.NextEvents(t, l.ctl, cursor, leagueTimeout, engine.EventMatchResult)
			read = append(read, events...)
		}
		l.referee.Kill()
		events, next := leaguetest.NextEvents(t, l.ctl, cursor, time.Minute, engine.EventStalled)
		read, cursor = append(read, events...), next
		stalls = append(stalls, events[len(events)-1])
		l.referee = l.startReferee(t, port)
		// Back, it is used at once: a breaker left open would hold it off
		// for its whole reset (60 s), a stale endpoint for ever.
		events, cursor = leaguetest.NextEvents(t, l.ctl, cursor, resumeBound, engine.EventMatchResult)
		read = append(read, events...)
	}
	_, want, wantRows := base.finish(t, nil, 0)
	_, got, gotRows := l.finish(t, read, cursor)
	for id, w := range want {
		if g, ok := got[id]; !ok || !sameResult(g, w) {
			t.Errorf("%s: %s won by %q; uninterrupted: %s won by %q", id, g.Status, g.Winner, w.Status, w.Winner)
		}
	}
	if !reflect.DeepEqual(gotRows, wantRows) {
		t.Errorf("standings differ from the uninterrupted run's:\n got %+v\nwant %+v", gotRows, wantRows)
	}
	for _, ev := range stalls {
		if ev.Referee != "REF01" || ev.MatchID == "" || !strings.HasPrefix(ev.Detail, "league stalled: no referee could take "+ev.MatchID) {
			t.Errorf("stalled event %+v, want it to name the match and REF01", ev)
		}
	}
}
