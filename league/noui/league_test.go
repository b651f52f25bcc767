package noui_test

import (
	"encoding/json"
	"fmt"
	"io/fs"
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
	"github.com/leaguetui/leaguetui/internal/leaguetest"
)

func TestMain(m *testing.M) { leaguetest.Main(m) }

const leagueID = "league_2025_even_odd"

// runTimeout bounds one headless league; a 10-player league takes seconds.
const runTimeout = 90 * time.Second

// leagueRun is one `leaguetui --no-ui` run that exited.
type leagueRun struct {
	dataDir        string
	stdout, stderr string
	// children are the processes leaguetui had while it ran, by pid, with
	// their command lines, as seen in /proc.
	children map[int]string
}

// runHeadless runs `leaguetui --no-ui` as a real process in a fresh data
// folder, with extra flags, watching its child processes, and requires
// exit status 0.
func runHeadless(t *testing.T, players, referees int, seed int64, extra ...string) leagueRun {
	t.Helper()
	run := leagueRun{dataDir: t.TempDir(), children: map[int]string{}}
	recordChildren := func(pid int) {
		pids, _ := leaguetest.ChildPIDs(pid)
		for _, child := range pids {
			if _, known := run.children[child]; !known {
				if line := leaguetest.CommandLine(child); line != "" {
					run.children[child] = line
				}
			}
		}
	}
	out := leaguetest.RunLeaguetui(t, run.dataDir, runTimeout, recordChildren, append(leaguetest.Args("--no-ui", "--free-ports",
		"--data", run.dataDir, "--seed", seed, "--players", players, "--referees", referees), extra...)...)
	run.stdout, run.stderr = out.Stdout, out.Stderr
	outputs, _ := filepath.Glob(filepath.Join(run.dataDir, "logs", "system", "*.out"))
	if len(outputs) != 1+players+referees {
		t.Errorf("%d agent output files in logs/system, want %d", len(outputs), 1+players+referees)
	}
	leaguetest.CheckNoDataRace(t, outputs...)
	if out.Err != nil {
		leaguetest.KillLeftovers(t, run.dataDir)
		t.Fatalf("leaguetui --no-ui: %v (want exit status 0)\nstderr:\n%s", out.Err, run.stderr)
	}
	return run
}

// assertNoChildLeft checks that every agent the run started has exited.
func assertNoChildLeft(t *testing.T, run leagueRun, players, referees int) {
	t.Helper()
	if !leaguetest.HaveProc() {
		t.Log("no /proc here: cannot look for left-over processes")
		return
	}
	if len(run.children) == 0 {
		t.Errorf("saw no child process of leaguetui while the league ran; the agents should be separate processes")
	}
	for pid, line := range run.children {
		if !strings.Contains(line, run.dataDir) {
			t.Errorf("child %d of leaguetui is not one of its agents: %s", pid, line)
		}
		if now := leaguetest.CommandLine(pid); now == line {
			t.Errorf("child %d still runs after leaguetui exited: %s", pid, line)
		}
	}
	left, err := leaguetest.ProcessesMentioning(run.dataDir)
	if err != nil {
		t.Fatal(err)
	}
	for pid, line := range left {
		t.Errorf("process %d of this league still runs after leaguetui exited: %s", pid, line)
	}
	t.Logf("saw %d of the %d agent processes while the league ran; none is left", len(run.children), 1+players+referees)
}

// The data folder's files, as agents/protocol declares them.

type (
	standingsFile = protocol.StandingsFile
	standingRow   = protocol.StandingRow
	roundsFile    = protocol.RoundsFile
	matchFile     = protocol.MatchFile
	matchResult   = protocol.MatchResult
)

type journalEvent struct {
	Kind    string `json:"kind"`
	MatchID string `json:"match_id"`
}

// leagueFiles is what checkLeagueFiles read.
type leagueFiles struct {
	standings standingsFile
	matches   map[string]matchFile // by match id
}

func readJSON(t *testing.T, path string, v any) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v", err)
	}
	if err := json.Unmarshal(data, v); err != nil {
		t.Fatalf("%s is not the expected JSON: %v", path, err)
	}
}

func playerID(i int) string { return fmt.Sprintf("P%02d", i) }

// checkLeagueFiles checks the data folder of a completed league of n
// players (n even): every file the specification's data layer names, each
// consistent with the others.
func checkLeagueFiles(t *testing.T, dir string, n int) leagueFiles {
	t.Helper()
	wantRounds, perRound := n-1, n/2
	wantMatches := n * (n - 1) / 2
	var files leagueFiles

	// One match file per match, each a valid even/odd game.
	files.matches = map[string]matchFile{}
	paths, err := filepath.Glob(filepath.Join(dir, "matches", leagueID, "*.json"))
	if err != nil {
		t.Fatal(err)
	}
	if len(paths) != wantMatches {
		t.Errorf("%d match files in matches/%s, want %d", len(paths), leagueID, wantMatches)
	}
	for _, path := range paths {
		var m matchFile
		readJSON(t, path, &m)
		if base := strings.TrimSuffix(filepath.Base(path), ".json"); m.MatchID != base {
			t.Errorf("%s holds match_id %q", path, m.MatchID)
		}
		checkMatchFile(t, m)
		files.matches[m.MatchID] = m
	}

	// Standings: the table the match files add up to.
	readJSON(t, filepath.Join(dir, "leagues", leagueID, "standings.json"), &files.standings)
	st := files.standings
	if st.State != "completed" || st.MatchesDone != wantMatches || st.MatchesTotal != wantMatches ||
		st.RoundsCompleted != wantRounds || st.RoundsTotal != wantRounds {
		t.Errorf("standings.json: state %q, matches %d/%d, rounds %d/%d; want completed, %d/%d, %d/%d",
			st.State, st.MatchesDone, st.MatchesTotal, st.RoundsCompleted, st.RoundsTotal,
			wantMatches, wantMatches, wantRounds, wantRounds)
	}
	want := tallyMatches(files.matches)
	if len(st.Standings) != n {
		t.Errorf("standings.json has %d rows, want %d", len(st.Standings), n)
	}
	for i, row := range st.Standings {
		if row.Rank != i+1 {
			t.Errorf("row %d has rank %d", i, row.Rank)
		}
		w := want[row.PlayerID]
		// what the match files cannot tell: the rank, the names, a suspension
		w.Rank, w.PlayerID, w.DisplayName, w.Status = row.Rank, row.PlayerID, row.DisplayName, row.Status
		if row != w {
			t.Errorf("standings row of %s = %+v\nbut the match files give %+v", row.PlayerID, row, w)
		}
		if row.Played != n-1 {
			t.Errorf("%s played %d matches, want %d", row.PlayerID, row.Played, n-1)
		}
		if i > 0 && ranksBefore(row, st.Standings[i-1]) {
			t.Errorf("%s (%+v) is ranked below %s (%+v)", row.PlayerID, row, st.Standings[i-1].PlayerID, st.Standings[i-1])
		}
	}

	checkRatings(t, st, files.matches, true)

	// rounds.json: every round completed, the same results, a round robin.
	var rounds roundsFile
	readJSON(t, filepath.Join(dir, "leagues", leagueID, "rounds.json"), &rounds)
	if len(rounds.Rounds) != wantRounds {
		t.Errorf("rounds.json has %d rounds, want %d", len(rounds.Rounds), wantRounds)
	}
	met := map[[2]string]string{}
	for i, r := range rounds.Rounds {
		if r.RoundID != i+1 || r.Status != "COMPLETED" || len(r.Matches) != perRound {
			t.Errorf("rounds.json round %d: id %d, status %s, %d matches; want id %d, COMPLETED, %d matches",
				i+1, r.RoundID, r.Status, len(r.Matches), i+1, perRound)
		}
		inRound := map[string]bool{}
		for _, m := range r.Matches {
			for _, p := range []string{m.PlayerAID, m.PlayerBID} {
				if inRound[p] {
					t.Errorf("%s plays twice in round %d", p, r.RoundID)
				}
				inRound[p] = true
			}
			pair := [2]string{min(m.PlayerAID, m.PlayerBID), max(m.PlayerAID, m.PlayerBID)}
			if other, twice := met[pair]; twice {
				t.Errorf("%s and %s meet twice: %s and %s", pair[0], pair[1], other, m.MatchID)
			}
			met[pair] = m.MatchID
			mf, ok := files.matches[m.MatchID]
			switch {
			case !ok:
				t.Errorf("rounds.json names %s, which has no match file", m.MatchID)
			case mf.Players["player_A"] != m.PlayerAID || mf.Players["player_B"] != m.PlayerBID || mf.RoundID != r.RoundID ||
				mf.Result.Status != m.Result || !reflect.DeepEqual(mf.Result.WinnerPlayerID, m.Winner) || mf.RefereeID != m.RefereeID:
				t.Errorf("rounds.json has %s as %s vs %s in round %d by %s: %s winner %v;\nits match file: %s vs %s in round %d by %s: %s winner %v",
					m.MatchID, m.PlayerAID, m.PlayerBID, r.RoundID, m.RefereeID, m.Result, deref(m.Winner),
					mf.Players["player_A"], mf.Players["player_B"], mf.RoundID, mf.RefereeID, mf.Result.Status, deref(mf.Result.WinnerPlayerID))
			}
		}
	}
	if len(met) != wantMatches {
		t.Errorf("rounds.json pairs %d players %d times, want every pair once (%d)", n, len(met), wantMatches)
	}

	// Each player's own history: its matches, seen from its side.
	for i := 1; i <= n; i++ {
		checkHistory(t, dir, playerID(i), n-1, files.matches)
	}

	// The journal: one result per match, none twice.
	results := map[string]int{}
	total := 0
	for _, ev := range readJournal(t, dir) {
		if ev.Kind == "match_result" {
			results[ev.MatchID]++
			total++
		}
	}
	if total != wantMatches || len(results) != wantMatches {
		t.Errorf("journal has %d match_result events for %d distinct matches, want %d for %d", total, len(results), wantMatches, wantMatches)
	}
	for id, count := range results {
		if count != 1 {
			t.Errorf("journal has %d results for %s", count, id)
		}
		if _, ok := files.matches[id]; !ok {
			t.Errorf("journal has a result for %s, which has no match file", id)
		}
	}

	// Files are replaced atomically: a clean exit leaves no temp file.
	_ = filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err == nil && strings.Contains(d.Name(), ".tmp-") {
			t.Errorf("left-over temp file %s: a process ended in the middle of writing a data file", path)
		}
		return nil
	})
	return files
}

// checkMatchFile checks one match against the even/odd rules and scoring.
func checkMatchFile(t *testing.T, m matchFile) {
	t.Helper()
	var round, index int
	if _, err := fmt.Sscanf(m.MatchID, "R%dM%d", &round, &index); err != nil || round != m.RoundID {
		t.Errorf("match %s has round_id %d", m.MatchID, m.RoundID)
	}
	r := m.Result
	a, b := m.Players["player_A"], m.Players["player_B"]
	if m.LeagueID != leagueID || m.Lifecycle.State != "FINISHED" || len(m.Transcript) == 0 || a == "" || b == "" || a == b {
		t.Errorf("%s: league %q, state %q, %d transcript entries, players %q vs %q",
			m.MatchID, m.LeagueID, m.Lifecycle.State, len(m.Transcript), a, b)
	}
	switch r.Status {
	case "WIN", "DRAW":
		drawn, ok := r.Details["drawn_number"].(float64) // the game's facts are flat beside the common fields
		if !ok || drawn < 1 || drawn > 10 || drawn != float64(int(drawn)) {
			t.Errorf("%s: drawn_number %v, want 1..10", m.MatchID, r.Details["drawn_number"])
			return
		}
		parity := []string{"even", "odd"}[int(drawn)%2]
		right := map[string]bool{a: r.Choices[a] == parity, b: r.Choices[b] == parity}
		wantStatus, wantWinner, wantScore := "DRAW", "", map[string]int{a: 1, b: 1}
		if right[a] != right[b] {
			winner, loser := a, b
			if right[b] {
				winner, loser = b, a
			}
			wantStatus, wantWinner, wantScore = "WIN", winner, map[string]int{winner: 3, loser: 0}
		}
		numberParity := r.Details["number_parity"]
		if numberParity != parity || r.Status != wantStatus || deref(r.WinnerPlayerID) != wantWinner || !reflect.DeepEqual(r.Score, wantScore) {
			t.Errorf("%s: %s chose %q, %s chose %q, drawn %v (%s): file says %s, winner %q, score %v, parity %v; want %s, winner %q, score %v",
				m.MatchID, a, r.Choices[a], b, r.Choices[b], drawn, parity,
				r.Status, deref(r.WinnerPlayerID), r.Score, numberParity, wantStatus, wantWinner, wantScore)
		}
	case "TECHNICAL_LOSS":
		t.Errorf("%s: technical loss between built-in players: %+v", m.MatchID, r)
	default:
		t.Errorf("%s: result status %q", m.MatchID, r.Status)
	}
}

// outcome is what a match file says happened, without the sentence that
// tells it: no timestamps, so two runs of the same seed must give equal
// values.
func outcome(r matchResult) matchResult {
	r.Reason = ""
	return r
}

// tallyMatches builds the standings rows the match files add up to.
func tallyMatches(matches map[string]matchFile) map[string]standingRow {
	rows := map[string]standingRow{}
	for _, m := range matches {
		winner := deref(m.Result.WinnerPlayerID)
		for _, p := range []string{m.Players["player_A"], m.Players["player_B"]} {
			row := rows[p]
			row.Played++
			row.Points += m.Result.Score[p]
			switch {
			case m.Result.Status == "DRAW":
				row.Draws++
			case p == winner:
				row.Wins++
			case m.Result.Status == "TECHNICAL_LOSS":
				row.Losses++
				row.TechnicalLosses++
			default:
				row.Losses++
			}
			rows[p] = row
		}
	}
	return rows
}

// ranksBefore reports whether a should rank above b: points, wins, draws,
// then player id.
func ranksBefore(a, b standingRow) bool {
	if a.Points != b.Points {
		return a.Points > b.Points
	}
	if a.Wins != b.Wins {
		return a.Wins > b.Wins
	}
	if a.Draws != b.Draws {
		return a.Draws > b.Draws
	}
	return a.PlayerID < b.PlayerID
}

func checkHistory(t *testing.T, dir, playerID string, want int, matches map[string]matchFile) {
	t.Helper()
	var h player.History
	readJSON(t, filepath.Join(dir, "players", playerID, "history.json"), &h)
	if h.PlayerID != playerID || h.Stats.TotalMatches != want || len(h.Matches) != want {
		t.Errorf("%s history.json: player_id %q, total_matches %d, %d matches; want %s, %d, %d",
			playerID, h.PlayerID, h.Stats.TotalMatches, len(h.Matches), playerID, want, want)
	}
	wins, losses, draws := 0, 0, 0
	for _, e := range h.Matches {
		m, ok := matches[e.MatchID]
		if !ok {
			t.Errorf("%s history has %s, which has no match file", playerID, e.MatchID)
			continue
		}
		opponent := m.Players["player_A"]
		if opponent == playerID {
			opponent = m.Players["player_B"]
		}
		result := "LOSS"
		switch {
		case m.Result.Status == "DRAW":
			result = "DRAW"
			draws++
		case deref(m.Result.WinnerPlayerID) == playerID:
			result = "WIN"
			wins++
		default:
			losses++
		}
		if e.OpponentID != opponent || e.Result != result || e.MyChoice != m.Result.Choices[playerID] {
			t.Errorf("%s history of %s: opponent %s, %s, chose %q; the match file says opponent %s, %s, chose %q",
				playerID, e.MatchID, e.OpponentID, e.Result, e.MyChoice, opponent, result, m.Result.Choices[playerID])
		}
	}
	if h.Stats.Wins != wins || h.Stats.Losses != losses || h.Stats.Draws != draws {
		t.Errorf("%s history stats W/L/D %d/%d/%d, its matches give %d/%d/%d",
			playerID, h.Stats.Wins, h.Stats.Losses, h.Stats.Draws, wins, losses, draws)
	}
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

// TestHeadlessLeague runs the default league, 4 players and 2 referees as
// real processes, and checks everything it leaves behind.
func TestHeadlessLeague(t *testing.T) {
	t.Parallel()
	const players, referees = 4, 2
	run := runHeadless(t, players, referees, 42)
	files := checkLeagueFiles(t, run.dataDir, players)
	if len(files.matches) != 6 {
		t.Errorf("%d matches, want 6", len(files.matches))
	}
	if !strings.Contains(run.stdout, "6 matches in 3 rounds  completed") {
		t.Errorf("stdout does not report a completed league of 6 matches in 3 rounds:\n%s", run.stdout)
	}
	for _, row := range files.standings.Standings {
		if !strings.Contains(run.stdout, fmt.Sprintf("%-8s", row.PlayerID)) {
			t.Errorf("stdout's table has no row for %s:\n%s", row.PlayerID, run.stdout)
		}
	}
	if !strings.Contains(run.stdout, "elo   ±95%   los") {
		t.Errorf("stdout's table has no ratings columns:\n%s", run.stdout)
	}
	if got := strings.Count(run.stderr, " vs "); got != 6 {
		t.Errorf("stderr has %d result lines, want 6:\n%s", got, run.stderr)
	}
	assertNoChildLeft(t, run, players, referees)
}

// TestHeadlessSameSeedSameLeague runs the same seed twice, side by side:
// the standings and every match's result must be the same.
func TestHeadlessSameSeedSameLeague(t *testing.T) {
	t.Parallel()
	const players, referees, seed = 4, 2, 20250115
	files := make([]leagueFiles, 2)
	t.Run("runs", func(t *testing.T) { // returns when both parallel runs have finished
		for i := range files {
			t.Run(fmt.Sprintf("run%d", i+1), func(t *testing.T) {
				t.Parallel()
				run := runHeadless(t, players, referees, seed)
				files[i] = checkLeagueFiles(t, run.dataDir, players)
			})
		}
	})
	if t.Failed() {
		return
	}
	a, b := files[0], files[1]
	if a.standings.Seed != seed || b.standings.Seed != seed {
		t.Errorf("standings.json seeds %d and %d, want %d", a.standings.Seed, b.standings.Seed, seed)
	}
	if !reflect.DeepEqual(a.standings.Standings, b.standings.Standings) {
		t.Errorf("seed %d gave different standings:\nrun 1: %+v\nrun 2: %+v", seed, a.standings.Standings, b.standings.Standings)
	}
	ids := slices.Sorted(maps.Keys(a.matches))
	if got := slices.Sorted(maps.Keys(b.matches)); !slices.Equal(ids, got) {
		t.Fatalf("seed %d gave different matches: %v and %v", seed, ids, got)
	}
	for _, id := range ids {
		if ra, rb := a.matches[id].Result, b.matches[id].Result; !reflect.DeepEqual(ra, rb) {
			t.Errorf("seed %d, %s: different results\nrun 1: %+v\nrun 2: %+v", seed, id, ra, rb)
		}
	}
}

// TestHeadlessTenPlayers runs 10 players and 3 referees: 45 matches, each
// result journaled exactly once.
func TestHeadlessTenPlayers(t *testing.T) {
	t.Parallel()
	const players, referees = 10, 3
	run := runHeadless(t, players, referees, 7)
	files := checkLeagueFiles(t, run.dataDir, players)
	if len(files.matches) != 45 {
		t.Errorf("%d matches, want 45", len(files.matches))
	}
	referees3 := map[string]int{}
	for _, m := range files.matches {
		referees3[m.RefereeID]++
	}
	if len(referees3) != referees {
		t.Errorf("matches were refereed by %v, want all %d referees used", referees3, referees)
	}
	assertNoChildLeft(t, run, players, referees)
}
