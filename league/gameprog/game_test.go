package gameprog

import (
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/leaguetui/leaguetui/config"
	"github.com/leaguetui/leaguetui/engine"
	"github.com/leaguetui/leaguetui/internal/leaguetest"
	"github.com/leaguetui/leaguetui/league/sandbox"
)

// TestMain: called with sandbox.ExecCommand this test binary is
// leaguetui's shim, so the programs of these tests run in the sandbox.
func TestMain(m *testing.M) {
	if len(os.Args) > 1 && os.Args[1] == sandbox.ExecCommand {
		err := sandbox.Exec(os.Args[2:]) // returns only on failure
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	os.Exit(m.Run())
}

func needPython(t *testing.T) {
	t.Helper()
	if _, err := exec.LookPath("python3"); err != nil {
		leaguetest.SkipWithout(t, "python3 is not installed: the game programs of these tests are Python")
	}
}

// gameOf is the game of a manifest, not registered (tests make many of
// one name), running its programs from this test binary as the shim.
func gameOf(t *testing.T, manifest string, change func(*config.GameManifest)) *Game {
	t.Helper()
	needPython(t)
	m, err := config.LoadGameManifest(manifest)
	if err != nil {
		t.Fatal(err)
	}
	if change != nil {
		change(&m)
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	g := &Game{manifest: m}
	g.SetSite(Site{Shim: exe, LogDir: t.TempDir()})
	return g
}

// faulty is the tests' faulty game with the given options.
func faulty(t *testing.T, options map[string]any) *Game {
	t.Helper()
	dir := t.TempDir()
	script, err := os.ReadFile("testdata/faulty.py")
	if err != nil {
		t.Fatal(err)
	}
	manifest := map[string]any{"name": "faulty", "command": []string{"python3", "faulty.py"}, "rules": "pick x or y",
		"seats": 2, "options": options, "deadlines": map[string]any{"start_seconds": 20, "answer_seconds": 2}}
	raw, _ := json.Marshal(manifest)
	for name, data := range map[string][]byte{"faulty.py": script, "game.json": raw} {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	return gameOf(t, filepath.Join(dir, "game.json"), nil)
}

// playOut plays a match of g between P1 (A) and P2 (B) to its end, each
// answer from choose; it fails the test past a hundred steps.
func playOut(t *testing.T, g engine.Game, id string, seed int64, choose func(player string, turn engine.Turn) string) (engine.Outcome, []engine.Turn) {
	t.Helper()
	m := engine.NewMatch(g, id, "P1", "P2", seed)
	m.Joined("P1", true)
	m.Joined("P2", true)
	var turns []engine.Turn
	for step := 0; !m.Done(); step++ {
		if step > 100 {
			t.Fatalf("%s: not over after 100 steps", id)
		}
		for _, p := range m.Pending() {
			turn, _ := m.Turn(p)
			turns = append(turns, turn)
			err := m.Answered(p, engine.Answer{MoveType: turn.MoveType, Choice: choose(p, turn)})
			if err != nil && !errors.Is(err, engine.ErrInvalidMove) {
				t.Fatalf("%s: %s's answer: %v", id, p, err)
			}
		}
	}
	return m.Outcome(), turns
}

func first(_ string, turn engine.Turn) string { return turn.Options[0] }

// TestTicTacToeProgram: the example plays sequential turns, each
// seat's observation and text reach only that seat, an answer that is
// not a move is refused and asked again, and the end names the winner,
// each seat's status and the game's details.
func TestTicTacToeProgram(t *testing.T) {
	g := gameOf(t, "../../examples/games/tic_tac_toe.json", nil)
	refused := false
	outcome, turns := playOut(t, g, "R1M1", 7, func(p string, turn engine.Turn) string {
		if !refused {
			refused = true
			return "10"
		}
		return turn.Options[0]
	})
	// A takes 1, B 2, A 3, B 4, A 5, B 6, A 7: the diagonal 3 5 7.
	if outcome.Status != engine.StatusWin || outcome.Winner != "P1" || outcome.Statuses["P1"] != "WON" || outcome.Statuses["P2"] != "LOST" {
		t.Fatalf("outcome %+v", outcome)
	}
	if outcome.Details["board"] != "XOXOXOX.." || outcome.Details["moves"] != "1 2 3 4 5 6 7" || outcome.Moves["P1"] != "7" {
		t.Errorf("details %v, moves %v", outcome.Details, outcome.Moves)
	}
	if !strings.Contains(outcome.Reason, "A (X) made a line: 3 5 7 after 7 moves") || outcome.Step != "X wins in 7" {
		t.Errorf("reason %q, step %q", outcome.Reason, outcome.Step)
	}
	// Turn 1 asked twice (the refused answer), then turns 2..7, one seat each.
	if len(turns) != 8 || turns[0].Number != 1 || turns[1].Number != 1 || turns[7].Number != 7 {
		t.Fatalf("%d turns asked: %+v", len(turns), turns)
	}
	for i, turn := range turns[1:] {
		you := map[bool]string{true: "X", false: "O"}[i%2 == 0]
		if turn.MoveType != "place" || turn.State["you"] != you || turn.State["text"] == nil || len(turn.Options) != 9-i {
			t.Errorf("turn %d: %+v", turn.Number, turn)
		}
	}
}

// TestNotAMoveIsAskedAgain: the program's not_a_move is the engine's
// ErrInvalidMove, its reason what the player is told.
func TestNotAMoveIsAskedAgain(t *testing.T) {
	g := faulty(t, nil)
	m := engine.NewMatch(g, "R1M1", "P1", "P2", 1)
	m.Joined("P1", true)
	m.Joined("P2", true)
	err := m.Answered("P1", engine.Answer{Choice: "bad"})
	if !errors.Is(err, engine.ErrInvalidMove) || err.Error() != "bad is not x or y" {
		t.Fatalf("answer bad: %v", err)
	}
	if turn, _ := m.Turn("P1"); turn.State["secret_of"] != "A" || turn.State["text"] != "seat A" {
		t.Errorf("A sees %v", turn.State)
	}
	if turn, _ := m.Turn("P2"); turn.State["secret_of"] != "B" {
		t.Errorf("B sees %v", turn.State)
	}
	for _, p := range []string{"P1", "P2"} {
		if err := m.Answered(p, engine.Answer{Choice: " x"}); err != nil {
			t.Fatal(err)
		}
	}
	o := m.Outcome()
	if !m.Done() || o.Winner != "P1" || o.Moves["P1"] != "x" || fmt.Sprint(o.Details["big"]) != "12345678901234567890" {
		t.Fatalf("outcome %+v", o)
	}
}

// TestGameFailures: a program that fails in any way ends its match as
// a game failure: a draw, both seats ERROR, game_error saying why.
func TestGameFailures(t *testing.T) {
	cases := map[string]string{
		"exit_at_start": "the game program exited (exit status 3)",
		"hang_at_start": "no answer within",
		"crash_mid":     "the game program exited (exit status 1)",
		"hang":          "no answer within 2s",
		"garbage":       "is not a JSON object",
		"other_seat":    `a verdict for seat "B"`,
		"no_seat_asked": "no seat is asked",
		"error":         "the game program says: the board caught fire",
		"long_line":     "a line of more than 1048576 bytes",
		"unknown_key":   `unknown field "colour"`,
		"ask_lost":      "seat A is asked again after a move that loses",
	}
	for fault, want := range cases {
		t.Run(fault, func(t *testing.T) {
			t.Parallel()
			g := faulty(t, map[string]any{"fault": fault})
			if fault == "hang_at_start" {
				g.manifest.Deadlines.StartSeconds = 2
			}
			choose := first
			if fault == "ask_lost" {
				choose = func(p string, turn engine.Turn) string { return map[string]string{"P1": "lose", "P2": "x"}[p] }
			}
			started := time.Now()
			o, _ := playOut(t, g, "R1M1", 1, choose)
			if o.Status != engine.StatusDraw || o.Winner != "" || o.Statuses["P1"] != GameError || o.Statuses["P2"] != GameError ||
				o.Step != "game failed" {
				t.Fatalf("outcome %+v", o)
			}
			why, _ := o.Details["game_error"].(string)
			if !strings.Contains(why, want) || !strings.Contains(o.Reason, "game failed: ") {
				t.Errorf("game_error %q, reason %q; want %q in it", why, o.Reason, want)
			}
			if elapsed := time.Since(started); elapsed > 15*time.Second {
				t.Errorf("the failure took %v", elapsed)
			}
		})
	}
}

// TestTechnicalLossStopsTheGame: a player's failure mid-match is its
// technical loss, as in a built-in game; the program is stopped.
func TestTechnicalLossStopsTheGame(t *testing.T) {
	g := faulty(t, nil)
	m := engine.NewMatch(g, "R1M1", "P1", "P2", 1)
	m.Joined("P1", true)
	m.Joined("P2", true)
	if err := m.Answered("P1", engine.Answer{Choice: "x"}); err != nil {
		t.Fatal(err)
	}
	m.Failed("P2", "timed out")
	o := m.Outcome()
	if o.Status != engine.StatusTechnicalLoss || o.Winner != "P1" || fmt.Sprint(o.Offenders) != "[P2]" || o.Details != nil {
		t.Fatalf("outcome %+v", o)
	}
}

// TestEvenOddProgramDrawsAsTheEngine: the example even/odd program
// settles every match exactly as the built-in game does, from the same
// league seed, match and moves.
func TestEvenOddProgramDrawsAsTheEngine(t *testing.T) {
	g := gameOf(t, "../../examples/games/even_odd.json", nil)
	builtin, _ := engine.LookupGame(engine.EvenOddType)
	for i, seed := range []int64{0, 7, -3, 1 << 62, 123456789} {
		id := fmt.Sprintf("R%dM%d", i+1, i%3+1)
		moves := map[string]string{"P1": engine.Even, "P2": []string{engine.Even, engine.Odd}[i%2]}
		choose := func(p string, _ engine.Turn) string { return moves[p] }
		got, turns := playOut(t, g, id, seed, choose)
		want, wantTurns := playOut(t, builtin, id, seed, choose)
		if fmt.Sprintf("%+v", got) != fmt.Sprintf("%+v", want) {
			t.Errorf("seed %d %s: the program gives\n%+v\nthe engine\n%+v", seed, id, got, want)
		}
		if fmt.Sprintf("%+v", turns) != fmt.Sprintf("%+v", wantTurns) {
			t.Errorf("seed %d %s: the program asks\n%+v\nthe engine\n%+v", seed, id, turns, wantTurns)
		}
	}
}

// TestGameProgramIsConfined: a game program runs in the sandbox: no
// network, none of the hidden paths, no writing beside its manifest;
// its own folder is its HOME, and its environment is clean.
func TestGameProgramIsConfined(t *testing.T) {
	needPython(t)
	if !sandbox.Probe().Confines() {
		leaguetest.SkipWithout(t, "this machine cannot confine programs: "+sandbox.Probe().Describe(sandbox.Limits{}, false))
	}
	listener, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer listener.Close()
	hidden := t.TempDir()
	secret := filepath.Join(hidden, "key")
	if err := os.WriteFile(secret, []byte("k"), 0o600); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	script, err := os.ReadFile("testdata/prober.py")
	if err != nil {
		t.Fatal(err)
	}
	manifest, _ := json.Marshal(map[string]any{"name": "prober", "command": []string{"python3", "prober.py"}, "rules": "r", "seats": 2,
		"options": map[string]any{"port": listener.Addr().(*net.TCPAddr).Port, "secret": secret}})
	for name, data := range map[string][]byte{"prober.py": script, "game.json": manifest} {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	g := gameOf(t, filepath.Join(dir, "game.json"), nil)
	site := g.currentSite()
	site.Hide = []string{hidden}
	g.SetSite(site)
	o, _ := playOut(t, g, "R1M1", 1, first)
	d := o.Details
	for _, key := range []string{"connect", "read_hidden", "write_beside"} {
		if s, _ := d[key].(string); !strings.HasPrefix(s, "refused") {
			t.Errorf("%s: %v, want refused", key, d[key])
		}
	}
	if d["write_home"] != "done" {
		t.Errorf("write_home: %v", d["write_home"])
	}
	if env, _ := d["env"].(string); strings.Contains(env, "LEAGUETUI") || !strings.Contains(env, "HOME") {
		t.Errorf("environment %s", env)
	}
}

// A game program's words that reach players, files and screens are
// bounded and escaped: the game is a participant.
func TestFromGameBoundsAndEscapes(t *testing.T) {
	if got := fromGame("X wins \x1b[2J in 5"); got != `X wins \x1b[2J in 5` {
		t.Errorf("fromGame kept a terminal escape: %q", got)
	}
	long := fromGame(strings.Repeat("é", maxWords))
	if len(long) > maxWords+len("…") || !utf8.ValidString(long) || !strings.HasSuffix(long, "…") {
		t.Errorf("fromGame of a long reason: %d bytes, valid %v", len(long), utf8.ValidString(long))
	}
	if got := fromGame("draw"); got != "draw" {
		t.Errorf("fromGame(%q) = %q", "draw", got)
	}
}
