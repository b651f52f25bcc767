package roster_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/leaguetui/leaguetui/agents/store"
	"github.com/leaguetui/leaguetui/internal/leaguetest"
)

// badPlayer is a roster program entry for the test's misbehaving player.
func badPlayer(t *testing.T, name, mode string) map[string]any {
	return map[string]any{"name": name, "command": []string{leaguetest.BadPlayerBinary(t), "--port", "{port}",
		"--manager", "{manager}", "--name", "{name}", "--mode", mode}}
}

// TestRequestShapedReplyPlayer: a player of another implementation that
// answers each call with a body shaped like a request (the answer in
// params, under a method named after it) plays with no technical loss.
func TestRequestShapedReplyPlayer(t *testing.T) {
	dataDir := t.TempDir()
	roster := writeRoster(t, map[string]any{"name": "bob", "strategy": "random"},
		map[string]any{"name": "dan", "strategy": "counter"}, badPlayer(t, "odd-one", "request_reply"))
	run := startLeaguetui(t, dataDir, nil, append([]string{"--no-ui", "--data", dataDir, "--seed", "6", "--roster", roster}, fast...)...)
	run.wait(t)
	for name, r := range rowsByName(readStandings(t, dataDir)) {
		if r.TechnicalLosses != 0 || r.Played != 2 {
			t.Errorf("%s: played %d, technical losses %d; want 2 and 0", name, r.Played, r.TechnicalLosses)
		}
	}
}

// TestLinkRaceErrorNamesGameMove: in a link race, a player that answers a
// move call without a move is told, and the match file says, that it
// answered without GAME_MOVE_RESPONSE, the link race's answer, not
// even/odd's CHOOSE_PARITY_RESPONSE.
func TestLinkRaceErrorNamesGameMove(t *testing.T) {
	dataDir := t.TempDir()
	roster := writeRoster(t, map[string]any{"name": "bob", "strategy": "greedy"}, badPlayer(t, "silent", "ack_move"))
	run := startLeaguetui(t, dataDir, nil, "--no-ui", "--data", dataDir, "--seed", "6", "--roster", roster, "--game", "link_race",
		"--move-timeout", "1s", "--attempts", "1", "--free-ports")
	run.wait(t)
	files, _ := filepath.Glob(filepath.Join(store.Layout{Root: dataDir, LeagueID: "league_2025_link_race"}.MatchesDir(), "*.json"))
	if len(files) == 0 {
		t.Fatalf("no match file in %s", dataDir)
	}
	var all strings.Builder
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		all.Write(data)
	}
	if !strings.Contains(all.String(), "answered without GAME_MOVE_RESPONSE") || strings.Contains(all.String(), "CHOOSE_PARITY_RESPONSE") {
		t.Errorf("the match file does not name GAME_MOVE_RESPONSE alone:\n%s", all.String())
	}
}
