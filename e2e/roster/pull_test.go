package roster_test

import (
	"io"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/leaguetui/leaguetui/internal/leaguetest"
	"github.com/leaguetui/leaguetui/league/control"
)

// registerPull registers a player named name for a pull seat
// (contact_endpoint "pull") and returns the manager's answer.
func registerPull(t *testing.T, url, name, endpoint string) leaguetest.Reply {
	t.Helper()
	meta := map[string]any{"display_name": name, "version": "1.0.0", "game_types": []string{"even_odd"}, "contact_endpoint": endpoint}
	params := leaguetest.With(leaguetest.Envelope("LEAGUE_REGISTER_REQUEST", "player:"+name), map[string]any{"player_meta": meta})
	return leaguetest.Call(t, url, "register_player", params)
}

// TestPullSeatNeverPolled: a player that takes a pull seat and never
// polls for its calls loses each match as a technical loss (the
// referee's calls, held at the relay, time out), its opponents play on
// unharmed, and the league completes. A registration that claims a
// relay endpoint for itself is refused: only the manager hands them out;
// so is a referee's asking for a pull seat.
func TestPullSeatNeverPolled(t *testing.T) {
	dataDir := t.TempDir()
	run := startLeaguetui(t, dataDir, nil, "--no-ui", "--data", dataDir, "--seed", "4", "--players", "2", "--open-seats", "1",
		"--move-timeout", "1s", "--join-timeout", "1s", "--generic-timeout", "1s", "--retry-delay", "100ms", "--attempts", "1", "--free-ports")
	url := run.managerURL(t)
	claimed := registerPull(t, url, "impostor", strings.TrimSuffix(url, "/mcp")+"/pull/P01/mcp")
	if claimed.String("message_type") != "LEAGUE_ERROR" || !strings.Contains(claimed.String("error_description"), "relay endpoints") {
		t.Errorf("a registration claiming a relay endpoint: %s, want a LEAGUE_ERROR", claimed.Body)
	}
	referee := leaguetest.Call(t, url, "register_referee", leaguetest.With(leaguetest.Envelope("REFEREE_REGISTER_REQUEST", "referee:REF09"),
		map[string]any{"referee_meta": map[string]any{"display_name": "REF09", "version": "1.0.0", "game_types": []string{"even_odd"},
			"contact_endpoint": "pull"}}))
	if !strings.Contains(referee.String("error_description"), "only a player may take a pull seat") {
		t.Errorf("a referee asking for a pull seat: %s, want a LEAGUE_ERROR", referee.Body)
	}
	reply := registerPull(t, url, "silent", "pull")
	if reply.String("status") != "ACCEPTED" || reply.String("player_id") != "P03" {
		t.Fatalf("a pull registration: %s, want ACCEPTED as P03", reply.Body)
	}
	checkPullHealth(t, strings.TrimSuffix(url, "/mcp")+"/pull/P03", reply.String("auth_token"))
	run.wait(t)
	for name, row := range rowsByName(readStandings(t, dataDir)) {
		want := 0
		if name == "silent" {
			want = 2
		}
		if row.Played != 2 || row.TechnicalLosses != want {
			t.Errorf("%s: played %d, technical losses %d; want 2 and %d", name, row.Played, row.TechnicalLosses, want)
		}
	}
}

// checkPullHealth: the /health of a pull seat's relay endpoint (where the
// console asks for the player's) is 503 while its player does not poll,
// and ACTIVE, with the player's name, while it does; the poll here takes
// a call and never answers it.
func checkPullHealth(t *testing.T, seat, token string) {
	t.Helper()
	health := func() (int, string) {
		resp, err := http.Get(control.HealthURL(seat + "/mcp"))
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		body, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(body)
	}
	if status, body := health(); status != http.StatusServiceUnavailable {
		t.Errorf("the health of a pull seat never polled: %d %s, want 503", status, body)
	}
	go func() {
		req, _ := http.NewRequest(http.MethodGet, seat+"/next", nil)
		req.Header.Set("Authorization", "Bearer "+token)
		if resp, err := http.DefaultClient.Do(req); err == nil {
			resp.Body.Close()
		}
	}()
	deadline := time.Now().Add(10 * time.Second)
	for {
		status, body := health()
		if status == http.StatusOK {
			if !strings.Contains(body, `"state":"ACTIVE"`) || !strings.Contains(body, `"display_name":"silent"`) {
				t.Errorf("the health of a polled pull seat: %s", body)
			}
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("the health of a polled pull seat is still %d %s", status, body)
		}
		time.Sleep(10 * time.Millisecond) // a poll interval
	}
}

// TestStartersPlayThroughPullSeats: the three starters of examples/ with
// --pull (no port of their own) play a whole roster league beside
// built-in players through pull seats, with no technical loss for anyone.
func TestStartersPlayThroughPullSeats(t *testing.T) {
	examples, err := filepath.Abs(filepath.Join("..", "..", "examples"))
	if err != nil {
		t.Fatal(err)
	}
	goStarter := leaguetest.GoStarter(t)
	pulled := func(entry map[string]any) map[string]any {
		entry["command"] = append(entry["command"].([]string), "--pull")
		return entry
	}
	roster := writeRoster(t,
		pulled(starter(t, "py-pull", "python3", filepath.Join(examples, "python", "player.py"))),
		pulled(starter(t, "js-pull", "node", filepath.Join(examples, "node", "player.js"))),
		pulled(starter(t, "go-pull", goStarter)),
		map[string]any{"name": "bob", "strategy": "adaptive"},
	)
	dataDir := t.TempDir()
	run := startLeaguetui(t, dataDir, nil, append([]string{"--no-ui", "--data", dataDir, "--seed", "8",
		"--roster", roster, "--referees", "2"}, fast...)...)
	run.wait(t)
	rows := rowsByName(readStandings(t, dataDir))
	for _, name := range []string{"py-pull", "js-pull", "go-pull", "bob"} {
		if row, ok := rows[name]; !ok || row.Played != 3 || row.TechnicalLosses != 0 {
			t.Errorf("%s: %+v (in the standings: %v); want 3 matches played, no technical loss", name, row, ok)
		}
	}
}

// TestPullSeatSurvivesKill: leaguetui killed with SIGKILL in the middle of
// a league with a pull player (the Python starter with --pull), and run
// again with the resume command, completes the league with every match
// played once and no technical loss: the resumed manager's relay starts
// empty, and the starter, started again, registers again with its saved
// credentials and takes a new pull seat.
func TestPullSeatSurvivesKill(t *testing.T) {
	if !leaguetest.HaveProc() {
		t.Skip("needs Linux /proc to see the agents die")
	}
	examples, err := filepath.Abs(filepath.Join("..", "..", "examples"))
	if err != nil {
		t.Fatal(err)
	}
	entry := starter(t, "py-pull", "python3", filepath.Join(examples, "python", "player.py"))
	entry["command"] = append(entry["command"].([]string), "--pull")
	roster := writeRoster(t, entry, map[string]any{"name": "bob", "strategy": "adaptive"},
		map[string]any{"name": "carol", "strategy": "random"}, map[string]any{"name": "dan", "strategy": "counter"})
	dataDir := t.TempDir()
	first := startLeaguetui(t, dataDir, nil, append([]string{"--no-ui", "--data", dataDir, "--seed", "8",
		"--roster", roster, "--referees", "2"}, fast...)...)
	first.AwaitLine(t, "[2/6]", runTimeout)
	under := leaguetest.Descendants(first.Cmd.Process.Pid)
	if err := first.Cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	<-first.Exited()
	for _, pid := range under {
		deadline := time.Now().Add(10 * time.Second)
		for leaguetest.CommandLine(pid) != "" {
			if time.Now().After(deadline) {
				t.Fatalf("process %d outlived the leaguetui killed with SIGKILL", pid)
			}
			time.Sleep(5 * time.Millisecond) // a poll interval
		}
	}
	if done := leaguetest.JournaledResults(dataDir, leagueID); done >= 6 {
		t.Fatalf("the kill came after the league's %d results: nothing was left to resume", done)
	} else {
		t.Logf("killed with %d of 6 results journaled, %d processes under leaguetui", done, len(under))
	}
	resumed := startLeaguetui(t, dataDir, nil, "--no-ui", "--data", dataDir, "--free-ports")
	resumed.wait(t)
	if !strings.Contains(resumed.Stderr(), "resuming league") {
		t.Errorf("the second run did not resume the league:\n%s", resumed.Stderr())
	}
	rows := rowsByName(readStandings(t, dataDir))
	for _, name := range []string{"py-pull", "bob", "carol", "dan"} {
		if row, ok := rows[name]; !ok || row.Played != 3 || row.TechnicalLosses != 0 {
			t.Errorf("%s: %+v (in the standings: %v); want 3 matches played, no technical loss", name, row, ok)
		}
	}
	if got := leaguetest.JournaledResults(dataDir, leagueID); got != 6 {
		t.Errorf("%d results in the journal, want 6 (each match once)", got)
	}
}
