// Package faults_test runs real leagues, every agent its own process, in
// which one player misbehaves (internal/leaguetest/badplayer, one mode per
// test), and checks what the specification asks: the bad player's matches
// end with the retries, GAME_ERROR notices and technical losses of
// protocol.md §5.2, the rest of the league is unaffected and completes, and
// a player that keeps failing is suspended.
package faults_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"testing"
	"time"

	"github.com/leaguetui/leaguetui/agents/protocol"
	"github.com/leaguetui/leaguetui/agents/store"
	"github.com/leaguetui/leaguetui/engine"
	"github.com/leaguetui/leaguetui/internal/leaguetest"
	"github.com/leaguetui/leaguetui/league/control"
	"github.com/leaguetui/leaguetui/league/process"
)

func TestMain(m *testing.M) { leaguetest.Main(m) }

const adminToken = "adm-faults-test-0123456789abcdef"

// leagueID is the league every test plays: the default.
const leagueID = "league_2025_even_odd"

// attempts is the specification's 3 attempts per call: a failing call
// brings the player attempts-1 GAME_ERRORs before its technical loss.
const attempts = 3

// timeouts are short so that a failing call costs seconds, yet long enough
// that a good player on a loaded machine never misses one.
var timeouts = []string{"--join-timeout", "2s", "--move-timeout", "2s", "--generic-timeout", "3s",
	"--retry-delay", "50ms", "--attempts", fmt.Sprint(attempts)}

// leagueTimeout bounds a whole league, waits included.
const leagueTimeout = 3 * time.Minute

// league is a running league: a manager, two referees, good players and
// one bad player, registered in that order.
type league struct {
	dir  string
	mgr  *process.Child
	ctl  *control.Client
	good []string // ids of the good players
	bad  *process.Child
	ids  []string // every player id, in registration order
}

// startLeague starts a league of goodPlayers built-in players and one bad
// player in mode, with extra arguments for the manager, and starts it.
func startLeague(t *testing.T, goodPlayers int, mode string, managerArgs []string, badArgs ...string) *league {
	t.Helper()
	dir := t.TempDir()
	mgr := leaguetest.StartManager(t, dir, adminToken, append(append([]string{"--seed", "7"}, timeouts...), managerArgs...)...)
	for _, name := range []string{"REF01", "REF02"} {
		leaguetest.StartReferee(t, dir, mgr.Endpoint, name, append([]string{"--max-concurrent", "4"}, timeouts...)...)
	}
	l := &league{dir: dir, mgr: mgr, ctl: control.New(mgr.Endpoint, adminToken)}
	for i := range goodPlayers {
		p := leaguetest.StartPlayer(t, dir, mgr.Endpoint, fmt.Sprintf("good%d", i+1), "--strategy", "random", "--seed", fmt.Sprint(i+1))
		l.good = append(l.good, p.ID)
	}
	l.bad = leaguetest.StartBadPlayer(t, dir, mgr.Endpoint, "bad", mode, badArgs...)
	l.ids = append(slices.Clone(l.good), l.bad.ID)
	if err := l.ctl.Start(context.Background()); err != nil {
		t.Fatalf("start: %v", err)
	}
	return l
}

// finish reads the feed from cursor until the league completes and returns
// every event read.
func (l *league) finish(t *testing.T, cursor int64) []engine.Event {
	t.Helper()
	return finishFeed(t, l.ctl, cursor)
}

// finishFeed reads a league's feed from cursor until it completes.
func finishFeed(t *testing.T, ctl *control.Client, cursor int64) []engine.Event {
	t.Helper()
	return leaguetest.UntilCompleted(t, ctl, cursor, leagueTimeout)
}

// results lists the match results among events.
func results(events []engine.Event) []engine.Result {
	var out []engine.Result
	for _, ev := range events {
		if ev.Kind == engine.EventMatchResult {
			out = append(out, *ev.Result)
		}
	}
	return out
}

func plays(r engine.Result, id string) bool { return r.PlayerA == id || r.PlayerB == id }

func opponent(r engine.Result, id string) string {
	if r.PlayerA == id {
		return r.PlayerB
	}
	return r.PlayerA
}

// checkResults checks every result of a completed league: the bad player's
// matches for which lost says so are technical losses with the bad player
// as the only offender and its opponent as winner; no other match is a
// technical loss. It returns how many matches the bad player lost so.
func (l *league) checkResults(t *testing.T, all []engine.Result, lost func(engine.Result) bool) int {
	t.Helper()
	n := len(l.ids)
	if len(all) != n*(n-1)/2 {
		t.Errorf("%d results, want %d: the league did not play every match", len(all), n*(n-1)/2)
	}
	bad, technical := l.bad.ID, 0
	for _, r := range all {
		wantLoss := plays(r, bad) && lost(r)
		switch {
		case wantLoss:
			technical++
			if r.Status != engine.StatusTechnicalLoss || !slices.Equal(r.Offenders, []string{bad}) || r.Winner != opponent(r, bad) {
				t.Errorf("%s: %s, offenders %v, winner %q; want TECHNICAL_LOSS of %s only, won by %s",
					r.MatchID, r.Status, r.Offenders, r.Winner, bad, opponent(r, bad))
			}
		case r.Status == engine.StatusTechnicalLoss:
			t.Errorf("%s (%s vs %s): technical loss of %v, want a played result", r.MatchID, r.PlayerA, r.PlayerB, r.Offenders)
		}
	}
	return technical
}

// stopManager stops the manager (SIGTERM, by PID), which writes its files'
// last state: while it runs they follow the feed at a bounded rate.
func stopManager(t *testing.T, mgr *process.Child) {
	t.Helper()
	if err := mgr.Stop(leaguetest.ReadyTimeout); err != nil {
		t.Fatal(err)
	}
}

// checkStandings checks GET /standings and then, with the manager stopped,
// standings.json against the table recomputed from the results, and
// returns both documents.
func (l *league) checkStandings(t *testing.T, all []engine.Result) map[string]protocol.StandingsFile {
	t.Helper()
	served, err := l.ctl.Standings(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	stopManager(t, l.mgr)
	var file protocol.StandingsFile
	readJSON(t, store.Layout{Root: l.dir, LeagueID: leagueID}.Standings(), &file)
	want := engine.Standings(engine.DefaultScoring(), l.ids, all)
	for name, doc := range map[string]protocol.StandingsFile{"GET /standings": served, "standings.json": file} {
		if len(doc.Standings) != len(want) {
			t.Errorf("%s has %d rows, want %d", name, len(doc.Standings), len(want))
			continue
		}
		for i, w := range want {
			g := doc.Standings[i]
			if g.Rank != w.Rank || g.PlayerID != w.PlayerID || g.Played != w.Played || g.Wins != w.Wins ||
				g.Draws != w.Draws || g.Losses != w.Losses || g.TechnicalLosses != w.TechnicalLosses || g.Points != w.Points {
				t.Errorf("%s row %d = %+v, want %+v (recomputed from the results)", name, i+1, g, w)
			}
		}
	}
	return map[string]protocol.StandingsFile{"GET /standings": served, "standings.json": file}
}

// row finds a player's row.
func row(doc protocol.StandingsFile, id string) (played, wins, losses, technical, points int, status string) {
	for _, r := range doc.Standings {
		if r.PlayerID == id {
			return r.Played, r.Wins, r.Losses, r.TechnicalLosses, r.Points, r.Status
		}
	}
	return -1, -1, -1, -1, -1, ""
}

// gameErrors counts, per match, the GAME_ERROR notices the referee sent to
// each player, from the transcripts of the match files.
func (l *league) gameErrors(t *testing.T, all []engine.Result) map[string]map[string]int {
	t.Helper()
	layout := store.Layout{Root: l.dir, LeagueID: leagueID}
	out := map[string]map[string]int{}
	for _, r := range all {
		var doc protocol.MatchFile
		path, err := layout.Match(r.MatchID)
		if err != nil {
			t.Fatal(err)
		}
		readJSON(t, path, &doc)
		out[r.MatchID] = map[string]int{}
		for _, e := range doc.Transcript {
			if e.MessageType == "GAME_ERROR" {
				out[r.MatchID][e.To]++
			}
		}
	}
	return out
}

// checkGameErrors checks the GAME_ERRORs of every match: want for the bad
// player in the matches it lost technically, none elsewhere and none to a
// good player.
func (l *league) checkGameErrors(t *testing.T, all []engine.Result, lost func(engine.Result) bool, want int) {
	t.Helper()
	sent := l.gameErrors(t, all)
	badTo := "player:" + l.bad.ID
	for _, r := range all {
		expect := 0
		if plays(r, l.bad.ID) && lost(r) {
			expect = want
		}
		if got := sent[r.MatchID][badTo]; got != expect {
			t.Errorf("%s: %d GAME_ERRORs to %s, want %d", r.MatchID, got, l.bad.ID, expect)
		}
		for to, n := range sent[r.MatchID] {
			if to != badTo {
				t.Errorf("%s: %d GAME_ERRORs to %s, a good player", r.MatchID, n, to)
			}
		}
	}
}

// checkRounds checks, with the manager stopped, that rounds.json holds the
// results of the feed.
func (l *league) checkRounds(t *testing.T, all []engine.Result) {
	t.Helper()
	stopManager(t, l.mgr)
	var doc protocol.RoundsFile
	readJSON(t, store.Layout{Root: l.dir, LeagueID: leagueID}.Rounds(), &doc)
	byID := map[string]engine.Result{}
	for _, r := range all {
		byID[r.MatchID] = r
	}
	for _, round := range doc.Rounds {
		for _, m := range round.Matches {
			r := byID[m.MatchID]
			winner := ""
			if m.Winner != nil {
				winner = *m.Winner
			}
			if m.Result != string(r.Status) || winner != r.Winner {
				t.Errorf("rounds.json %s: %s won by %q; the feed says %s won by %q", m.MatchID, m.Result, winner, r.Status, r.Winner)
			}
		}
	}
}

func readJSON(t *testing.T, path string, v any) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, v); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
}

// always is the loss rule of a bad player that fails every match.
func always(engine.Result) bool { return true }

// TestMisbehavingPlayer runs one league per misbehaviour: 3 good players
// and the bad one. Each of the bad player's matches ends in its technical
// loss after the retries the mode calls for, with gameErrors GAME_ERROR
// notices; the good players' matches are untouched.
func TestMisbehavingPlayer(t *testing.T) {
	tests := []struct {
		mode       string
		args       []string
		gameErrors int // per match of the bad player
	}{
		{mode: "slow", args: []string{"--delay", "4s"}, gameErrors: attempts - 1},
		{mode: "stall", gameErrors: attempts - 1},
		{mode: "refuse", gameErrors: attempts - 1},
		{mode: "malformed", gameErrors: attempts - 1},
		{mode: "invalid", gameErrors: attempts - 1},
		// accept:false is an answer, not a failure: no retry, no GAME_ERROR.
		{mode: "decline", gameErrors: 0},
	}
	for _, tt := range tests {
		t.Run(tt.mode, func(t *testing.T) {
			t.Parallel()
			l := startLeague(t, 3, tt.mode, nil, tt.args...)
			all := results(l.finish(t, 0))
			if n := l.checkResults(t, all, always); n != 3 {
				t.Errorf("%s lost %d matches technically, want all 3", l.bad.ID, n)
			}
			for name, doc := range l.checkStandings(t, all) {
				if played, _, _, technical, points, _ := row(doc, l.bad.ID); played != 3 || technical != 3 || points != 0 {
					t.Errorf("%s: %s played %d, %d technical losses, %d points; want 3, 3, 0", name, l.bad.ID, played, technical, points)
				}
			}
			l.checkGameErrors(t, all, always, tt.gameErrors)
			l.checkRounds(t, all)
		})
	}
}

// TestOtherStyleIsNoFault: a correct player of another style plays like
// any other: no technical loss, no retry. "style" serves UPPER_CASE methods
// with bare replies; "wrapped" registers and reads messages only as
// handle_message with params.message, which the manager then speaks to it
// from the start and the referees find on their first call. Each answers
// nothing else, so every match it completes went its way.
func TestOtherStyleIsNoFault(t *testing.T) {
	t.Parallel()
	for _, mode := range []string{"style", "wrapped"} {
		t.Run(mode, func(t *testing.T) {
			t.Parallel()
			l := startLeague(t, 3, mode, nil)
			all := results(l.finish(t, 0))
			never := func(engine.Result) bool { return false }
			l.checkResults(t, all, never)
			for name, doc := range l.checkStandings(t, all) {
				if played, _, _, technical, _, _ := row(doc, l.bad.ID); played != 3 || technical != 0 {
					t.Errorf("%s: %s played %d with %d technical losses; want 3 and none", name, l.bad.ID, played, technical)
				}
			}
			l.checkGameErrors(t, all, never, 0)
			l.checkRounds(t, all)
		})
	}
}

// killAfterFirstMatch waits on the feed for the bad player's first result
// and kills it there (SIGKILL, by PID). Its next invitation is held by the
// crash mode until then, so the kill always lands before its second match
// is played. It returns that result, the events read and the cursor.
func (l *league) killAfterFirstMatch(t *testing.T) (first engine.Result, read []engine.Event, cursor int64) {
	t.Helper()
	for {
		var events []engine.Event
		events, cursor = leaguetest.NextEvents(t, l.ctl, cursor, leagueTimeout, engine.EventMatchResult)
		read = append(read, events...)
		if r := events[len(events)-1].Result; plays(*r, l.bad.ID) {
			l.bad.Kill()
			return *r, read, cursor
		}
	}
}

// TestCrashedPlayer kills the bad player after its first match: that match
// stands, every later one is its technical loss, and the league completes.
func TestCrashedPlayer(t *testing.T) {
	t.Parallel()
	l := startLeague(t, 3, "crash", nil)
	first, before, cursor := l.killAfterFirstMatch(t)
	if first.Status == engine.StatusTechnicalLoss {
		t.Fatalf("%s's first match, before the crash, is a technical loss: %+v", l.bad.ID, first)
	}
	all := append(results(before), results(l.finish(t, cursor))...)
	afterCrash := func(r engine.Result) bool { return r.MatchID != first.MatchID }
	if n := l.checkResults(t, all, afterCrash); n != 2 {
		t.Errorf("%s lost %d matches technically, want the 2 after the crash", l.bad.ID, n)
	}
	for name, doc := range l.checkStandings(t, all) {
		if played, _, _, technical, _, status := row(doc, l.bad.ID); played != 3 || technical != 2 || status != "" {
			t.Errorf("%s: %s played %d, %d technical losses, status %q; want 3, 2 and not suspended", name, l.bad.ID, played, technical, status)
		}
	}
	l.checkGameErrors(t, all, afterCrash, attempts-1)
	l.checkRounds(t, all)
}

// TestSuspension: in a league of 6, the bad player crashes after its first
// match, loses the next 3 by timeouts, and is suspended; its last match is
// then scored at once as its technical loss, never handed to a referee.
func TestSuspension(t *testing.T) {
	t.Parallel()
	const after = 3
	l := startLeague(t, 5, "crash", []string{"--suspend-after", fmt.Sprint(after)})
	first, before, cursor := l.killAfterFirstMatch(t)
	events := append(before, l.finish(t, cursor)...)
	all := results(events)
	afterCrash := func(r engine.Result) bool { return r.MatchID != first.MatchID }
	if n := l.checkResults(t, all, afterCrash); n != 4 {
		t.Errorf("%s lost %d matches technically, want the 4 after the crash", l.bad.ID, n)
	}

	// The feed: suspended once, after its third technical loss in a row;
	// from then on its matches are results with no referee and no
	// assignment.
	assigned := map[string]bool{}
	suspendedAt, lostInARow, forfeited := -1, 0, 0
	for i, ev := range events {
		switch ev.Kind {
		case engine.EventMatchAssigned:
			assigned[ev.MatchID] = true
		case engine.EventPlayerSuspended:
			if ev.AgentID != l.bad.ID || suspendedAt >= 0 || lostInARow != after {
				t.Errorf("suspension of %s after %d technical losses in a row (suspended before: %v); want %s once, after %d",
					ev.AgentID, lostInARow, suspendedAt >= 0, l.bad.ID, after)
			}
			if want := fmt.Sprintf("%s suspended after %d technical losses in a row", l.bad.ID, after); ev.Detail != want {
				t.Errorf("suspension detail %q, want %q", ev.Detail, want)
			}
			suspendedAt = i
		case engine.EventMatchResult:
			if !plays(*ev.Result, l.bad.ID) {
				continue
			}
			if ev.Result.Status == engine.StatusTechnicalLoss {
				lostInARow++
			}
			if suspendedAt < 0 {
				if ev.Referee == "" || !assigned[ev.MatchID] {
					t.Errorf("%s, before the suspension, was not played by a referee", ev.MatchID)
				}
				continue
			}
			forfeited++
			if ev.Referee != "" || assigned[ev.MatchID] {
				t.Errorf("%s, after the suspension, went to referee %q (assigned %v); want it scored at once",
					ev.MatchID, ev.Referee, assigned[ev.MatchID])
			}
		}
	}
	if suspendedAt < 0 || forfeited != 1 {
		t.Errorf("suspended: %v; %d matches scored without a referee, want 1", suspendedAt >= 0, forfeited)
	}
	for name, doc := range l.checkStandings(t, all) {
		if played, _, _, technical, _, status := row(doc, l.bad.ID); played != 5 || technical != 4 || status != engine.PlayerSuspended {
			t.Errorf("%s: %s played %d, %d technical losses, status %q; want 5, 4, %s", name, l.bad.ID, played, technical, status, engine.PlayerSuspended)
		}
		for _, id := range l.good {
			if _, _, _, _, _, status := row(doc, id); status != "" {
				t.Errorf("%s: %s has status %q, want none", name, id, status)
			}
		}
	}
	l.checkRounds(t, all)
}
