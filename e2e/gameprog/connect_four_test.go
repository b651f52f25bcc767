package gameprog

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/leaguetui/leaguetui/agents/protocol"
	"github.com/leaguetui/leaguetui/config"
	"github.com/leaguetui/leaguetui/internal/leaguetest"
	"github.com/leaguetui/leaguetui/league/gameprog"
)

func needNode(t *testing.T) {
	t.Helper()
	if _, err := exec.LookPath("node"); err != nil {
		leaguetest.SkipWithout(t, "node is not installed: examples/games/connect_four.js is JavaScript")
	}
}

// connectFourResult is a connect-four match file's result.
type connectFourResult struct {
	leaguetest.MatchResult
	Board     string            `json:"board"`
	Moves     string            `json:"moves"`
	Statuses  map[string]string `json:"player_statuses"`
	GameError string            `json:"game_error"`
	Reason    string            `json:"reason"`
}

// TestConnectFourLeague: the JavaScript connect four plays a whole
// league between built-in random players with no technical loss and no
// game failure: every match a win or a draw that agrees with its board,
// players asked in turn with the columns not full, their own mark and
// the board's drawing; the standings agree with the match files.
func TestConnectFourLeague(t *testing.T) {
	needNode(t)
	dir, table := runLeague(t, "--game", example(t, "connect_four.json"), "--seed", "5")
	leagueID := config.LeagueIDFor("connect_four")
	matches := leaguetest.ReadMatchFiles[leaguetest.MatchFile[connectFourResult]](t, dir, leagueID)
	if len(matches) != 6 {
		t.Fatalf("%d match files, want 6", len(matches))
	}
	var results []leaguetest.MatchResult
	for _, m := range matches {
		r := m.Result
		results = append(results, r.MatchResult)
		a, b := m.Players["player_A"], m.Players["player_B"]
		if m.GameType != "connect_four" || (r.Status != "WIN" && r.Status != "DRAW") || r.GameError != "" ||
			r.Statuses[a] == "ERROR" || r.Statuses[b] == "ERROR" {
			t.Errorf("%s: game %s, status %s, statuses %v, game error %q (%s)", m.MatchID, m.GameType, r.Status, r.Statuses, r.GameError, r.Reason)
		}
		switch want := connectFourWinner(r.Board); {
		case want == "X" && (r.Winner == nil || *r.Winner != a || r.Statuses[a] != "WON" || r.Statuses[b] != "LOST"),
			want == "O" && (r.Winner == nil || *r.Winner != b || r.Statuses[b] != "WON" || r.Statuses[a] != "LOST"),
			want == "" && (r.Status != "DRAW" || strings.Contains(r.Board, ".")):
			t.Errorf("%s: board %s (moves %s) but %s, winner %v, statuses %v", m.MatchID, r.Board, r.Moves, r.Status, r.Winner, r.Statuses)
		}
		checkConnectFourCalls(t, m.MatchID, a, b, m.Transcript, len(strings.Fields(r.Moves)))
	}
	leaguetest.CheckStandings(t, dir, leagueID, results)
	if !strings.Contains(table, "completed") {
		t.Errorf("the final table does not say the league completed:\n%s", table)
	}
}

// checkConnectFourCalls: A is asked turns 1, 3, 5…, B turns 2, 4…, each
// with the columns not full as options and its own mark in its context.
func checkConnectFourCalls(t *testing.T, id, a, b string, transcript []protocol.TranscriptEntry, moves int) {
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
		top, _, _ := strings.Cut(board, "/")
		mark := map[string]string{"player:" + a: "X", "player:" + b: "O"}[e.To]
		if req["move_type"] != "drop" || ctx["you"] != mark || ctx["to_move"] != mark || len(top) != 7 ||
			len(options) != strings.Count(top, ".") || strings.Count(fmt.Sprint(ctx["text"]), "\n") != 6 ||
			(int(turn)%2 == 1) != (mark == "X") {
			t.Errorf("%s: %s asked %v", id, e.To, req)
		}
		turns = append(turns, int(turn))
	}
	if len(turns) != moves || !slices.IsSorted(turns) {
		t.Errorf("%s: turns asked %v for %d moves", id, turns, moves)
	}
}

// connectFourWinner is the mark with four in a row on a board of six
// rows of seven joined by "/", "" for none.
func connectFourWinner(board string) string {
	rows := strings.Split(board, "/")
	if len(rows) != 6 {
		return "?"
	}
	at := func(r, c int) byte {
		if r < 0 || r >= 6 || c < 0 || c >= len(rows[r]) {
			return 0
		}
		return rows[r][c]
	}
	for r := range 6 {
		for c := range 7 {
			m := at(r, c)
			if m != 'X' && m != 'O' {
				continue
			}
			for _, d := range [][2]int{{0, 1}, {1, 0}, {1, 1}, {1, -1}} {
				if at(r+d[0], c+d[1]) == m && at(r+2*d[0], c+2*d[1]) == m && at(r+3*d[0], c+3*d[1]) == m {
					return string(m)
				}
			}
		}
	}
	return ""
}

// connectFour is the program run directly, driven line by line.
type connectFour struct {
	t   *testing.T
	in  io.WriteCloser
	out *bufio.Scanner
}

func startConnectFour(t *testing.T, options string) (*connectFour, gameprog.Turn) {
	t.Helper()
	cmd := exec.Command("node", "connect_four.js")
	cmd.Dir = filepath.Dir(example(t, "connect_four.json"))
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		in.Close()
		if err := cmd.Wait(); err != nil {
			t.Errorf("the program: %v\n%s", err, stderr.String())
		}
	})
	g := &connectFour{t: t, in: in, out: bufio.NewScanner(out)}
	var turn gameprog.Turn
	g.send(fmt.Sprintf(`{"type":"start","protocol":"leaguetui.game/1","match_id":"R1M1","seed":5503017876275446,"league_seed":7,"seats":["A","B"],"options":%s}`, options), gameprog.TypeTurn, &turn)
	return g, turn
}

// send writes line and decodes the answer, which must be of type want,
// into v, refusing a key the protocol's type lacks.
func (g *connectFour) send(line, want string, v any) {
	g.t.Helper()
	if _, err := io.WriteString(g.in, line+"\n"); err != nil {
		g.t.Fatal(err)
	}
	if !g.out.Scan() {
		g.t.Fatalf("no answer to %s: %v", line, g.out.Err())
	}
	answer := g.out.Bytes()
	var head struct{ Type string }
	if err := json.Unmarshal(answer, &head); err != nil || head.Type != want {
		g.t.Fatalf("answer to %s: %s, want a %s", line, answer, want)
	}
	dec := json.NewDecoder(bytes.NewReader(answer))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		g.t.Fatalf("answer %s: %v", answer, err)
	}
}

func (g *connectFour) move(turn int, seat, move string) gameprog.Verdict {
	g.t.Helper()
	var v gameprog.Verdict
	g.send(fmt.Sprintf(`{"type":"move","turn":%d,"seat":%q,"move_type":"drop","move":%q}`, turn, seat, move), gameprog.TypeVerdict, &v)
	return v
}

// play has seats take the columns in turn from turn 1 on, starting with
// first, each accepted then advanced, and returns the last answer: the
// end (into end), or the next turn.
func (g *connectFour) play(first string, columns []string, end *gameprog.End) *gameprog.Turn {
	g.t.Helper()
	seat, other := first, map[string]string{"A": "B", "B": "A"}
	for i, col := range columns {
		if v := g.move(i+1, seat, col); v.Verdict != gameprog.VerdictAccepted || v.Move != col || v.Seat != seat {
			g.t.Fatalf("move %d %s %s: %+v", i+1, seat, col, v)
		}
		advance := fmt.Sprintf(`{"type":"advance","turn":%d}`, i+1)
		if i == len(columns)-1 && end != nil {
			g.send(advance, gameprog.TypeEnd, end)
			return nil
		}
		var turn gameprog.Turn
		g.send(advance, gameprog.TypeTurn, &turn)
		seat = other[seat]
		if asked := askedSeat(turn); asked == nil || asked.Seat != seat {
			g.t.Fatalf("after move %d: %+v, want %s asked", i+1, turn, seat)
		}
		if i == len(columns)-1 {
			return &turn
		}
	}
	return nil
}

func askedSeat(turn gameprog.Turn) *gameprog.SeatTurn {
	for i, s := range turn.Seats {
		if s.Asked {
			return &turn.Seats[i]
		}
	}
	return nil
}

// TestConnectFourProtocol drives the program directly: the first turn
// asks A alone with every column, both seats see the empty board and
// its drawing; an answer out of turn or outside the legal columns is not
// a move; a vertical four wins for the seat that made it.
func TestConnectFourProtocol(t *testing.T) {
	needNode(t)
	g, turn := startConnectFour(t, `{"first":"A"}`)
	empty := strings.Repeat("......./", 5) + "......."
	if len(turn.Seats) != 2 || turn.Seats[0].Seat != "A" || !turn.Seats[0].Asked || turn.Seats[1].Asked ||
		turn.Seats[0].MoveType != "drop" || strings.Join(turn.Seats[0].Options, " ") != "1 2 3 4 5 6 7" || turn.Seats[1].Options != nil {
		t.Fatalf("first turn %+v", turn)
	}
	for i, s := range turn.Seats {
		you := []string{"X", "O"}[i]
		if s.Observation["board"] != empty || s.Observation["you"] != you || s.Observation["to_move"] != "X" ||
			!strings.HasSuffix(s.Text, "\n1 2 3 4 5 6 7") || strings.Count(s.Text, ". ") != 36 {
			t.Errorf("seat %s sees %v\n%s", s.Seat, s.Observation, s.Text)
		}
	}
	for _, bad := range [][2]string{{"B", "1"}, {"A", "8"}, {"A", "0"}, {"A", "x"}, {"A", ""}} {
		if v := g.move(1, bad[0], bad[1]); v.Verdict != gameprog.VerdictNotAMove || v.Seat != bad[0] || v.Reason == "" {
			t.Errorf("%s answering %q: %+v", bad[0], bad[1], v)
		}
	}
	var end gameprog.End
	g.play("A", strings.Fields("1 2 1 2 1 2 1"), &end)
	if end.Winner != "A" || fmt.Sprint(end.Seats) != "[{A WON} {B LOST}]" || end.Step != "X wins in 7" ||
		!strings.Contains(end.Reason, "A (X) made four down after 7 moves") ||
		end.Details["board"] != "......./......./X....../XO...../XO...../XO....." || end.Details["moves"] != "1 2 1 2 1 2 1" {
		t.Errorf("end %+v", end)
	}
}

// TestConnectFourFirstB: with B first, B's vertical four wins for B.
func TestConnectFourFirstB(t *testing.T) {
	needNode(t)
	g, turn := startConnectFour(t, `{"first":"B"}`)
	if asked := askedSeat(turn); asked == nil || asked.Seat != "B" || turn.Seats[0].Observation["to_move"] != "O" {
		t.Fatalf("first turn %+v", turn)
	}
	var end gameprog.End
	g.play("B", strings.Fields("3 4 3 4 3 4 3"), &end)
	if end.Winner != "B" || fmt.Sprint(end.Seats) != "[{A LOST} {B WON}]" || end.Step != "O wins in 7" ||
		!strings.Contains(end.Reason, "B (O) made four down") {
		t.Errorf("end %+v", end)
	}
}

// TestConnectFourFullColumnAndDraw: a full column is no longer offered
// and dropping into it is not a move; a full board with no four draws.
func TestConnectFourFullColumnAndDraw(t *testing.T) {
	needNode(t)
	moves := strings.Fields("1 1 1 1 1 1 2 2 2 2 2 2 3 3 3 3 3 3 5 4 4 4 4 4 4 5 5 5 5 5 6 6 6 6 6 6 7 7 7 7 7 7")
	g, _ := startConnectFour(t, `{}`)
	turn := g.play("A", moves[:6], nil)
	if a := askedSeat(*turn); a == nil || strings.Join(a.Options, " ") != "2 3 4 5 6 7" {
		t.Fatalf("after column 1 is full: %+v", turn)
	}
	if v := g.move(7, "A", "1"); v.Verdict != gameprog.VerdictNotAMove || !strings.Contains(v.Reason, "want one of 2 3 4 5 6 7") {
		t.Errorf("a full column: %+v", v)
	}
	var end gameprog.End
	for i, col := range moves[6 : len(moves)-1] {
		seat := []string{"A", "B"}[i%2]
		if v := g.move(7+i, seat, col); v.Verdict != gameprog.VerdictAccepted {
			t.Fatalf("move %d %s %s: %+v", 7+i, seat, col, v)
		}
		var next gameprog.Turn
		g.send(fmt.Sprintf(`{"type":"advance","turn":%d}`, 7+i), gameprog.TypeTurn, &next)
	}
	if v := g.move(42, "B", "7"); v.Verdict != gameprog.VerdictAccepted {
		t.Fatalf("the last move: %+v", v)
	}
	g.send(`{"type":"advance","turn":42}`, gameprog.TypeEnd, &end)
	if end.Winner != "" || fmt.Sprint(end.Seats) != "[{A DRAW} {B DRAW}]" || end.Step != "draw in 42" ||
		strings.Contains(fmt.Sprint(end.Details["board"]), ".") || connectFourWinner(fmt.Sprint(end.Details["board"])) != "" {
		t.Errorf("end %+v", end)
	}
}
