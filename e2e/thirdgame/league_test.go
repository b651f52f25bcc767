// Package thirdgame proves that the agents know no game: rock, paper,
// scissors over three turns (package rps, only in the tests) is played by
// real manager, referee and player processes of a leaguetui binary that
// differs from the production one only by importing that package.
package thirdgame

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/leaguetui/leaguetui/agents/protocol"
	"github.com/leaguetui/leaguetui/config"
	"github.com/leaguetui/leaguetui/e2e/thirdgame/rps"
	"github.com/leaguetui/leaguetui/internal/leaguetest"
)

func TestMain(m *testing.M) { leaguetest.Main(m) }

const leagueTimeout = 3 * time.Minute

// leagueID is the league the tests play: the default, which names the game.
var leagueID = config.LeagueIDFor(rps.Type)

// rpsBinary is leaguetui with the rock, paper, scissors game.
func rpsBinary(t *testing.T) string {
	return leaguetest.BinaryWithGames(t, "github.com/leaguetui/leaguetui/e2e/thirdgame/rps")
}

// runLeague plays a headless rock, paper, scissors league and returns its
// data folder and final table.
func runLeague(t *testing.T, seed int) (string, string) {
	t.Helper()
	dir := t.TempDir()
	run := leaguetest.RunBinary(t, rpsBinary(t), dir, leagueTimeout, nil, leaguetest.Args("--no-ui", "--free-ports",
		"--game", rps.Type, "--players", 4, "--referees", 2, "--seed", seed, "--data", dir)...)
	if run.Err != nil {
		t.Fatalf("league failed: %v\nstderr:\n%s", run.Err, run.Stderr)
	}
	return dir, run.Stdout
}

// TestThirdGamePlayedByRealProcesses: every match of the league is three
// turns of GAME_MOVE_CALL with the game's state, answered with
// GAME_MOVE_RESPONSE, and its result agrees with the throws; the standings
// agree with the match files; the same seed gives the same table.
func TestThirdGamePlayedByRealProcesses(t *testing.T) {
	dir, table := runLeague(t, 11)
	matches := leaguetest.ReadMatchFiles[matchFile](t, dir, leagueID)
	if len(matches) != 6 { // 4 players: 3 rounds of 2 matches
		t.Fatalf("%d match files, want 6", len(matches))
	}
	points := map[string]int{}
	for _, m := range matches {
		if m.GameType != rps.Type {
			t.Errorf("%s: game_type %q, want %q", m.MatchID, m.GameType, rps.Type)
		}
		checkTurns(t, m)
		checkResult(t, m)
		for id, p := range m.Result.Score {
			points[id] += p
		}
	}
	var standings protocol.StandingsFile
	leaguetest.ReadJSON(t, filepath.Join(dir, "leagues", leagueID, "standings.json"), &standings)
	if len(standings.Standings) != 4 {
		t.Fatalf("standings %+v, want 4 rows", standings.Standings)
	}
	for _, row := range standings.Standings {
		if row.Played != 3 || row.Points != points[row.PlayerID] {
			t.Errorf("%s: played %d, %d points; the match files give %d points in 3 matches",
				row.PlayerID, row.Played, row.Points, points[row.PlayerID])
		}
	}
	if !strings.Contains(table, "completed") {
		t.Errorf("final table does not say the league completed:\n%s", table)
	}
	if _, again := runLeague(t, 11); again != table {
		t.Errorf("the same seed gave another table:\n%s\nthen:\n%s", table, again)
	}
}

// TestProductionBinaryLacksTheThirdGame: the game is in the tests' binary
// only; the real leaguetui refuses it, naming the games it has players for.
func TestProductionBinaryLacksTheThirdGame(t *testing.T) {
	dir := t.TempDir()
	run := leaguetest.RunLeaguetui(t, dir, leagueTimeout, nil, "--no-ui", "--free-ports", "--game", rps.Type, "--data", dir)
	if run.Err == nil || !strings.Contains(run.Stderr, rps.Type) {
		t.Fatalf("leaguetui --game %s: err %v, stderr:\n%s", rps.Type, run.Err, run.Stderr)
	}
}

// matchFile is a rock, paper, scissors match file.
type matchFile = leaguetest.MatchFile[struct {
	leaguetest.MatchResult
	Choices map[string]string `json:"choices"`
	ThrowsA string            `json:"throws_A"`
	ThrowsB string            `json:"throws_B"`
}]

// checkTurns: each player got GAME_MOVE_CALL for turns 1, 2, 3 with the
// throws as options and the scores as state, and answered each with
// GAME_MOVE_RESPONSE; from turn 2 on the state shows the opponent's last
// throw.
func checkTurns(t *testing.T, m matchFile) {
	t.Helper()
	turns := map[string][]int{}
	answers := map[string]int{}
	for _, e := range m.Transcript {
		switch e.MessageType {
		case "GAME_MOVE_CALL":
			req, _ := e.Content["move_request"].(map[string]any)
			state, _ := req["context"].(map[string]any)
			turn, _ := req["turn"].(float64)
			if req["move_type"] != "throw" || fmt.Sprint(req["valid_options"]) != "[rock paper scissors]" || state["your_score"] == nil {
				t.Errorf("%s: move request %v", m.MatchID, req)
			}
			if _, shown := state["opponent_last"]; shown != (turn > 1) {
				t.Errorf("%s turn %v: state %v; the opponent's last throw is shown from turn 2 on", m.MatchID, turn, state)
			}
			turns[e.To] = append(turns[e.To], int(turn))
		case "GAME_MOVE_RESPONSE":
			data, _ := e.Content["move_data"].(map[string]any)
			if data["move_type"] != "throw" || data["choice"] == "" {
				t.Errorf("%s: answer %v", m.MatchID, e.Content)
			}
			answers[e.From]++
		case "CHOOSE_PARITY_CALL", "CHOOSE_PARITY_RESPONSE":
			t.Errorf("%s: an even/odd message in a rock, paper, scissors match: %v", m.MatchID, e.Content)
		}
	}
	for _, id := range m.Players {
		who := "player:" + id
		if fmt.Sprint(turns[who]) != "[1 2 3]" || answers[who] != 3 {
			t.Errorf("%s: %s was asked for turns %v and answered %d times, want turns [1 2 3] and 3 answers",
				m.MatchID, id, turns[who], answers[who])
		}
	}
}

// checkResult: the winner is who won more of the three throws.
func checkResult(t *testing.T, m matchFile) {
	t.Helper()
	a, b := strings.Fields(m.Result.ThrowsA), strings.Fields(m.Result.ThrowsB)
	if len(a) != rps.Turns || len(b) != rps.Turns {
		t.Fatalf("%s: throws %q and %q, want %d each", m.MatchID, m.Result.ThrowsA, m.Result.ThrowsB, rps.Turns)
	}
	wins := map[string]string{rps.Rock: rps.Scissors, rps.Paper: rps.Rock, rps.Scissors: rps.Paper}
	score := 0
	for i := range a {
		switch {
		case wins[a[i]] == b[i]:
			score++
		case wins[b[i]] == a[i]:
			score--
		}
	}
	want := "DRAW"
	var winner string
	switch {
	case score > 0:
		want, winner = "WIN", m.Players["player_A"]
	case score < 0:
		want, winner = "WIN", m.Players["player_B"]
	}
	got := ""
	if m.Result.Winner != nil {
		got = *m.Result.Winner
	}
	if m.Result.Status != want || got != winner {
		t.Errorf("%s: %s won by %q after A %v, B %v; want %s %q", m.MatchID, m.Result.Status, got, a, b, want, winner)
	}
	if m.Result.Choices[m.Players["player_A"]] != a[2] || m.Result.Choices[m.Players["player_B"]] != b[2] {
		t.Errorf("%s: choices %v, want each player's last throw", m.MatchID, m.Result.Choices)
	}
}

// TestPlayerWithoutTheLeaguesGameIsRefused: a player of the production
// binary (it plays even/odd only) is refused by a manager of a rock,
// paper, scissors league, and the refusal names the league's game.
func TestPlayerWithoutTheLeaguesGameIsRefused(t *testing.T) {
	dir := t.TempDir()
	manager := leaguetest.StartProgram(t, rpsBinary(t), "manager", filepath.Join(dir, "test-output"), false,
		[]string{"LEAGUETUI_ADMIN_TOKEN=test-admin"}, "manager", "--port", "0", "--data", dir, "--game", rps.Type)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, leaguetest.Binary(t), "player", "--port", "0", "--data", dir,
		"--manager", manager.Endpoint, "--name", "P01")
	cmd.Env = append(os.Environ(), leaguetest.ChildEnv()...)
	out, err := cmd.CombinedOutput()
	if err == nil || ctx.Err() != nil {
		t.Fatalf("the even/odd player was not refused (err %v):\n%s", err, out)
	}
	if !strings.Contains(string(out), "this league plays "+rps.Type) {
		t.Errorf("refusal does not name the league's game:\n%s", out)
	}
}
