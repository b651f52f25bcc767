package roster_test

import (
	"testing"
	"time"

	"github.com/leaguetui/leaguetui/internal/leaguetest"
)

// TestRefereeUnderAnnouncingManager: our referee, registered with a
// manager of another implementation's style (no manager_key, no
// start_match, matches started by round announcements only), plays a whole
// league: the matches each announcement assigns it, once each though a
// round is announced twice, by its id or its endpoint, finding the
// players' endpoints in the announcement or, without them, by asking the
// manager (league_query GET_PLAYERS).
func TestRefereeUnderAnnouncingManager(t *testing.T) {
	data := t.TempDir()
	manager := leaguetest.StartAnnouncer(t)
	leaguetest.StartReferee(t, data, manager.Endpoint, "REF01")
	for _, name := range []string{"P01", "P02", "P03", "P04"} {
		leaguetest.StartPlayer(t, data, manager.Endpoint, name, "--strategy", "random", "--seed", "5")
	}
	rounds := [][]leaguetest.AnnouncedMatch{
		{{ID: "R1M1", PlayerA: "P01", PlayerB: "P02"}, {ID: "R1M2", PlayerA: "P03", PlayerB: "P04"}},
		{{ID: "R2M1", PlayerA: "P01", PlayerB: "P03", ByEndpoint: true, NoEndpoints: true},
			{ID: "R2M2", PlayerA: "P02", PlayerB: "P04", ByEndpoint: true}},
		{{ID: "R3M1", PlayerA: "P01", PlayerB: "P04", NoEndpoints: true}, {ID: "R3M2", PlayerA: "P02", PlayerB: "P03"}},
	}
	var all []string
	for i, matches := range rounds {
		manager.Announce(i+1, "REF01", 2, matches...)
		ids := []string{matches[0].ID, matches[1].ID}
		all = append(all, ids...)
		manager.AwaitResults(time.Minute, ids...)
	}
	reports := manager.AwaitResults(time.Minute, all...)
	for _, id := range all {
		if n := len(reports[id]); n != 1 {
			t.Errorf("%s reported %d times, want once", id, n)
			continue
		}
		result, _ := reports[id][0]["result"].(map[string]any)
		if status, _ := result["status"].(string); status != "WIN" && status != "DRAW" {
			t.Errorf("%s: result %v, want a WIN or a DRAW (no technical loss)", id, result)
		}
	}
	if len(reports) != len(all) {
		t.Errorf("reports of %d matches, want %d: %v", len(reports), len(all), reports)
	}
}
