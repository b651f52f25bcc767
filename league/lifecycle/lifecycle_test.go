package lifecycle_test

import (
	"context"
	"flag"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/leaguetui/leaguetui/agents/protocol"
	"github.com/leaguetui/leaguetui/config"
	"github.com/leaguetui/leaguetui/engine"
	"github.com/leaguetui/leaguetui/internal/leaguetest"
	"github.com/leaguetui/leaguetui/league/launcher"
	"github.com/leaguetui/leaguetui/league/lifecycle"
)

// These tests run real leagues: the leaguetui binary's agents as real
// processes talking HTTP on 127.0.0.1, launched, begun, completed and
// stopped through the lifecycle with no terminal. They wait on the
// manager's feed or poll with a deadline, never by sleeping.

func TestMain(m *testing.M) { leaguetest.Main(m) }

// leagueTimeout bounds a test's league from its start to its end.
const leagueTimeout = 90 * time.Second

// fast are the settings that keep a test's league short.
var fast = []string{"--move-timeout", "3s", "--join-timeout", "5s", "--retry-delay", "50ms"}

// newSpec is a league of players built-in players and referees referees
// with the league's flags (the config's, as its agents get them too), in
// a data folder of its own.
func newSpec(t *testing.T, players, referees int, seed int64, flags ...string) launcher.Spec {
	t.Helper()
	fs := flag.NewFlagSet("leaguetui", flag.ContinueOnError)
	cf := config.AddCommandFlags(fs, "")
	if err := fs.Parse(append(slices.Clone(fast), flags...)); err != nil {
		t.Fatal(err)
	}
	cfg, err := cf.Resolve()
	if err != nil {
		t.Fatal(err)
	}
	return launcher.Spec{Config: cfg, ConfigArgs: cf.Args(), Executable: leaguetest.Binary(t), DataDir: t.TempDir(),
		Players: players, Referees: referees, Seed: seed, Given: launcher.Given{Seed: true}, FreePorts: true,
		Env: leaguetest.ChildEnv()}
}

// recorder is a presenter that keeps what it is told, a line each.
type recorder struct {
	mu   sync.Mutex
	told []string
}

var _ lifecycle.Presenter = (*recorder)(nil)

func (r *recorder) tell(format string, args ...any) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.told = append(r.told, fmt.Sprintf(format, args...))
}

func (r *recorder) Launching(players, referees int) {
	r.tell("launching %d players, %d referees", players, referees)
}
func (r *recorder) Launched(l *launcher.League) { r.tell("launched, resumed %t", l.Resumed != nil) }
func (r *recorder) Joining(step lifecycle.JoinStep, j launcher.Joining) {
	r.tell("joining %d: joined %v, complete %t", step, j.Joined, j.Complete())
}
func (r *recorder) Beginning(b lifecycle.Begun) { r.tell("beginning %d, seed %d", b.How, b.Seed) }
func (r *recorder) Say(level slog.Level, msg string, err error) {
	r.tell("say %s: %s (%v)", level, msg, err)
}
func (r *recorder) Stopped(l *launcher.League) { r.tell("stopped %d agents", len(l.Children())) }

// lines is what the presenter has been told so far.
func (r *recorder) lines() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.told)
}

// awaitLine polls what the presenter was told until a line holds want.
func (r *recorder) awaitLine(t *testing.T, want string) string {
	t.Helper()
	var found string
	eventually(t, "the presenter told "+want, func() bool {
		i := slices.IndexFunc(r.lines(), func(l string) bool { return strings.Contains(l, want) })
		if i >= 0 {
			found = r.lines()[i]
		}
		return i >= 0
	})
	return found
}

// wantTold fails unless each of want is in a line told, in this order.
func (r *recorder) wantTold(t *testing.T, want ...string) {
	t.Helper()
	lines, at := r.lines(), 0
	for _, w := range want {
		i := slices.IndexFunc(lines[at:], func(l string) bool { return strings.Contains(l, w) })
		if i < 0 {
			t.Fatalf("the presenter was not told %q (after line %d); it was told:\n%s", w, at, strings.Join(lines, "\n"))
		}
		at += i + 1
	}
}

// eventually polls cond every 20 ms until it holds, or fails the test
// after leagueTimeout.
func eventually(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(leagueTimeout)
	tick := time.NewTicker(20 * time.Millisecond)
	defer tick.Stop()
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("%s: not within %s", what, leagueTimeout)
		}
		<-tick.C
	}
}

// launch launches spec's league, stopped when the test ends if the test
// has not stopped it.
func launch(t *testing.T, spec launcher.Spec, p lifecycle.Presenter, opts lifecycle.Options) *lifecycle.League {
	t.Helper()
	league, err := lifecycle.Launch(t.Context(), spec, p, opts)
	if league != nil {
		t.Cleanup(league.Stop)
	}
	if err != nil {
		t.Fatalf("launch: %v", err)
	}
	return league
}

// stop stops the league and checks that none of its processes is left.
func stop(t *testing.T, league *lifecycle.League, spec launcher.Spec) {
	t.Helper()
	league.Stop()
	for _, c := range league.Children() {
		if c.Running() {
			t.Errorf("%s (PID %d) still runs after Stop", c.Name, c.PID())
		}
	}
	if !leaguetest.HaveProc() {
		return
	}
	left, err := leaguetest.ProcessesMentioning(spec.DataDir)
	if err != nil {
		t.Fatal(err)
	}
	for pid, line := range left {
		t.Errorf("process %d of the league still runs after Stop: %s", pid, line)
	}
}

// standings reads the data folder's standings.json.
func standings(t *testing.T, spec launcher.Spec) protocol.StandingsFile {
	t.Helper()
	var doc protocol.StandingsFile
	leaguetest.ReadJSON(t, spec.StandingsPath(), &doc)
	return doc
}

// wantCompleted checks a completed league's standings: every match
// played, each counted twice (once per player), by the players it had.
func wantCompleted(t *testing.T, doc protocol.StandingsFile, players int) {
	t.Helper()
	if doc.State != engine.LeagueCompleted || doc.MatchesDone != doc.MatchesTotal || doc.MatchesTotal == 0 {
		t.Fatalf("standings: %s, %d of %d matches; want completed, all played", doc.State, doc.MatchesDone, doc.MatchesTotal)
	}
	played := 0
	for _, row := range doc.Standings {
		played += row.Played
	}
	if len(doc.Standings) != players || played != 2*doc.MatchesTotal {
		t.Errorf("standings: %d rows playing %d times, want %d rows and %d (two a match)", len(doc.Standings), played,
			players, 2*doc.MatchesTotal)
	}
}

// completeFeed waits on the manager's feed until the league completes and
// returns its final standings as the manager serves them.
func completeFeed(t *testing.T, league *lifecycle.League) protocol.StandingsFile {
	t.Helper()
	leaguetest.UntilCompleted(t, league.Control, 0, leagueTimeout)
	doc, err := league.Control.Standings(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return doc
}

// fileExists says a file or folder is there.
func fileExists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

// seasonFile is the season folder's file of the league, "" when none.
func seasonFile(dir string) string {
	found, _ := filepath.Glob(filepath.Join(dir, "leagues", "*.json"))
	if len(found) != 1 {
		return ""
	}
	return found[0]
}
