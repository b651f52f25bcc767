package engine

import (
	"fmt"
	"math"
	"testing"
)

// seasonLeague is a round robin of the named players, played as simulate
// plays it, its results and rows renamed from ids to season names.
func seasonLeague(t *testing.T, id string, names []string, strengths map[string]float64, seed int64) SeasonLeague {
	ids := players(len(names))
	byID := map[string]float64{}
	for i, n := range names {
		byID[ids[i]] = strengths[n]
	}
	sim := simulate(t, FormatSpec{Format: FormatDoubleRoundRobin}, byID, seed, nil)
	rename := func(id string) string {
		for i, p := range ids {
			if p == id {
				return names[i]
			}
		}
		return id
	}
	out := SeasonLeague{ID: id}
	for r := range sim.l.RecordedResults().All() {
		r.PlayerA, r.PlayerB, r.Winner = rename(r.PlayerA), rename(r.PlayerB), rename(r.Winner)
		out.Results = append(out.Results, r)
	}
	for _, row := range sim.l.Table.Rows() {
		out.Rows = append(out.Rows, SeasonTotal{Name: rename(row.PlayerID), Leagues: 1, Played: row.Played, Wins: row.Wins,
			Draws: row.Draws, Losses: row.Losses, TechnicalLosses: row.TechnicalLosses, Points: float64(row.Points)})
	}
	return out
}

func TestSeasonAddsUpItsLeagues(t *testing.T) {
	strengths := map[string]float64{"ann": 300, "bob": 200, "cat": 100, "dan": 0, "eve": -100}
	leagues := []SeasonLeague{
		seasonLeague(t, "week1", []string{"ann", "bob", "cat", "dan"}, strengths, 1),
		seasonLeague(t, "week2", []string{"bob", "cat", "dan", "eve"}, strengths, 2),
		seasonLeague(t, "week3", []string{"ann", "cat", "eve"}, strengths, 3),
	}
	for n := 2; n <= 3; n++ {
		part := leagues[:n]
		table := SeasonTable(part, RatingOptions{})
		var concatenated []Result
		played := map[string]int{}
		inLeagues := map[string]int{}
		for _, l := range part {
			concatenated = append(concatenated, l.Results...)
			for _, r := range l.Rows {
				played[r.Name] += r.Played
				inLeagues[r.Name]++
			}
		}
		fit := FitRatings([]string{"ann", "bob", "cat", "dan", "eve"}, concatenated, RatingOptions{})
		games := 0
		for i, row := range table {
			games += row.Played
			want, _ := fit.Rating(row.Name)
			if row.Played != played[row.Name] || row.Leagues != inLeagues[row.Name] || row.Rating.Games != played[row.Name] {
				t.Errorf("%d leagues: %s played %d in %d leagues, rated on %d; want %d in %d", n, row.Name, row.Played, row.Leagues,
					row.Rating.Games, played[row.Name], inLeagues[row.Name])
			}
			if math.Abs(row.Rating.Elo-want.Elo) > 1e-9 || math.Abs(row.Rating.CI95-want.CI95) > 1e-9 {
				t.Errorf("%d leagues: %s rated %.6f ± %.6f, the fit over the union %.6f ± %.6f", n, row.Name, row.Rating.Elo,
					row.Rating.CI95, want.Elo, want.CI95)
			}
			if i > 0 && table[i-1].Rating.Elo < row.Rating.Elo {
				t.Errorf("%s ranked below a lower rating", row.Name)
			}
			if i+1 < len(table) && (row.LOSNext == nil || math.Abs(*row.LOSNext-fit.LOS(row.Name, table[i+1].Name)) > 1e-12) {
				t.Errorf("%s: LOS over the next %v", row.Name, row.LOSNext)
			}
		}
		if games != 2*len(concatenated) {
			t.Errorf("%d leagues: the table counts %d games for %d results", n, games, len(concatenated))
		}
	}
	history := SeasonHistory(leagues, RatingOptions{})
	for k, fit := range history {
		want := FitSeason(leagues[:k+1], RatingOptions{})
		if fmt.Sprint(fit.Players) != fmt.Sprint(want.Players) {
			t.Errorf("history point %d is not the fit after league %d", k, k+1)
		}
	}
	if _, ok := history[0].Rating("eve"); ok {
		t.Errorf("eve is rated after the first league, which she missed")
	}
}

// TestSeasonTableCarriesRankIntervals: a season of two pairs of equal
// players 600 Elo apart, over four leagues, ranks each pair 1-2 and 3-4
// in its own tie group (the pairs across are sure, those within are
// not), and every row's interval is RankIntervals' over the season's fit.
func TestSeasonTableCarriesRankIntervals(t *testing.T) {
	strengths := map[string]float64{"ann": 600, "bob": 600, "cat": 0, "dan": 0}
	names := []string{"ann", "bob", "cat", "dan"}
	var leagues []SeasonLeague
	for seed := int64(1); seed <= 4; seed++ {
		leagues = append(leagues, seasonLeague(t, fmt.Sprintf("week%d", seed), names, strengths, seed))
	}
	want := map[string]RankInterval{}
	for _, iv := range RankIntervals(FitSeason(leagues, RatingOptions{})) {
		want[iv.PlayerID] = iv
	}
	for _, row := range SeasonTable(leagues, RatingOptions{}) {
		best, worst, group := 1, 2, 1
		if strengths[row.Name] == 0 {
			best, worst, group = 3, 4, 2
		}
		iv := row.Ranks
		if iv != want[row.Name] || iv.PlayerID != row.Name || iv.Best != best || iv.Worst != worst || iv.TieGroup != group {
			t.Errorf("%s: ranks %d-%d in tie group %d (the fit's %+v), want %d-%d in %d", row.Name, iv.Best, iv.Worst, iv.TieGroup,
				want[row.Name], best, worst, group)
		}
	}
}
