// Package gameprog plays leagues of game programs (docs/games.md,
// "Writing a game") with the real leaguetui binary: tic-tac-toe and
// even/odd from examples/games/, written in Python, between built-in
// players; even/odd's program against the built-in game; and a program
// that crashes in one match.
package gameprog

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/leaguetui/leaguetui/agents/protocol"
	"github.com/leaguetui/leaguetui/config"
	"github.com/leaguetui/leaguetui/internal/leaguetest"
)

func TestMain(m *testing.M) { leaguetest.Main(m) }

const leagueTimeout = 3 * time.Minute

func needPython(t *testing.T) {
	t.Helper()
	if _, err := exec.LookPath("python3"); err != nil {
		leaguetest.SkipWithout(t, "python3 is not installed: the example game programs are Python")
	}
}

// example is the absolute path of a manifest of examples/games.
func example(t *testing.T, name string) string {
	t.Helper()
	path, err := filepath.Abs(filepath.Join("..", "..", "examples", "games", name))
	if err != nil {
		t.Fatal(err)
	}
	return path
}

// runLeague plays a headless league of 4 built-in players and 2
// referees with args, and returns its data folder and final table.
func runLeague(t *testing.T, args ...string) (string, string) {
	t.Helper()
	dir := t.TempDir()
	args = append([]string{"--no-ui", "--free-ports", "--players", "4", "--referees", "2", "--data", dir}, args...)
	run := leaguetest.RunLeaguetui(t, dir, leagueTimeout, nil, args...)
	if run.Err != nil {
		t.Fatalf("league failed: %v\nstderr:\n%s", run.Err, run.Stderr)
	}
	return dir, run.Stdout
}

// ticTacToeResult is a tic-tac-toe match file's result.
type ticTacToeResult struct {
	leaguetest.MatchResult
	Board    string            `json:"board"`
	Moves    string            `json:"moves"`
	Statuses map[string]string `json:"player_statuses"`
	Reason   string            `json:"reason"`
}

// TestTicTacToeLeague: the Python tic-tac-toe plays a whole league
// between built-in random players with no technical loss: players are
// asked in turn with the legal squares, their own view of the board and
// its drawing; each result agrees with its board; the standings with the
// match files.
func TestTicTacToeLeague(t *testing.T) {
	needPython(t)
	dir, table := runLeague(t, "--game", example(t, "tic_tac_toe.json"), "--seed", "5")
	leagueID := config.LeagueIDFor("tic_tac_toe")
	matches := leaguetest.ReadMatchFiles[leaguetest.MatchFile[ticTacToeResult]](t, dir, leagueID)
	if len(matches) != 6 {
		t.Fatalf("%d match files, want 6", len(matches))
	}
	var results []leaguetest.MatchResult
	for _, m := range matches {
		r := m.Result
		results = append(results, r.MatchResult)
		if m.GameType != "tic_tac_toe" || r.Status == "TECHNICAL_LOSS" {
			t.Errorf("%s: game %s, status %s (%s)", m.MatchID, m.GameType, r.Status, r.Reason)
		}
		a, b := m.Players["player_A"], m.Players["player_B"]
		switch want := boardWinner(r.Board); {
		case want == "X" && (r.Winner == nil || *r.Winner != a || r.Statuses[a] != "WON" || r.Statuses[b] != "LOST"),
			want == "O" && (r.Winner == nil || *r.Winner != b || r.Statuses[b] != "WON" || r.Statuses[a] != "LOST"),
			want == "" && (r.Status != "DRAW" || strings.Contains(r.Board, ".")):
			t.Errorf("%s: board %s (moves %s) but %s, winner %v, statuses %v", m.MatchID, r.Board, r.Moves, r.Status, r.Winner, r.Statuses)
		}
		checkTicTacToeCalls(t, m.MatchID, a, b, m.Transcript, len(strings.Fields(r.Moves)))
	}
	leaguetest.CheckStandings(t, dir, leagueID, results)
	if !strings.Contains(table, "completed") {
		t.Errorf("the final table does not say the league completed:\n%s", table)
	}
	if logs, _ := filepath.Glob(filepath.Join(dir, "logs", "games", leagueID, "*.log")); len(logs) != 6 {
		t.Errorf("game logs %v, want one a match", logs)
	}
}

// checkTicTacToeCalls: A is asked turns 1, 3, 5…, B turns 2, 4…, each
// with the free squares as options and its own mark in its context.
func checkTicTacToeCalls(t *testing.T, id, a, b string, transcript []protocol.TranscriptEntry, moves int) {
	t.Helper()
	var turns []int
	for _, e := range transcript {
		if e.MessageType != "GAME_MOVE_CALL" {
			continue
		}
		req, _ := e.Content["move_request"].(map[string]any)
		ctx, _ := req["context"].(map[string]any)
		turn, _ := req["turn"].(float64)
		options, _ := req["valid_options"].([]any)
		board, _ := ctx["board"].(string)
		mark := map[string]string{"player:" + a: "X", "player:" + b: "O"}[e.To]
		if req["move_type"] != "place" || ctx["you"] != mark || len(options) != strings.Count(board, ".") ||
			!strings.Contains(fmt.Sprint(ctx["text"]), "\n") || (int(turn)%2 == 1) != (mark == "X") {
			t.Errorf("%s: %s asked %v", id, e.To, req)
		}
		turns = append(turns, int(turn))
	}
	if len(turns) != moves || !slices.IsSorted(turns) {
		t.Errorf("%s: turns asked %v for %d moves", id, turns, moves)
	}
}

// boardWinner is the mark with a line on the board, "" for none.
func boardWinner(board string) string {
	lines := [][3]int{{0, 1, 2}, {3, 4, 5}, {6, 7, 8}, {0, 3, 6}, {1, 4, 7}, {2, 5, 8}, {0, 4, 8}, {2, 4, 6}}
	for _, l := range lines {
		if len(board) == 9 && board[l[0]] != '.' && board[l[0]] == board[l[1]] && board[l[1]] == board[l[2]] {
			return string(board[l[0]])
		}
	}
	return ""
}

// TestEvenOddProgramMatchesTheBuiltIn: even/odd written as a Python game
// program, with the same seed and players, ends in the built-in game's
// standings and, apart from times and the game's name, its match files:
// the protocol carries everything the engine's game has.
func TestEvenOddProgramMatchesTheBuiltIn(t *testing.T) {
	needPython(t)
	const program = "even_odd_program"
	// One referee: which of two takes a match is timing.
	builtinDir, builtinTable := runLeague(t, "--seed", "9", "--strategies", "random", "--referees", "1")
	programDir, programTable := runLeague(t, "--seed", "9", "--strategies", "random", "--referees", "1", "--game", example(t, "even_odd.json"))
	builtinID, programID := config.LeagueIDFor("even_odd"), config.LeagueIDFor(program)
	rename := strings.NewReplacer(programID, builtinID, program, "even_odd")
	if got := rename.Replace(programTable); got != builtinTable {
		t.Errorf("the program's table\n%s\nthe built-in game's\n%s", programTable, builtinTable)
	}
	var builtinStandings, programStandings protocol.StandingsFile
	leaguetest.ReadJSON(t, filepath.Join(builtinDir, "leagues", builtinID, "standings.json"), &builtinStandings)
	leaguetest.ReadJSON(t, filepath.Join(programDir, "leagues", programID, "standings.json"), &programStandings)
	if got, want := fmt.Sprintf("%+v", programStandings.Standings), fmt.Sprintf("%+v", builtinStandings.Standings); got != want {
		t.Errorf("standings\n%s\nwant\n%s", got, want)
	}
	files, _ := filepath.Glob(filepath.Join(builtinDir, "matches", builtinID, "*.json"))
	if len(files) != 6 {
		t.Fatalf("%d match files of the built-in game, want 6", len(files))
	}
	for _, f := range files {
		want := timeless(t, f, nil)
		got := timeless(t, filepath.Join(programDir, "matches", programID, filepath.Base(f)), rename)
		if got != want {
			t.Errorf("%s differs:\n%s", filepath.Base(f), lineDiff(got, want))
		}
		if strings.Contains(want, "TECHNICAL_LOSS") {
			t.Errorf("%s: a technical loss", filepath.Base(f))
		}
	}
}

// faultyResult is a match file's result of league/gameprog's faulty game.
type faultyResult struct {
	leaguetest.MatchResult
	Statuses  map[string]string `json:"player_statuses"`
	GameError string            `json:"game_error"`
	Reason    string            `json:"reason"`
}

// faultyLeague plays a league of league/gameprog's faulty game (A wins
// every match) with options, and returns its data folder, final table and
// match files.
func faultyLeague(t *testing.T, options map[string]any) (string, string, []leaguetest.MatchFile[faultyResult]) {
	t.Helper()
	dir := t.TempDir()
	script, err := os.ReadFile("../../league/gameprog/testdata/faulty.py")
	if err != nil {
		t.Fatal(err)
	}
	manifest, _ := json.Marshal(map[string]any{"name": "faulty", "command": []string{"python3", "faulty.py"},
		"rules": "pick x or y; A wins", "seats": 2, "options": options})
	for name, data := range map[string][]byte{"faulty.py": script, "faulty.json": manifest} {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	data, table := runLeague(t, "--game", filepath.Join(dir, "faulty.json"), "--seed", "3")
	matches := leaguetest.ReadMatchFiles[leaguetest.MatchFile[faultyResult]](t, data, config.LeagueIDFor("faulty"))
	if len(matches) != 6 {
		t.Fatalf("%d match files, want 6", len(matches))
	}
	var results []leaguetest.MatchResult
	for _, m := range matches {
		results = append(results, m.Result.MatchResult)
	}
	leaguetest.CheckStandings(t, data, config.LeagueIDFor("faulty"), results)
	if !strings.Contains(table, "completed") {
		t.Errorf("the final table does not say the league completed:\n%s", table)
	}
	return data, table, matches
}

// checkAWon: the match ended as the faulty game ends one it plays out.
func checkAWon(t *testing.T, m leaguetest.MatchFile[faultyResult]) {
	t.Helper()
	r, a := m.Result, m.Players["player_A"]
	if r.Status != "WIN" || r.Winner == nil || *r.Winner != a || r.Statuses[a] != "WON" || r.GameError != "" {
		t.Errorf("%s: %+v", m.MatchID, r)
	}
}

// plays counts the times a match's transcript asks player A to move:
// once a play of the faulty game's one turn.
func plays(m leaguetest.MatchFile[faultyResult]) int {
	n := 0
	for _, e := range m.Transcript {
		if e.MessageType == "GAME_MOVE_CALL" && e.To == "player:"+m.Players["player_A"] {
			n++
		}
	}
	return n
}

// TestCrashingGameEndsItsMatchOnly: a game program that crashes in the
// middle of one match, both times the referee plays it, ends that match
// as a game failure (a draw, both players ERROR, game_error saying it
// exited); every other match is played once, and the league completes
// with the draw counted.
func TestCrashingGameEndsItsMatchOnly(t *testing.T) {
	needPython(t)
	_, _, matches := faultyLeague(t, map[string]any{"fault": "crash_mid", "only_match": "R2M1"})
	for _, m := range matches {
		r := m.Result
		a, b := m.Players["player_A"], m.Players["player_B"]
		if m.MatchID != "R2M1" {
			checkAWon(t, m)
			if plays(m) != 1 {
				t.Errorf("%s was played %d times, want once", m.MatchID, plays(m))
			}
			continue
		}
		if r.Status != "DRAW" || r.Winner != nil || r.Statuses[a] != "ERROR" || r.Statuses[b] != "ERROR" ||
			!strings.Contains(r.GameError, "the game program exited (exit status 1)") || !strings.Contains(r.Reason, "game failed: ") {
			t.Errorf("R2M1: %+v", r)
		}
		if plays(m) != 2 {
			t.Errorf("R2M1, whose game crashed, was played %d times, want twice", plays(m))
		}
	}
}

// TestGameFailingOnceIsPlayedAgain: a game program that crashes in the
// first play of a match only is given a second play, with a new process
// (attempt 2): the match gets the result the game gives, with no trace
// of the failure in it, and both plays in its transcript.
func TestGameFailingOnceIsPlayedAgain(t *testing.T) {
	needPython(t)
	_, _, matches := faultyLeague(t, map[string]any{"fault": "crash_mid", "only_match": "R2M1", "first_attempt_only": true})
	for _, m := range matches {
		checkAWon(t, m)
		want := 1
		if m.MatchID == "R2M1" {
			want = 2
		}
		if plays(m) != want {
			t.Errorf("%s was played %d times, want %d", m.MatchID, plays(m), want)
		}
	}
}

// TestRefereeWithoutTheGameIsRefused: a referee that does not have the
// league's game program (started without its manifest) is refused by
// the manager, naming the game.
func TestRefereeWithoutTheGameIsRefused(t *testing.T) {
	needPython(t)
	dir := t.TempDir()
	manager := leaguetest.StartManager(t, dir, "test-admin", "--game", example(t, "tic_tac_toe.json"))
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, leaguetest.Binary(t), "referee", "--port", "0", "--data", dir,
		"--manager", manager.Endpoint, "--name", "REF01")
	cmd.Env = append(append(os.Environ(), leaguetest.ChildEnv()...), "LEAGUETUI_REFEREE_KEY="+leaguetest.RefereeKey)
	out, err := cmd.CombinedOutput()
	if err == nil || ctx.Err() != nil {
		t.Fatalf("the even/odd referee was not refused (err %v):\n%s", err, out)
	}
	if !strings.Contains(string(out), "this league plays tic_tac_toe") {
		t.Errorf("the refusal does not name the league's game:\n%s", out)
	}
}

// timeless is a match file with every time blanked and its transcript's
// entries in a sorted order (the order of messages sent at once is
// timing too), names changed by rename.
func timeless(t *testing.T, path string, rename *strings.Replacer) string {
	t.Helper()
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if rename != nil {
		raw = []byte(rename.Replace(string(raw)))
	}
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	v = blankTimes(v)
	if m, ok := v.(map[string]any); ok {
		if transcript, ok := m["transcript"].([]any); ok {
			texts := make([]string, len(transcript))
			for i, e := range transcript {
				if entry, ok := e.(map[string]any); ok {
					delete(entry, "seq")
				}
				text, _ := json.Marshal(e)
				texts[i] = string(text)
			}
			slices.Sort(texts)
			m["transcript"] = texts
		}
	}
	out, _ := json.MarshalIndent(v, "", " ")
	return string(out)
}

func blankTimes(v any) any {
	switch x := v.(type) {
	case map[string]any:
		for k, sub := range x {
			if isTime(k) {
				x[k] = "<time>"
				continue
			}
			x[k] = blankTimes(sub)
		}
	case []any:
		for i, sub := range x {
			x[i] = blankTimes(sub)
		}
	}
	return v
}

func isTime(key string) bool {
	for _, suffix := range []string{"_at", "timestamp", "_ms", "deadline", "_time", "last_updated"} {
		if strings.HasSuffix(key, suffix) {
			return true
		}
	}
	return false
}

// lineDiff is the lines of got and want that differ.
func lineDiff(got, want string) string {
	g, w := strings.Split(got, "\n"), strings.Split(want, "\n")
	var out []string
	for i := range max(len(g), len(w)) {
		var a, b string
		if i < len(g) {
			a = g[i]
		}
		if i < len(w) {
			b = w[i]
		}
		if a != b {
			out = append(out, "program: "+a, "builtin: "+b)
		}
	}
	return strings.Join(out, "\n")
}
