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
// Go SDK's client, each to the end with every match played, and the
// table and JSON give each league's median match and what its seat adds.
func TestSeatsPlaysTheLeagueThreeWays(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	cfg := config.Default()
	cfg.Format.GamesPerPair = 2
	var progress bytes.Buffer
	result, err := Seats(ctx, SeatsOptions{Progress: &progress, Spec: launcher.Spec{Config: cfg, ConfigArgs: []string{"--games-per-pair", "2"}, Executable: leaguetest.Binary(t),
		DataDir: t.TempDir(), Players: 4, Referees: 2, Seed: 7, Given: launcher.Given{Seed: true}, FreePorts: true}})
	if err != nil {
		t.Fatalf("%v\n%s", err, progress.String())
	}
	if len(result.Leagues) != len(SeatKinds) {
		t.Fatalf("%d leagues, want %d: %+v", len(result.Leagues), len(SeatKinds), result)
	}
	for i, l := range result.Leagues {
		if l.Kind != SeatKinds[i] || l.Matches != 12 || l.MatchP50 <= 0 || l.MatchP99 < l.MatchP50 {
			t.Errorf("league %d: %+v, want the %s league's 12 matches (4 players, 2 games a pair) and their durations", i, l, SeatKinds[i])
		}
	}
	var table, doc bytes.Buffer
	if err := result.Table(&table); err != nil {
		t.Fatal(err)
	}
	for _, kind := range SeatKinds {
		if !strings.Contains(table.String(), kind+" (4)") {
			t.Errorf("the table has no row for the %s league:\n%s", kind, table.String())
		}
	}
	if err := result.JSON(&doc); err != nil {
		t.Fatal(err)
	}
	var out struct {
		Leagues []struct {
			Kind     string  `json:"kind"`
			Added    float64 `json:"added_to_p50_ms"`
			MatchP50 float64 `json:"match_p50_ms"`
		} `json:"leagues"`
	}
	if err := json.Unmarshal(doc.Bytes(), &out); err != nil || len(out.Leagues) != 3 {
		t.Fatalf("JSON %v:\n%s", err, doc.String())
	}
	for _, l := range out.Leagues[1:] {
		if want := l.MatchP50 - out.Leagues[0].MatchP50; l.Added < want-1e-6 || l.Added > want+1e-6 {
			t.Errorf("%s: added %.6f ms, want its median less the push league's, %.6f", l.Kind, l.Added, want)
		}
	}
}
