package faults_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/leaguetui/leaguetui/agents/protocol"
	"github.com/leaguetui/leaguetui/agents/store"
	"github.com/leaguetui/leaguetui/engine"
	"github.com/leaguetui/leaguetui/internal/leaguetest"
	"github.com/leaguetui/leaguetui/league/control"
	"github.com/leaguetui/leaguetui/league/process"
)

// crashLeague is a league for the kill -9 tests: the manager on a port
// chosen up front (a restarted manager must be where the agents know it),
// two referees, three built-in players whose strategies learn from past
// matches, and two slow but valid players, so that every round has a match
// in flight long enough to kill something in the middle of it.
type crashLeague struct {
	dir      string
	port     int
	manager  *process.Child
	referees []*process.Child
	players  []*process.Child // the good ones
	ctl      *control.Client
	slow     []string // ids of the slow players
	format   []string // the manager's format flags, none for a round robin
}

// slowDelay is how long the slow players think before each move: well
// inside the 2 s move timeout.
const slowDelay = "700ms"

func startCrashLeague(t *testing.T, format ...string) *crashLeague {
	t.Helper()
	l := &crashLeague{dir: t.TempDir(), port: freePort(t), format: format}
	l.manager = l.startManager(t)
	l.ctl = control.New(l.manager.Endpoint, adminToken)
	for _, name := range []string{"REF01", "REF02"} {
		l.referees = append(l.referees, leaguetest.StartReferee(t, l.dir, l.manager.Endpoint, name, timeouts...))
	}
	for i, strategy := range []string{"frequency", "adaptive", "pattern"} {
		l.players = append(l.players, leaguetest.StartPlayer(t, l.dir, l.manager.Endpoint, fmt.Sprintf("good%d", i+1),
			append([]string{"--strategy", strategy, "--seed", "5"}, timeouts...)...))
	}
	for i := range 2 {
		p := leaguetest.StartBadPlayer(t, l.dir, l.manager.Endpoint, fmt.Sprintf("slow%d", i+1), "slow", "--delay", slowDelay)
		l.slow = append(l.slow, p.ID)
	}
	if err := l.ctl.Start(context.Background()); err != nil {
		t.Fatalf("start: %v", err)
	}
	return l
}

// startManager starts (or restarts) the manager on the league's port and
// data folder.
func (l *crashLeague) startManager(t *testing.T, extra ...string) *process.Child {
	t.Helper()
	args := append([]string{"--seed", "11", "--port", fmt.Sprint(l.port)}, timeouts...)
	args = append(append(args, l.format...), extra...)
	return leaguetest.StartManager(t, l.dir, adminToken, args...)
}

// freePort is a loopback port free a moment ago.
func freePort(t *testing.T) int {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port
}

// inFlight reads the feed until a referee (any, if "") reports that the
// players of a slow player's match are choosing, and returns that match.
// The slow player is then thinking for slowDelay: the match is surely in
// the middle.
func (l *crashLeague) inFlight(t *testing.T, cursor int64, referee string, minResults int) (string, []engine.Event, int64) {
	t.Helper()
	pairings := map[string]engine.Pairing{}
	var read []engine.Event
	for {
		var events []engine.Event
		events, cursor = leaguetest.NextEvents(t, l.ctl, cursor, leagueTimeout, engine.EventMatchStep)
		read = append(read, events...)
		for _, ev := range events {
			for _, r := range scheduledRounds(ev) {
				for _, p := range r.Matches {
					pairings[p.MatchID] = p
				}
			}
		}
		ev := events[len(events)-1]
		p := pairings[ev.MatchID]
		slow := slices.Contains(l.slow, p.PlayerA) || slices.Contains(l.slow, p.PlayerB)
		if ev.Step == "choosing" && slow && (referee == "" || ev.Referee == referee) && len(results(read)) >= minResults {
			return ev.MatchID, read, cursor
		}
	}
}

// scheduledRounds are the rounds an event adds to the schedule: all of a
// round robin's at the start, a Swiss league's one at a time.
func scheduledRounds(ev engine.Event) []engine.Round {
	switch {
	case ev.Kind == engine.EventLeagueStarted && ev.Start != nil:
		rounds, _ := ev.Start.Schedule()
		return rounds
	case ev.Kind == engine.EventRoundScheduled && ev.Schedule != nil:
		return []engine.Round{*ev.Schedule}
	}
	return nil
}

// outcome is what two runs of the same seed must agree on: every match's
// result and the standings rows.
type outcome struct {
	results   map[string]engine.Result
	standings []protocol.StandingsFile
	files     map[string]string // derivedFiles
}

func (l *crashLeague) outcome(t *testing.T, all []engine.Result) outcome {
	t.Helper()
	o := outcome{results: map[string]engine.Result{}}
	for _, r := range all {
		if _, twice := o.results[r.MatchID]; twice {
			t.Errorf("%s has two results in the feed", r.MatchID)
		}
		o.results[r.MatchID] = r
	}
	if len(o.results) != 10 {
		t.Errorf("%d matches have a result, want all 10", len(o.results))
	}
	served, err := l.ctl.Standings(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	stopManager(t, l.manager)
	var file protocol.StandingsFile
	readJSON(t, store.Layout{Root: l.dir, LeagueID: leagueID}.Standings(), &file)
	for _, doc := range []protocol.StandingsFile{served, file} {
		o.standings = append(o.standings, protocol.StandingsFile{State: doc.State, Seed: doc.Seed,
			MatchesDone: doc.MatchesDone, Standings: doc.Standings})
	}
	o.files = derivedFiles(t, l.dir)
	return o
}

// derivedFiles reads what two runs of the same seed must agree on in the
// files derived from the journal, by file: rounds.json's matches and
// results, each match file's players and result, each player history's
// entries; without times and referees, which may differ.
func derivedFiles(t *testing.T, dir string) map[string]string {
	t.Helper()
	layout := store.Layout{Root: dir, LeagueID: leagueID}
	files := map[string]string{}
	keep := func(name string, v any) {
		data, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		files[name] = string(data)
	}
	var rounds struct {
		Rounds []struct {
			RoundID int    `json:"round_id"`
			Status  string `json:"status"`
			Matches []struct {
				MatchID string  `json:"match_id"`
				PlayerA string  `json:"player_A_id"`
				PlayerB string  `json:"player_B_id"`
				Result  string  `json:"result"`
				Winner  *string `json:"winner"`
			} `json:"matches"`
		} `json:"rounds"`
	}
	readJSON(t, layout.Rounds(), &rounds)
	keep("rounds.json", rounds)
	matches, _ := filepath.Glob(filepath.Join(layout.MatchesDir(), "*.json"))
	for _, path := range matches {
		var m struct {
			Players map[string]string `json:"players"`
			Result  json.RawMessage   `json:"result"`
		}
		readJSON(t, path, &m)
		keep(filepath.Base(path), m)
	}
	histories, _ := filepath.Glob(filepath.Join(dir, "players", "*", "history.json"))
	for _, path := range histories {
		var h struct {
			Stats   json.RawMessage  `json:"stats"`
			Matches []map[string]any `json:"matches"`
		}
		readJSON(t, path, &h)
		for _, e := range h.Matches {
			delete(e, "timestamp")
		}
		slices.SortFunc(h.Matches, func(a, b map[string]any) int {
			return strings.Compare(fmt.Sprint(a["match_id"]), fmt.Sprint(b["match_id"]))
		})
		keep(filepath.Base(filepath.Dir(path))+"/history.json", h)
	}
	return files
}

// uninterrupted plays the crash league to the end with nothing killed.
func uninterrupted(t *testing.T) outcome {
	t.Helper()
	l := startCrashLeague(t)
	return l.outcome(t, results(finishFeed(t, l.ctl, 0)))
}

func compareOutcomes(t *testing.T, got, want outcome) {
	t.Helper()
	for id, w := range want.results {
		if g := got.results[id]; g.Status != w.Status || g.Winner != w.Winner || !slices.Equal(g.Offenders, w.Offenders) {
			t.Errorf("%s: %s won by %q (offenders %v); uninterrupted: %s won by %q (offenders %v)",
				id, g.Status, g.Winner, g.Offenders, w.Status, w.Winner, w.Offenders)
		}
	}
	if !reflect.DeepEqual(got.standings, want.standings) {
		t.Errorf("standings (served, file) differ from the uninterrupted run's:\n got %+v\nwant %+v", got.standings, want.standings)
	}
	for name, w := range want.files {
		if g, ok := got.files[name]; g != w {
			t.Errorf("%s (there: %v) differs from the uninterrupted run's:\n got %s\nwant %s", name, ok, g, w)
		}
	}
	if len(got.files) != len(want.files) {
		t.Errorf("%d derived files, the uninterrupted run has %d", len(got.files), len(want.files))
	}
}

// TestRefereeKilledMidMatch kills a referee with SIGKILL while it runs a
// match: the manager sees it gone, gives the match to the other referee,
// and the match is played and counted once. The league ends exactly as an
// uninterrupted run of the same seed.
func TestRefereeKilledMidMatch(t *testing.T) {
	t.Parallel()
	want := uninterrupted(t)

	l := startCrashLeague(t)
	killed, before, cursor := l.inFlight(t, 0, "REF02", 0)
	l.referees[1].Kill()
	events := append(before, finishFeed(t, l.ctl, cursor)...)
	compareOutcomes(t, l.outcome(t, results(events)), want)

	var assignedTo []string
	for _, ev := range events {
		if ev.Kind == engine.EventMatchAssigned && ev.MatchID == killed {
			assignedTo = append(assignedTo, ev.Referee)
		}
		if ev.Kind == engine.EventMatchResult && ev.MatchID == killed && ev.Referee != "REF01" {
			t.Errorf("%s was reported by %q, want REF01, which took it over", killed, ev.Referee)
		}
	}
	if !slices.Equal(assignedTo, []string{"REF02", "REF01"}) {
		t.Errorf("%s was assigned to %v, want REF02 then, once it was killed, REF01", killed, assignedTo)
	}
}

// TestManagerKilledMidLeague kills the manager with SIGKILL while matches
// are in flight and starts it again on the same data folder and port: it
// resumes from its journal, loses no finished result, counts none twice,
// and the league ends exactly as an uninterrupted run of the same seed.
func TestManagerKilledMidLeague(t *testing.T) {
	t.Parallel()
	want := uninterrupted(t)

	l := startCrashLeague(t)
	_, _, _ = l.inFlight(t, 0, "", 3)
	l.manager.Kill()
	l.manager = l.startManager(t)
	// The journal is the whole story, from before the kill and after.
	events := finishFeed(t, l.ctl, 0)
	compareOutcomes(t, l.outcome(t, results(events)), want)

	log, err := os.ReadFile(store.Layout{Root: l.dir, LeagueID: leagueID}.LeagueLog())
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(log), `"event_type":"LEAGUE_RESUMED"`) {
		t.Errorf("the restarted manager's log does not say it resumed from the journal")
	}
}

// TestFeedCursorAcrossManagerCrash reads the event feed with a cursor
// while the manager is killed with SIGKILL and restarted: the reader goes
// on from its cursor, and no sequence number it saw names another event
// after the restart (the feed serves only journaled events), none is
// skipped, and every match's result is counted once.
func TestFeedCursorAcrossManagerCrash(t *testing.T) {
	t.Parallel()
	l := startCrashLeague(t)
	seen := map[int64]string{}
	saw := func(events []engine.Event) {
		for _, ev := range events {
			data, err := json.Marshal(ev)
			if err != nil {
				t.Fatal(err)
			}
			if before, ok := seen[ev.Seq]; ok && before != string(data) {
				t.Errorf("sequence %d was\n  %s\nand is now\n  %s", ev.Seq, before, data)
			}
			seen[ev.Seq] = string(data)
		}
	}
	_, before, cursor := l.inFlight(t, 0, "", 3)
	saw(before)
	l.manager.Kill()
	l.manager = l.startManager(t)
	after := finishFeed(t, l.ctl, cursor)
	saw(after)

	read := append(before, after...)
	for i, ev := range read {
		if ev.Seq != int64(i+1) {
			t.Fatalf("the cursor reader's event %d has sequence %d: the feed skipped or repeated one", i+1, ev.Seq)
		}
	}
	counted := map[string]int{}
	for _, r := range results(read) {
		counted[r.MatchID]++
	}
	for id, n := range counted {
		if n != 1 {
			t.Errorf("the cursor reader counted %d results for %s", n, id)
		}
	}
	if len(counted) != 10 {
		t.Errorf("the cursor reader saw results for %d matches, want all 10", len(counted))
	}
	saw(finishFeed(t, l.ctl, 0)) // the whole journal, as the restarted manager serves it
	stopManager(t, l.manager)
}

// TestHeldResumeIsPausedOnceListening restarts a killed manager with
// --hold, as leaguetui does when it resumes a league: by the time it says
// it is listening, the league is already paused (durably, on the feed), so
// whoever reads its state then knows to resume it and never waits for a
// league it takes for running. Resumed, the league completes.
func TestHeldResumeIsPausedOnceListening(t *testing.T) {
	t.Parallel()
	l := startCrashLeague(t)
	_, _, cursor := l.inFlight(t, 0, "", 3)
	l.manager.Kill()
	restarted := time.Now().UTC()
	l.manager = l.startManager(t, "--hold")
	status, err := l.ctl.Standings(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if status.State != engine.LeaguePaused {
		t.Fatalf("a held league reads %s once its manager listens, want paused", status.State)
	}
	page, err := l.ctl.Events(context.Background(), cursor, 0)
	if err != nil {
		t.Fatal(err)
	}
	checkPausedBeforeListening(t, page.Events, restarted)
	if err := l.ctl.Resume(context.Background()); err != nil {
		t.Fatal(err)
	}
	if got := len(results(finishFeed(t, l.ctl, 0))); got != 10 {
		t.Errorf("%d results after the resume, want 10", got)
	}
	stopManager(t, l.manager)
}

// checkPausedBeforeListening checks that the restarted manager journaled
// its pause before it took anything over HTTP: of the events it wrote
// (those stamped after the restart began), only manager_restarted may come
// before the pause. A referee's report retried across the restart may be
// taken once the manager listens, so results may follow the pause.
func checkPausedBeforeListening(t *testing.T, events []engine.Event, restarted time.Time) {
	t.Helper()
	for _, ev := range events {
		if ev.Time.Before(restarted) {
			continue // the killed manager's
		}
		switch ev.Kind {
		case engine.EventPaused:
			return
		case engine.EventRestarted:
		default:
			t.Fatalf("the restarted manager journaled %s (seq %d) before its pause: %+v", ev.Kind, ev.Seq, events)
		}
	}
	t.Fatalf("the restarted manager journaled no pause: %+v", events)
}
