package noui_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/leaguetui/leaguetui/engine"
	"github.com/leaguetui/leaguetui/internal/leaguetest"
)

// TestUntilSeparatedAsAWholeLeague runs a round robin with
// --until-separated as real processes, twice with the same seed: each
// separating match is the one the engine chooses from the journal's
// results before it, the journal says why, --no-ui shows the pairs still
// unsure, and the second run plays the same schedule.
func TestUntilSeparatedAsAWholeLeague(t *testing.T) {
	t.Parallel()
	var schedules [2]string
	for i := range schedules {
		run := runHeadless(t, 5, 2, 17, "--until-separated", "6", "--strategies", "random,counter,pattern")
		journal := leaguetest.Journal(t, run.dataDir, leagueID)
		replay := engine.NewLeague(leagueID, engine.DefaultScoring())
		separating := 0
		var schedule []string // the matches played, in match order (results come in any order within a round)
		for _, ev := range journal {
			if ev.Kind == engine.EventRoundScheduled {
				want, why, due, err := replay.NextRoundWhy()
				if !due || err != nil || fmt.Sprint(want) != fmt.Sprint(*ev.Schedule) || why != ev.Detail {
					t.Errorf("round %d: journaled %v (%q), the engine chooses %v (%q, due %v, %v)", ev.Round, *ev.Schedule, ev.Detail,
						want, why, due, err)
				}
				if !strings.HasPrefix(ev.Detail, "until-separated: ") || len(ev.Schedule.Matches) != 1 {
					t.Errorf("round %d: %q, %d matches", ev.Round, ev.Detail, len(ev.Schedule.Matches))
				}
				if !strings.Contains(run.stderr, fmt.Sprintf("round %d paired: %s", ev.Round, ev.Detail)) {
					t.Errorf("--no-ui did not say why round %d was paired", ev.Round)
				}
				separating++
			}
			if ev.Kind == engine.EventMatchResult {
				schedule = append(schedule, fmt.Sprintf("%s %s %s %s", ev.Result.MatchID, ev.Result.PlayerA, ev.Result.PlayerB, ev.Result.Winner))
			}
			if err := replay.Apply(ev); err != nil {
				t.Fatalf("the journal does not replay: %v", err)
			}
		}
		st, ok := replay.SeparationStatus()
		if !ok || st.Played != separating || replay.State != engine.LeagueCompleted {
			t.Fatalf("separation %+v after %d separating rounds, league %s", st, separating, replay.State)
		}
		if separating < 6 && st.Unsure > 0 {
			t.Errorf("the league stopped after %d separating matches with %d pairs unsure", separating, st.Unsure)
		}
		line := fmt.Sprintf("until-separated: %d of 6 separating matches played; %d of %d adjacent pairs unsure", st.Played, st.Unsure, st.Pairs)
		if !strings.Contains(run.stdout, line) {
			t.Errorf("the final standings do not say %q:\n%s", line, run.stdout)
		}
		slices.Sort(schedule)
		schedules[i] = strings.Join(schedule, "\n")
	}
	if schedules[0] != schedules[1] {
		t.Errorf("the same seed played two schedules:\n%s\n%s", schedules[0], schedules[1])
	}
}
