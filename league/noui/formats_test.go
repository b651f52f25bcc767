package noui_test

import (
	"fmt"
	"math"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// TestFormatsAsWholeLeagues runs a league of each format as real processes
// twice with the same seed: each completes with the schedule its format
// promises, standings.json adds up the match files (ratings included), and
// the second run gives the same table and the same results.
func TestFormatsAsWholeLeagues(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name    string
		players int
		args    []string
		check   func(t *testing.T, rounds roundsFile, players int)
	}{
		{"double-round-robin", 4, []string{"--format", "double-round-robin"}, checkDoubleRoundRobin},
		{"swiss", 7, []string{"--format", "swiss", "--rounds", "4"}, checkSwissRounds(4)},
		{"gauntlet", 5, []string{"--format", "gauntlet", "--challengers", "P02", "--games-per-pair", "2"}, checkGauntlet("P02", 2)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			var tables [2]standingsFile
			var results [2]map[string]matchResult
			for i := range tables {
				run := runHeadless(t, tc.players, 2, 31, tc.args...)
				dir := filepath.Join(run.dataDir, "leagues", leagueID)
				var rounds roundsFile
				readJSON(t, filepath.Join(dir, "rounds.json"), &rounds)
				readJSON(t, filepath.Join(dir, "standings.json"), &tables[i])
				tc.check(t, rounds, tc.players)
				matches := readMatchFiles(t, run.dataDir)
				checkStandingsAddUp(t, tables[i], matches, countScheduled(rounds))
				checkRatings(t, tables[i], matches, tc.name == "double-round-robin")
				results[i] = map[string]matchResult{}
				for id, m := range matches {
					results[i][id] = outcome(m.Result)
				}
				if !strings.Contains(run.stdout, "completed") {
					t.Errorf("stdout:\n%s", run.stdout)
				}
			}
			if !reflect.DeepEqual(tables[0].Standings, tables[1].Standings) || !reflect.DeepEqual(tables[0].Ratings, tables[1].Ratings) {
				t.Errorf("seed 31 gave two tables:\n%+v\n%+v", tables[0], tables[1])
			}
			if !reflect.DeepEqual(results[0], results[1]) {
				t.Errorf("seed 31 gave other results")
			}
		})
	}
}

func readMatchFiles(t *testing.T, dataDir string) map[string]matchFile {
	t.Helper()
	paths, err := filepath.Glob(filepath.Join(dataDir, "matches", leagueID, "*.json"))
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]matchFile{}
	for _, path := range paths {
		var m matchFile
		readJSON(t, path, &m)
		checkMatchFile(t, m)
		out[m.MatchID] = m
	}
	return out
}

func countScheduled(rounds roundsFile) int {
	n := 0
	for _, r := range rounds.Rounds {
		n += len(r.Matches)
		if r.Status != "COMPLETED" {
			panic(fmt.Sprintf("round %d is %s", r.RoundID, r.Status))
		}
	}
	return n
}

// checkStandingsAddUp: a completed league whose every scheduled match has
// a match file, and whose table is what the match files add up to.
func checkStandingsAddUp(t *testing.T, st standingsFile, matches map[string]matchFile, scheduled int) {
	t.Helper()
	if st.State != "completed" || st.MatchesDone != scheduled || st.MatchesTotal != scheduled || len(matches) != scheduled ||
		st.RoundsCompleted != st.RoundsTotal {
		t.Errorf("standings: %s, %d/%d matches, rounds %d/%d; %d match files for %d scheduled", st.State, st.MatchesDone,
			st.MatchesTotal, st.RoundsCompleted, st.RoundsTotal, len(matches), scheduled)
	}
	want := tallyMatches(matches)
	for i, row := range st.Standings {
		w := want[row.PlayerID]
		// what the match files cannot tell: the rank, the names, a suspension
		w.Rank, w.PlayerID, w.DisplayName, w.Status = row.Rank, row.PlayerID, row.DisplayName, row.Status
		if row != w {
			t.Errorf("standings row of %s = %+v, the match files give %+v", row.PlayerID, row, w)
		}
		if i > 0 && ranksBefore(row, st.Standings[i-1]) {
			t.Errorf("%s is ranked below %s", row.PlayerID, st.Standings[i-1].PlayerID)
		}
	}
}

// pairCounts counts each ordered pair (first seat, second seat).
func pairCounts(rounds roundsFile) map[[2]string]int {
	out := map[[2]string]int{}
	for _, r := range rounds.Rounds {
		for _, m := range r.Matches {
			out[[2]string{m.PlayerAID, m.PlayerBID}]++
		}
	}
	return out
}

func checkDoubleRoundRobin(t *testing.T, rounds roundsFile, players int) {
	seats := pairCounts(rounds)
	for i := 1; i <= players; i++ {
		for j := i + 1; j <= players; j++ {
			a, b := playerID(i), playerID(j)
			if seats[[2]string{a, b}] != 1 || seats[[2]string{b, a}] != 1 {
				t.Errorf("%s-%s played %d and %d times, want once in each seat", a, b, seats[[2]string{a, b}], seats[[2]string{b, a}])
			}
		}
	}
	if len(rounds.Rounds) != 2*(players-1) {
		t.Errorf("%d rounds, want %d", len(rounds.Rounds), 2*(players-1))
	}
}

func checkSwissRounds(want int) func(t *testing.T, rounds roundsFile, players int) {
	return func(t *testing.T, rounds roundsFile, players int) {
		if len(rounds.Rounds) != want {
			t.Errorf("%d rounds, want %d", len(rounds.Rounds), want)
		}
		met := map[[2]string]bool{}
		byes := map[string]int{}
		for _, r := range rounds.Rounds {
			in := map[string]bool{}
			for _, m := range r.Matches {
				pair := [2]string{min(m.PlayerAID, m.PlayerBID), max(m.PlayerAID, m.PlayerBID)}
				if met[pair] || in[m.PlayerAID] || in[m.PlayerBID] {
					t.Errorf("round %d: %s-%s is a rematch or a player twice", r.RoundID, m.PlayerAID, m.PlayerBID)
				}
				met[pair], in[m.PlayerAID], in[m.PlayerBID] = true, true, true
			}
			if len(r.Matches) != players/2 {
				t.Errorf("round %d has %d matches, want %d", r.RoundID, len(r.Matches), players/2)
			}
			for i := 1; i <= players; i++ {
				if !in[playerID(i)] {
					if byes[playerID(i)]++; byes[playerID(i)] > 1 {
						t.Errorf("%s has a second bye in round %d", playerID(i), r.RoundID)
					}
				}
			}
		}
	}
}

func checkGauntlet(challenger string, games int) func(t *testing.T, rounds roundsFile, players int) {
	return func(t *testing.T, rounds roundsFile, players int) {
		seats := pairCounts(rounds)
		for i := 1; i <= players; i++ {
			p := playerID(i)
			if p == challenger {
				continue
			}
			if n, back := seats[[2]string{challenger, p}], seats[[2]string{p, challenger}]; n+back != games || n != back {
				t.Errorf("%s-%s played %d + %d times, want %d, seats alternating", challenger, p, n, back, games)
			}
		}
		for pair := range seats {
			if !slices.Contains(pair[:], challenger) {
				t.Errorf("%s and %s, neither the challenger, met", pair[0], pair[1])
			}
		}
	}
}

// TestSPRTGauntletEndsWhenDecided runs an SPRT of two real players with
// wide bounds: the league completes as soon as the test accepts a
// hypothesis (or at --max-games), standings.json's counts are the match
// files' from the challenger's side, and the table ends with the LLR, its
// bounds and the verdict.
func TestSPRTGauntletEndsWhenDecided(t *testing.T) {
	t.Parallel()
	run := runHeadless(t, 2, 1, 3, "--format", "gauntlet", "--challengers", "P01", "--sprt", "elo0=0,elo1=150", "--max-games", "300")
	var st standingsFile
	readJSON(t, filepath.Join(run.dataDir, "leagues", leagueID, "standings.json"), &st)
	matches := readMatchFiles(t, run.dataDir)
	checkStandingsAddUp(t, st, matches, len(matches))
	s := st.SPRT
	if s == nil {
		t.Fatalf("standings.json has no sprt")
	}
	// The test counts the games in their seat-swapped pairs (pentanomial,
	// the default): games 1 and 2, 3 and 4, ..., by the challenger's
	// score in the pair (0 to 4 half points).
	var w, d, l int // the challenger's, all games
	score := map[int]int{}
	for _, m := range matches {
		switch {
		case m.Result.Status == "DRAW":
			d, score[m.RoundID] = d+1, 1
		case deref(m.Result.WinnerPlayerID) == "P01":
			w, score[m.RoundID] = w+1, 2
		default:
			l++
		}
	}
	var pairs, before [5]int // before: without the last complete pair
	for first := 1; first+1 <= len(matches); first += 2 {
		pairs[score[first]+score[first+1]]++
		if first+1 != len(matches) {
			before[score[first]+score[first+1]]++
		}
	}
	if s.Wins != w || s.Draws != d || s.Losses != l || s.Pentanomial == nil || *s.Pentanomial != pairs {
		t.Errorf("sprt counts %d/%d/%d, pairs %v; the match files give %d/%d/%d, pairs %v", s.Wins, s.Draws, s.Losses, s.Pentanomial, w, d, l, pairs)
	}
	decided := s.Verdict != "continue"
	if decided != (s.LLR >= s.Upper || s.LLR <= s.Lower) || (!decided && len(matches) != 300) || s.Test.Model != "pentanomial" {
		t.Errorf("verdict %q with llr %.3f in [%.3f, %.3f] after %d games (model %q)", s.Verdict, s.LLR, s.Lower, s.Upper, len(matches), s.Test.Model)
	}
	if now := s.Test.StatusPaired(w, d, l, pairs); now.Verdict != s.Verdict || math.Abs(now.LLR-s.LLR) > 1e-9 {
		t.Errorf("recomputed %+v, served %+v", now, *s)
	}
	// It stopped at the first pair that decided: one pair fewer had not.
	if was := s.Test.StatusPaired(0, 0, 0, before); decided && (len(matches)%2 != 0 || was.Verdict != "continue") {
		t.Errorf("the test was already decided (%s) a pair before the league ended, after %d games", was.Verdict, len(matches))
	}
	if st.RoundsTotal != len(matches) || !strings.Contains(run.stdout, "SPRT (elo0=0,elo1=150,alpha=0.05,beta=0.05,model=pentanomial): llr ") {
		t.Errorf("rounds total %d for %d games; stdout:\n%s", st.RoundsTotal, len(matches), run.stdout)
	}
}
