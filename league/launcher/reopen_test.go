package launcher_test

import (
	"context"
	"encoding/json"
	"errors"
	"maps"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/leaguetui/leaguetui/agents/player"
	"github.com/leaguetui/leaguetui/agents/protocol"
	"github.com/leaguetui/leaguetui/agents/store"
	"github.com/leaguetui/leaguetui/config"
	"github.com/leaguetui/leaguetui/engine"
	"github.com/leaguetui/leaguetui/internal/leaguetest"
	"github.com/leaguetui/leaguetui/league/launcher"
)

// The tests of this package's resume, reopen and ownership run real
// leagues: Launch starts the leaguetui binary as manager, referees and
// players on free ports, and the tests read the league over its HTTP
// surface (League.Control) and from its data folder.

func TestMain(m *testing.M) { leaguetest.Main(m) }

// leagueTimeout bounds a small league's launch and play, -race included.
const leagueTimeout = 2 * time.Minute

// newSpec is the spec of a league of built-in players in dir, on free
// ports; given says which of players, referees and seed the "command
// line" set.
func newSpec(t *testing.T, dir string, players, referees int, seed int64, given launcher.Given) launcher.Spec {
	t.Helper()
	return launcher.Spec{Config: config.Default(), Executable: leaguetest.Binary(t), DataDir: dir,
		Players: players, Referees: referees, Seed: seed, Given: given, FreePorts: true, Env: leaguetest.ChildEnv()}
}

// launch launches spec and fails the test on an error; the league is
// stopped at the end of the test (Stop may run twice).
func launch(t *testing.T, spec launcher.Spec) *launcher.League {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), leagueTimeout)
	defer cancel()
	league, err := launcher.Launch(ctx, spec)
	if league != nil {
		t.Cleanup(league.Stop)
	}
	if err != nil {
		t.Fatalf("launch %s: %v", spec.DataDir, err)
	}
	return league
}

// awaitEvent follows the league's feed from after until an event that
// stop says is the one looked for, and returns the feed's cursor past it.
// Each read is a long poll of the manager's feed, bounded by the
// league's timeout: no sleep.
func awaitEvent(t *testing.T, l *launcher.League, after int64, what string, stop func(engine.Event) bool) int64 {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), leagueTimeout)
	defer cancel()
	for {
		page, err := l.Control.Events(ctx, after, 5*time.Second)
		if err != nil {
			t.Fatalf("waiting for %s: %v", what, err)
		}
		for _, ev := range page.Events {
			if stop(ev) {
				return ev.Seq
			}
		}
		after = max(after, page.LastSeq)
	}
}

func isKind(kind engine.EventKind) func(engine.Event) bool {
	return func(ev engine.Event) bool { return ev.Kind == kind }
}

// playToEnd starts (or resumes) the league and follows it until it
// completes, returning its final standings.
func playToEnd(t *testing.T, l *launcher.League) protocol.StandingsFile {
	t.Helper()
	ctx := t.Context()
	var err error
	switch {
	case l.Resumed == nil:
		err = l.Control.Start(ctx)
	case l.Resumed.State == engine.LeaguePaused:
		err = l.Control.Resume(ctx)
	}
	if err != nil {
		t.Fatalf("starting the league: %v", err)
	}
	awaitEvent(t, l, 0, "league_completed", isKind(engine.EventLeagueCompleted))
	standings, err := l.Control.Standings(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if standings.State != engine.LeagueCompleted {
		t.Fatalf("after league_completed the standings say %s", standings.State)
	}
	return standings
}

// uninterrupted plays a league of this size and seed from start to end in
// a folder of its own, and returns that folder and its final standings.
func uninterrupted(t *testing.T, players, referees int, seed int64) (string, protocol.StandingsFile) {
	t.Helper()
	dir := t.TempDir()
	l := launch(t, newSpec(t, dir, players, referees, seed, launcher.Given{Seed: true, Players: true, Referees: true}))
	standings := playToEnd(t, l)
	l.Stop()
	return dir, standings
}

// journal reads the league's journal as the last writer left it.
func journal(t *testing.T, dir string) []engine.Event {
	t.Helper()
	data, err := os.ReadFile(store.Layout{Root: dir, LeagueID: config.Default().LeagueID}.Journal())
	if err != nil {
		t.Fatal(err)
	}
	var events []engine.Event
	for _, line := range strings.SplitAfter(string(data), "\n") {
		var ev engine.Event
		if !strings.HasSuffix(line, "\n") || json.Unmarshal([]byte(line), &ev) != nil {
			break // a torn last line: a write a kill cut short
		}
		events = append(events, ev)
	}
	return events
}

// results are the journal's match results, by match.
func results(events []engine.Event) map[string]engine.Result {
	out := map[string]engine.Result{}
	for _, ev := range events {
		if ev.Kind == engine.EventMatchResult && ev.Result != nil {
			out[ev.MatchID] = *ev.Result
		}
	}
	return out
}

// histories are the players' history.json files, timestamps aside, by
// player and match.
func histories(t *testing.T, dir string, players int) map[string]map[string]player.HistoryEntry {
	t.Helper()
	layout := store.Layout{Root: dir, LeagueID: config.Default().LeagueID}
	out := map[string]map[string]player.HistoryEntry{}
	for i := range players {
		id := config.PlayerIDAt(i)
		path, err := layout.PlayerHistory(id)
		if err != nil {
			t.Fatal(err)
		}
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		var h player.History
		if err := json.Unmarshal(data, &h); err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		byMatch := map[string]player.HistoryEntry{}
		for _, e := range h.Matches {
			e.Timestamp = ""
			byMatch[e.MatchID] = e
		}
		out[id] = byMatch
	}
	return out
}

// sameLeague checks that a league played in gotDir ended as the
// uninterrupted one in wantDir: the same standings, the same result for
// every match, the same histories.
func sameLeague(t *testing.T, gotDir, wantDir string, got, want protocol.StandingsFile, players int) {
	t.Helper()
	if !slices.Equal(got.Standings, want.Standings) {
		t.Errorf("standings differ from an uninterrupted run's:\n got %+v\nwant %+v", got.Standings, want.Standings)
	}
	gotResults, wantResults := results(journal(t, gotDir)), results(journal(t, wantDir))
	if len(wantResults) != players*(players-1)/2 || !reflect.DeepEqual(gotResults, wantResults) {
		t.Errorf("match results differ from an uninterrupted run's (%d and %d of them):\n got %+v\nwant %+v",
			len(gotResults), len(wantResults), gotResults, wantResults)
	}
	if g, w := histories(t, gotDir, players), histories(t, wantDir, players); !maps.EqualFunc(g, w, func(a, b map[string]player.HistoryEntry) bool {
		return reflect.DeepEqual(a, b)
	}) {
		t.Errorf("players' histories differ from an uninterrupted run's:\n got %+v\nwant %+v", g, w)
	}
}

// TestResumeEndsAsUninterrupted: a league stopped in the middle, either
// by League.Stop (the manager saves its state as it exits) or by every
// agent killed with SIGKILL (a crash, which may leave writes cut short),
// is launched again on its folder with none of its flags given: Launch
// finds the league under way (Resumed, Unfinished, held paused), takes
// the journal's seed, its players and as many referees as it had, and
// the league, resumed, ends with the standings, results and histories of
// an uninterrupted run of the same seed.
func TestResumeEndsAsUninterrupted(t *testing.T) {
	const players, referees, seed = 8, 2, 23
	wantDir, want := uninterrupted(t, players, referees, seed)
	for _, tt := range []struct {
		name string
		halt func(*launcher.League)
	}{
		{"stopped", (*launcher.League).Stop},
		{"killed", func(l *launcher.League) {
			l.Manager.Kill() // first, as in a crash: the others may still be writing
			for _, c := range l.Children() {
				c.Kill()
			}
			l.Stop() // the lock, and nothing else left to stop
		}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			first := launch(t, newSpec(t, dir, players, referees, seed, launcher.Given{Seed: true, Players: true, Referees: true}))
			if first.Resumed != nil || first.Unfinished() || first.Seed != seed {
				t.Fatalf("a new league: Resumed %v, Unfinished %v, seed %d", first.Resumed, first.Unfinished(), first.Seed)
			}
			if err := first.Control.Start(t.Context()); err != nil {
				t.Fatal(err)
			}
			results := 0
			awaitEvent(t, first, 0, "the third result", func(ev engine.Event) bool {
				if ev.Kind == engine.EventMatchResult {
					results++
				}
				return results == 3
			})
			tt.halt(first)
			for _, c := range first.Children() {
				if c.Running() {
					t.Errorf("%s (PID %d) still runs after the league was halted", c.Name, c.PID())
				}
			}
			// A write the crash cut short, which the next owner of the
			// folder clears away before any agent starts.
			cut := filepath.Join(store.Layout{Root: dir, LeagueID: config.Default().LeagueID}.LeagueDir(), ".standings.json.tmp-cut")
			if err := os.WriteFile(cut, []byte(`{"torn`), 0o644); err != nil {
				t.Fatal(err)
			}

			// None of the flags given: the size and seed are the folder's.
			again := launch(t, newSpec(t, dir, 64, 8, 99, launcher.Given{}))
			if again.Resumed == nil || !again.Unfinished() || again.Finished() {
				t.Fatalf("the folder's league was not found under way: Resumed %+v", again.Resumed)
			}
			if again.Resumed.State != engine.LeaguePaused {
				t.Errorf("a resumed league is held %s, want paused until its front end resumes it", again.Resumed.State)
			}
			if done := again.Resumed.MatchesDone; done < 3 || done >= again.Resumed.MatchesTotal {
				t.Errorf("resumed at %d of %d matches, want at least the 3 seen and not all", done, again.Resumed.MatchesTotal)
			}
			if again.Seed != seed || again.Resumed.Seed != seed {
				t.Errorf("resumed with seed %d (journal %d), want the league's %d", again.Seed, again.Resumed.Seed, seed)
			}
			if len(again.Players) != players || len(again.Referees) != referees {
				t.Errorf("resumed with %d players and %d referees, want the league's %d and %d",
					len(again.Players), len(again.Referees), players, referees)
			}
			if _, err := os.Stat(cut); !errors.Is(err, os.ErrNotExist) {
				t.Errorf("the cut write %s is still there (%v)", cut, err)
			}
			got := playToEnd(t, again)
			again.Stop()
			sameLeague(t, dir, wantDir, got, want, players)
		})
	}
}

// TestReopenCompletedLeague: a folder whose league has completed is
// launched again with none of its flags: Launch names the league as it
// ended (Finished, its seed), starts no referee or player (nothing
// registers again in its journal), keeps the start the folder remembers,
// and rebuilds the players' histories from the journal where they were
// lost. Flags that disagree with the league are refused, naming it and
// the two ways on, with the lock given back.
func TestReopenCompletedLeague(t *testing.T) {
	const players, referees, seed = 4, 1, 5
	dir := t.TempDir()
	started := []string{"--players", "4", "--referees", "1", "--seed", "5"}
	spec := newSpec(t, dir, players, referees, seed, launcher.Given{Seed: true, Players: true, Referees: true})
	spec.StartArgs = started
	first := launch(t, spec)
	final := playToEnd(t, first)
	first.Stop()
	before := histories(t, dir, players)
	remembered, ok, err := store.LoadStartSpec(dir)
	if err != nil || !ok || !slices.Equal(remembered.Args, started) {
		t.Fatalf("the folder remembers %+v (%v, %v), want the start's flags %v", remembered, ok, err, started)
	}
	// A history lost (a player killed before it wrote it, a full disk).
	layout := store.Layout{Root: dir, LeagueID: config.Default().LeagueID}
	lost, _ := layout.PlayerHistory("P02")
	if err := os.Remove(lost); err != nil {
		t.Fatal(err)
	}
	events := len(journal(t, dir))

	reopened := newSpec(t, dir, 64, 8, 1, launcher.Given{})
	reopened.StartArgs = []string{"--players", "64"}
	l := launch(t, reopened)
	if !l.Finished() || l.Unfinished() || l.Resumed.State != engine.LeagueCompleted {
		t.Fatalf("reopened: Resumed %+v, Finished %v", l.Resumed, l.Finished())
	}
	if l.Seed != seed || len(l.Resumed.Standings) != players || !slices.Equal(l.Resumed.Standings, final.Standings) {
		t.Errorf("reopened with seed %d and standings %+v, want seed %d and %+v", l.Seed, l.Resumed.Standings, seed, final.Standings)
	}
	if len(l.Referees) != 0 || len(l.Players) != 0 || len(l.Children()) != 1 {
		t.Errorf("a completed league started %d referees and %d players; want the manager alone", len(l.Referees), len(l.Players))
	}
	want := launcher.DescribeLeague(dir, *l.Resumed)
	if d := dir + " holds league " + config.Default().LeagueID + ": completed, even_odd, 4 players, seed 5, 6 of 6 matches played"; want != d {
		t.Errorf("DescribeLeague = %q, want %q", want, d)
	}
	if got := histories(t, dir, players); !reflect.DeepEqual(got, before) {
		t.Errorf("histories after the reopen:\n got %+v\nwant %+v", got, before)
	}
	l.Stop()
	if n := len(journal(t, dir)); n != events {
		t.Errorf("the reopen wrote %d events into the finished league's journal", n-events)
	}
	if again, _, _ := store.LoadStartSpec(dir); !slices.Equal(again.Args, started) {
		t.Errorf("the reopen's flags %v replaced the start the folder remembers (%v)", again.Args, started)
	}

	for _, tt := range []struct {
		name  string
		spec  launcher.Spec
		wants []string
	}{
		{"another seed", newSpec(t, dir, 64, 8, 9, launcher.Given{Seed: true}),
			[]string{"--seed 9 (its seed is 5)", "leave out --seed 9", "--data NEW_FOLDER --seed 9"}},
		{"more players", newSpec(t, dir, 16, 8, 1, launcher.Given{Players: true}),
			[]string{"--players 16 (it has 4)", "leave out --players 16", "--data NEW_FOLDER --players 16"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(t.Context(), leagueTimeout)
			defer cancel()
			l, err := launcher.Launch(ctx, tt.spec)
			if l != nil {
				defer l.Stop()
			}
			if err == nil {
				t.Fatal("a flag that disagrees with the folder's league was taken")
			}
			for _, w := range append([]string{want}, tt.wants...) {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error lacks %q:\n%v", w, err)
				}
			}
			if l == nil || len(l.Referees)+len(l.Players) != 0 {
				t.Errorf("refused, Launch returned %v: want the manager it started, and no other agent", l)
			}
		})
	}
	// Each refusal gave the folder back: it opens as it is.
	as := launch(t, newSpec(t, dir, 64, 8, 1, launcher.Given{}))
	if !as.Finished() {
		t.Errorf("after the refusals the folder's league is %+v", as.Resumed)
	}
}
