package referee_test

import (
	"context"
	"io"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/leaguetui/leaguetui/agents/manager"
	"github.com/leaguetui/leaguetui/agents/referee"
	"github.com/leaguetui/leaguetui/agents/store"
	"github.com/leaguetui/leaguetui/config"
	"github.com/leaguetui/leaguetui/engine"
	"github.com/leaguetui/leaguetui/internal/leaguetest"
	"github.com/leaguetui/leaguetui/league/control"
)

// TestShutdownCancelsMatchAndRunResumes: a real manager and referee (in
// this process, over HTTP) run a league of two players that never answer
// their invitations (badplayer stall, real processes). The referee's
// Shutdown, mid-match, cancels the match at once rather than waiting out
// the join deadline, and nothing is reported for it. The manager's
// Shutdown, while the league runs, leaves a journal that a new manager
// resumes from, with the match to be played again.
func TestShutdownCancelsMatchAndRunResumes(t *testing.T) {
	dir := t.TempDir()
	cfg := config.Default()
	cfg.Timeouts.JoinAck = 2 * time.Minute // a match waited for rather than cancelled would hold Shutdown to its deadline
	m := startManager(t, cfg, dir, io.Discard)
	r, err := referee.New(referee.Options{Config: cfg, DataDir: dir, ManagerURL: m.Endpoint(), Name: "REF01", Key: leaguetest.RefereeKey})
	if err != nil {
		t.Fatal(err)
	}
	r.Stdout = io.Discard
	if err := r.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = r.Shutdown(context.Background()) })
	leaguetest.StartBadPlayer(t, dir, m.Endpoint(), "P01", "stall")
	leaguetest.StartBadPlayer(t, dir, m.Endpoint(), "P02", "stall")

	ctl := control.New(m.Endpoint(), adminToken)
	if err := ctl.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	// The referee reports the invitations as its first match step.
	_, last := leaguetest.NextEvents(t, ctl, 0, time.Minute, engine.EventMatchStep)

	ctx, cancel := context.WithTimeout(context.Background(), cfg.Timeouts.JoinAck)
	defer cancel()
	began := time.Now()
	err = r.Shutdown(ctx)
	took := time.Since(began)
	if err != nil {
		t.Fatalf("referee shutdown: %v", err)
	}
	if limit := cfg.Timeouts.JoinAck / 4; took > limit {
		t.Errorf("the referee took %s to shut down mid-match, more than %s: the match was not cancelled", took, limit)
	}
	if !logHas(t, dir, cfg.LeagueID, "REF01", "MATCH_CANCELLED") {
		t.Error("the referee's log says no match was cancelled")
	}

	page, err := ctl.Events(context.Background(), last, 0)
	if err != nil {
		t.Fatal(err)
	}
	for _, ev := range page.Events {
		if ev.Kind == engine.EventMatchResult {
			t.Errorf("a result after the referee's shutdown: %+v", ev.Result)
		}
	}
	if page.State != engine.LeagueRunning {
		t.Fatalf("the league is %s before the manager's shutdown, want running", page.State)
	}

	if err := m.Shutdown(ctx); err != nil {
		t.Fatalf("manager shutdown: %v", err)
	}
	var out strings.Builder
	again := startManager(t, cfg, dir, &out)
	if !strings.Contains(out.String(), "resumed league") {
		t.Errorf("the new manager did not resume from the journal; it printed %q", out.String())
	}
	resumed, _ := leaguetest.NextEvents(t, control.New(again.Endpoint(), adminToken), 0, time.Minute, engine.EventRestarted)
	if restart := resumed[len(resumed)-1]; !strings.Contains(restart.Detail, "played again") {
		t.Errorf("restart event %q does not say the running match is played again", restart.Detail)
	}
	for _, ev := range resumed {
		if ev.Kind == engine.EventMatchResult {
			t.Errorf("the journal holds a result for %s, which was cancelled", ev.MatchID)
		}
	}
}

// startManager runs a manager on a free port until the test ends.
func startManager(t *testing.T, cfg config.Config, dir string, stdout io.Writer) *manager.Manager {
	t.Helper()
	m, err := manager.New(manager.Options{Config: cfg, DataDir: dir, AdminToken: adminToken, Seed: 3, SeedSet: true,
		RefereeKey: leaguetest.RefereeKey})
	if err != nil {
		t.Fatal(err)
	}
	m.Stdout = stdout
	if err := m.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = m.Shutdown(context.Background()) }) // after the test's own, it does nothing
	return m
}

// logHas reports whether an agent's log holds an event of this type.
func logHas(t *testing.T, dir, leagueID, name, eventType string) bool {
	t.Helper()
	layout, err := store.NewLayout(dir, leagueID)
	if err != nil {
		t.Fatal(err)
	}
	path, err := layout.AgentLog(name)
	if err != nil {
		t.Fatal(err)
	}
	log, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return strings.Contains(string(log), `"event_type":"`+eventType+`"`)
}
