package bench

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/leaguetui/leaguetui/config"
	"github.com/leaguetui/leaguetui/internal/leaguetest"
	"github.com/leaguetui/leaguetui/league/launcher"
)

// TestSeatsPlaysTheLeagueThreeWays: the same league of 4 players, played
// with push players, pull-seat players and MCP-client seats driven by the
// Go SDK's client, in two rounds of another order each, each league to
// the end with every match played, and the table and JSON give each
// league's median match and CPU over the rounds and what its seat adds,
// round by round.
func TestSeatsPlaysTheLeagueThreeWays(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()
	cfg := config.Default()
	cfg.Format.GamesPerPair = 2
	var progress bytes.Buffer
	result, err := Seats(ctx, SeatsOptions{Rounds: 2, Progress: &progress, Spec: launcher.Spec{Config: cfg, ConfigArgs: []string{"--games-per-pair", "2"},
		Executable: leaguetest.Binary(t), DataDir: t.TempDir(), Players: 4, Referees: 2, Seed: 7, Given: launcher.Given{Seed: true}, FreePorts: true}})
	if err != nil {
		t.Fatalf("%v\n%s", err, progress.String())
	}
	if len(result.Rounds) != 2 {
		t.Fatalf("%d rounds, want 2: %+v", len(result.Rounds), result)
	}
	for r, round := range result.Rounds {
		for i, l := range round {
			if l.Kind != SeatKinds[i] || l.Matches != 12 || l.MatchP50 <= 0 || l.MatchP99 < l.MatchP50 || l.MoveMean <= 0 || !l.CPUKnown || l.CPU <= 0 {
				t.Errorf("round %d, league %d: %+v, want the %s league's 12 matches (4 players, 2 games a pair), their durations, mean move and CPU", r+1, i, l, SeatKinds[i])
			}
		}
	}
	for _, first := range []string{"round 1/2, push league: launching", "round 2/2, pull league: launching"} {
		if i := strings.Index(progress.String(), first); i < 0 || strings.Contains(progress.String()[:i], first[:len("round 1/2")]+",") {
			t.Errorf("the progress does not start %q with it:\n%s", first[:len("round 1/2")], progress.String())
		}
	}
	var table, doc bytes.Buffer
	if err := result.Table(&table); err != nil {
		t.Fatal(err)
	}
	for _, kind := range SeatKinds {
		if !strings.Contains(table.String(), "\n"+kind+" ") {
			t.Errorf("the table has no row for the %s league:\n%s", kind, table.String())
		}
	}
	if err := result.JSON(&doc); err != nil {
		t.Fatal(err)
	}
	type spread struct{ Median, Min, Max float64 }
	var out struct {
		Leagues []struct {
			Kind     string  `json:"kind"`
			Added    *spread `json:"added_to_p50_ms"`
			CPUAdded *spread `json:"cpu_added_per_match_ms"`
		} `json:"leagues"`
		Rounds [][]struct {
			Kind       string             `json:"kind"`
			MatchP50MS float64            `json:"match_p50_ms"`
			CPUMS      *float64           `json:"cpu_ms"`
			ByProcess  map[string]float64 `json:"cpu_by_process_ms"`
		} `json:"rounds"`
	}
	if err := json.Unmarshal(doc.Bytes(), &out); err != nil || len(out.Leagues) != 3 || len(out.Rounds) != 2 {
		t.Fatalf("JSON %v:\n%s", err, doc.String())
	}
	for _, round := range out.Rounds {
		for _, l := range round {
			var sum float64
			for _, ms := range l.ByProcess {
				sum += ms
			}
			if _, host := l.ByProcess["seat host"]; l.CPUMS == nil || !near(sum, *l.CPUMS) || host != (l.Kind == SeatMCP) || l.ByProcess["manager"] <= 0 {
				t.Errorf("%s: CPU %v ms by process %v, want the manager's, the referees', the bench's (and the MCP league's seat host's) adding up to it", l.Kind, l.CPUMS, l.ByProcess)
			}
		}
	}
	for kind, l := range out.Leagues[1:] {
		var added []float64
		for _, round := range out.Rounds {
			added = append(added, round[kind+1].MatchP50MS-round[0].MatchP50MS)
		}
		lo, hi := min(added[0], added[1]), max(added[0], added[1])
		if l.Added == nil || l.CPUAdded == nil || !near(l.Added.Min, lo) || !near(l.Added.Max, hi) || l.Added.Median < lo-1e-6 || l.Added.Median > hi+1e-6 {
			t.Errorf("%s: added %+v, want the spread of its rounds' median less the push league's, %v", l.Kind, l.Added, added)
		}
	}
}

func near(a, b float64) bool { return a-b < 1e-6 && b-a < 1e-6 }
