package llm_test

import (
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"github.com/leaguetui/leaguetui/internal/leaguetest"
	"github.com/leaguetui/leaguetui/internal/leaguetest/fakellm"
)

// limitedLeague is a league of model players only against the fake, with
// what it took.
type limitedLeague struct {
	fake    *fakellm.Server
	dir     string
	matches []match
	wall    time.Duration // the whole run of leaguetui
	moves   int           // model moves in the match files
	lost    []string      // the model moves that failed, and why
}

// runLimitedLeague runs a headless even/odd league of players model
// players and referees referees against fake, every model player of one
// key, with the extra args (--llm-rpm), and checks its standings.
func runLimitedLeague(t testing.TB, fake *fakellm.Server, players, referees int, extra ...string) limitedLeague {
	t.Helper()
	dir := t.TempDir()
	args := append([]string{"--no-ui", "--free-ports", "--data", dir, "--seed", "3", "--players", fmt.Sprint(players),
		"--referees", fmt.Sprint(referees), "--strategies", "llm", "--llm-provider", "openai", "--llm-base-url", fake.OpenAIURL(),
		"--llm-model", "fake", "--move-timeout", "20s", "--join-timeout", "10s", "--retry-delay", "50ms", "--suspend-after", "0"},
		extra...)
	start := time.Now()
	run := leaguetest.RunLeaguetui(t, dir, leagueTimeout, nil, args...)
	l := limitedLeague{fake: fake, dir: dir, wall: time.Since(start)}
	if run.Err != nil {
		leaguetest.KillLeftovers(t, dir)
		t.Fatalf("leaguetui %v: %v\n%s", args, run.Err, run.Stderr)
	}
	id := leaguetest.LeagueIn(t, dir)
	l.matches = leaguetest.ReadMatchFiles[match](t, dir, id)
	results := make([]leaguetest.MatchResult, len(l.matches))
	for i, m := range l.matches {
		results[i] = m.Result.MatchResult
		l.countMoves(t, m)
	}
	leaguetest.CheckStandings(t, dir, id, results)
	return l
}

// countMoves counts m's model moves and keeps those that failed.
func (l *limitedLeague) countMoves(t testing.TB, m match) {
	for _, r := range modelReplies(t, m) {
		l.moves++
		if r.ErrorType != "" || r.Fallback {
			l.lost = append(l.lost, fmt.Sprintf("%s %s: %s %v", m.MatchID, r.Player, r.ErrorType, r.Metadata))
		}
	}
}

// checkNothingLost fails t for every model move that failed, and for a
// league whose moves the provider did not all answer.
func (l limitedLeague) checkNothingLost(t *testing.T) {
	t.Helper()
	for _, lost := range l.lost {
		t.Errorf("a model move failed: %s", lost)
	}
	requests := l.fake.Requests()
	if answered := len(requests) - l.fake.Refused(); answered != l.moves || l.moves == 0 {
		t.Errorf("the provider answered %d requests for %d model moves", answered, l.moves)
	}
}

// A provider limited to 5 requests a second, and --llm-rpm 300, its own
// limit: six model players (separate processes, on one key) under three
// referees send on one shared schedule, so the provider refuses none of
// their requests and no move is lost; the schedule is the file of the
// data folder.
func TestConfiguredLimitRefusesNothing(t *testing.T) {
	fake := fakellm.Start(fakellm.Good)
	t.Cleanup(fake.Close)
	fake.Limit(5, false)
	t.Setenv("OPENAI_API_KEY", testKey)
	l := runLimitedLeague(t, fake, 6, 3, "--llm-rpm", "300")
	l.checkNothingLost(t)
	checkNoneRefused(t, fake)
	schedules, _ := filepath.Glob(filepath.Join(l.dir, "models", "ratelimit-*.json"))
	if len(schedules) != 1 {
		t.Errorf("%d shared schedules in the data folder, want 1: %v", len(schedules), schedules)
	}
	checkNoKey(t, l.dir, "")
}

// A provider limited to 12 requests a second that states its limit in its
// headers, and nothing configured: the players keep to what the first
// answers say, so it refuses none of their requests and no move is lost.
// The requests sent before any answer came back, two a match at most (3
// referees, 2 matches at once each), fit in the provider's first second.
func TestStatedLimitRefusesNothing(t *testing.T) {
	fake := fakellm.Start(fakellm.Good)
	t.Cleanup(fake.Close)
	fake.Limit(12, true)
	t.Setenv("OPENAI_API_KEY", testKey)
	l := runLimitedLeague(t, fake, 6, 3)
	l.checkNothingLost(t)
	checkNoneRefused(t, fake)
}

// checkNoneRefused fails t, with the requests' times, if the fake
// answered any request 429.
func checkNoneRefused(t *testing.T, fake *fakellm.Server) {
	t.Helper()
	if refused := fake.Refused(); refused != 0 {
		requests := fake.Requests()
		var times []string
		for _, r := range requests {
			times = append(times, fmt.Sprintf("%dms %s", r.At.Sub(requests[0].At).Milliseconds(), r.Answer))
		}
		t.Errorf("the provider refused %d of %d requests: %v", refused, len(requests), times)
	}
}

// A provider that states nothing and answers 429 past its limit: the
// players learn the limit from the 429s, and every refused request is
// asked again within its move's deadline, so no move is lost.
func TestLearnedLimitLosesNoMove(t *testing.T) {
	fake := fakellm.Start(fakellm.Good)
	t.Cleanup(fake.Close)
	fake.Limit(5, false)
	t.Setenv("OPENAI_API_KEY", testKey)
	l := runLimitedLeague(t, fake, 6, 3)
	l.checkNothingLost(t)
	t.Logf("%d model moves, %d of %d requests refused", l.moves, fake.Refused(), len(fake.Requests()))
	if fake.Refused() == 0 {
		t.Fatal("the provider refused nothing: its limit was never reached")
	}
	schedules, _ := filepath.Glob(filepath.Join(l.dir, "models", "ratelimit-*.json"))
	if len(schedules) != 1 {
		t.Fatalf("%d shared schedules in the data folder, want 1: %v", len(schedules), schedules)
	}
	var schedule struct {
		Rate float64 `json:"rate"`
	}
	leaguetest.ReadJSON(t, schedules[0], &schedule)
	if schedule.Rate <= 0 {
		t.Errorf("the shared schedule learned no rate from the 429s: %+v", schedule)
	}
}
