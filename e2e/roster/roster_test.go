// Package roster_test runs leagues from a roster file: built-in
// strategies, model players against the fake provider, a Python program
// leaguetui starts and supervises, outside agents and open seats, with
// real processes.
package roster_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/leaguetui/leaguetui/agents/protocol"
	"github.com/leaguetui/leaguetui/agents/store"
	"github.com/leaguetui/leaguetui/engine"
	"github.com/leaguetui/leaguetui/internal/leaguetest"
	"github.com/leaguetui/leaguetui/internal/leaguetest/fakellm"
	"github.com/leaguetui/leaguetui/league/process"
)

func TestMain(m *testing.M) { leaguetest.Main(m) }

const leagueID = "league_2025_even_odd"

// runTimeout bounds one league of a few players.
const runTimeout = 3 * time.Minute

// fast are the timeouts that keep a league with failures short.
var fast = []string{"--move-timeout", "3s", "--join-timeout", "3s", "--retry-delay", "100ms", "--free-ports"}

// pythonPlayer is the roster entry of testdata/player.py, a player in
// Python's standard library only.
func pythonPlayer(t *testing.T, name string, extra ...string) map[string]any {
	t.Helper()
	if _, err := exec.LookPath("python3"); err != nil {
		leaguetest.SkipWithout(t, "no python3")
	}
	script, err := filepath.Abs(filepath.Join("testdata", "player.py"))
	if err != nil {
		t.Fatal(err)
	}
	cmd := append([]string{"python3", script, "--port", "{port}", "--manager", "{manager}", "--name", "{name}", "--data", "{data}"}, extra...)
	return map[string]any{"name": name, "command": cmd}
}

func writeRoster(t *testing.T, players ...map[string]any) string {
	return leaguetest.WriteRoster(t, players...)
}

// liveRun is leaguetui running, its stderr read line by line as it comes.
type liveRun struct{ *leaguetest.Live }

func startLeaguetui(t *testing.T, dataDir string, env []string, args ...string) *liveRun {
	t.Helper()
	return startLeaguetuiIn(t, "", dataDir, env, args...)
}

// startLeaguetuiIn is startLeaguetui run in the folder dir ("" for the
// test's own), as a user who types relative paths runs it.
func startLeaguetuiIn(t *testing.T, dir, dataDir string, env []string, args ...string) *liveRun {
	t.Helper()
	return &liveRun{leaguetest.StartLive(t, dir, dataDir, env, args...)}
}

// wait waits for leaguetui to exit and requires status 0.
func (r *liveRun) wait(t *testing.T) {
	t.Helper()
	select {
	case err := <-r.Exited():
		if err != nil {
			t.Fatalf("leaguetui: %v (want exit status 0)\nstderr:\n%s", err, r.Stderr())
		}
	case <-time.After(runTimeout):
		t.Fatalf("leaguetui did not finish within %s\nstderr:\n%s", runTimeout, r.Stderr())
	}
}

// managerURL is the /mcp URL leaguetui says to register at.
func (r *liveRun) managerURL(t *testing.T) string {
	t.Helper()
	line := r.AwaitLine(t, "register at ", 60*time.Second)
	return strings.Fields(line[strings.Index(line, "register at ")+len("register at "):])[0]
}

func readStandings(t *testing.T, dataDir string) protocol.StandingsFile {
	t.Helper()
	var s protocol.StandingsFile
	leaguetest.ReadJSON(t, store.Layout{Root: dataDir, LeagueID: leagueID}.Standings(), &s)
	return s
}

// rowsByName indexes the standings by display name.
func rowsByName(s protocol.StandingsFile) map[string]protocol.StandingRow {
	rows := map[string]protocol.StandingRow{}
	for _, r := range s.Standings {
		rows[r.DisplayName] = r
	}
	return rows
}

// mixedLeague runs a league of a built-in strategy, a model player of each
// provider dialect against the fake provider, the Python program and an
// outside player the test registers, from one roster, in --no-ui.
func mixedLeague(t *testing.T, fake *fakellm.Server, roster string) (protocol.StandingsFile, string) {
	t.Helper()
	dataDir := t.TempDir()
	run := startLeaguetui(t, dataDir, []string{"FAKE_KEY=not-a-secret"}, append([]string{"--no-ui", "--data", dataDir, "--seed", "11",
		"--roster", roster, "--referees", "2"}, fast...)...)
	url := run.managerURL(t)
	startExternal(t, dataDir, url, "carol", "--strategy", "counter", "--seed", "11")
	run.AwaitLine(t, "everyone has joined", 60*time.Second)
	run.wait(t)
	if !strings.Contains(run.Stderr(), "joined: carol (P05)") {
		t.Errorf("stderr does not say carol joined as P05:\n%s", run.Stderr())
	}
	for _, name := range []string{"bob", "gpt", "claude", "alice", "carol"} {
		if !strings.Contains(run.Stdout.String(), name) {
			t.Errorf("the standings on stdout do not name %s:\n%s", name, run.Stdout.String())
		}
	}
	return readStandings(t, dataDir), dataDir
}

func TestRosterMixedLeagueNoUI(t *testing.T) {
	fake := fakellm.Start(fakellm.Good)
	t.Cleanup(fake.Close)
	roster := writeRoster(t,
		map[string]any{"name": "bob", "strategy": "adaptive"},
		map[string]any{"name": "gpt", "strategy": "llm", "llm": map[string]any{"provider": "openai", "model": "fake-gpt",
			"base_url": fake.OpenAIURL(), "api_key_env": "FAKE_KEY"}},
		map[string]any{"name": "claude", "strategy": "llm", "llm": map[string]any{"provider": "anthropic", "model": "fake-claude",
			"base_url": fake.URL, "api_key_env": "FAKE_KEY"}},
		pythonPlayer(t, "alice", "--log-wire", "{data}/wire.jsonl"),
		map[string]any{"name": "carol", "external": true},
	)
	first, dataDir := mixedLeague(t, fake, roster)
	checkJoiningGuide(t, filepath.Join(dataDir, "programs", "alice", "wire.jsonl"))
	rows := rowsByName(first)
	for i, name := range []string{"bob", "gpt", "claude", "alice", "carol"} {
		r, ok := rows[name]
		switch {
		case !ok:
			t.Errorf("no standings row for %s: %+v", name, first.Standings)
		case r.PlayerID != leaguetestID(i):
			t.Errorf("%s is %s, want %s (the roster's order)", name, r.PlayerID, leaguetestID(i))
		case r.TechnicalLosses != 0 || r.Played != 4:
			t.Errorf("%s: played %d, technical losses %d; want 4 and 0", name, r.Played, r.TechnicalLosses)
		}
	}
	models := map[string]bool{}
	for _, req := range fake.Requests() {
		models[req.Model] = true
	}
	if !models["fake-gpt"] || !models["fake-claude"] {
		t.Errorf("the fake provider was asked for models %v, want fake-gpt and fake-claude (each its own settings)", models)
	}
	// Same seed, same roster: the same standings.
	second, _ := mixedLeague(t, fake, roster)
	if a, b := table(first), table(second); a != b {
		t.Errorf("same seed and roster, other standings:\n%s\nthen\n%s", a, b)
	}
}

func leaguetestID(i int) string { return []string{"P01", "P02", "P03", "P04", "P05"}[i] }

// table is the standings' rows as text, for comparing two runs.
func table(s protocol.StandingsFile) string {
	var b strings.Builder
	for _, r := range s.Standings {
		b.WriteString(strings.Join([]string{r.PlayerID, r.DisplayName}, " "))
		b.WriteString(" " + strings.Repeat("W", r.Wins) + strings.Repeat("D", r.Draws) + strings.Repeat("L", r.Losses) + "\n")
	}
	return b.String()
}

// supervisedLeague runs bob, dan and eve (built-in) with the Python
// program alice as roster entry program, and returns the standings by
// name, stderr and the program's log.
func supervisedLeague(t *testing.T, alice map[string]any) (map[string]protocol.StandingRow, string, string) {
	t.Helper()
	dataDir := t.TempDir()
	roster := writeRoster(t, map[string]any{"name": "bob", "strategy": "adaptive"}, alice,
		map[string]any{"name": "dan", "strategy": "random"}, map[string]any{"name": "eve", "strategy": "counter"})
	// Retries 1 s then 2 s apart: a program started again is back in
	// time for the rounds after its crash.
	run := startLeaguetui(t, dataDir, nil, append([]string{"--no-ui", "--data", dataDir, "--seed", "4", "--roster", roster,
		"--referees", "1", "--suspend-after", "0"}, append(fast, "--retry-delay", "1s")...)...)
	run.wait(t)
	log, err := os.ReadFile(filepath.Join(dataDir, "logs", "programs", "alice.log"))
	if err != nil {
		t.Fatal(err)
	}
	s := readStandings(t, dataDir)
	if s.State != engine.LeagueCompleted || s.MatchesDone != s.MatchesTotal {
		t.Fatalf("league %s at %d of %d matches, want it completed", s.State, s.MatchesDone, s.MatchesTotal)
	}
	rows := rowsByName(s)
	for name, r := range rows {
		if r.Played != 3 {
			t.Errorf("%s played %d matches, want 3", name, r.Played)
		}
		if name != "alice" && r.TechnicalLosses != 0 {
			t.Errorf("%s has %d technical losses: only alice failed", name, r.TechnicalLosses)
		}
	}
	return rows, run.Stderr(), string(log)
}

func TestRosterProgramCrashIsRestarted(t *testing.T) {
	rows, stderr, log := supervisedLeague(t, pythonPlayer(t, "alice", "--crash-after", "1"))
	if !strings.Contains(stderr, "program alice exited (exit status 3); starting it again") {
		t.Errorf("stderr does not say alice was started again:\n%s", stderr)
	}
	if n := strings.Count(log, "registered as P02"); n != 2 {
		t.Errorf("alice registered as P02 %d times, want 2 (started again, as itself):\n%s\nstderr:\n%s", n, log, stderr)
	}
	if r := rows["alice"]; r.Wins+r.Draws+r.Losses == 0 {
		t.Errorf("alice won, drew or lost nothing after its restart: %+v", r)
	}
}

func TestRosterProgramMemoryLimit(t *testing.T) {
	alice := pythonPlayer(t, "alice", "--hog-after", "1")
	alice["limits"] = map[string]any{"memory_mb": 256}
	alice["restarts"] = 0
	rows, stderr, log := supervisedLeague(t, alice)
	if !strings.Contains(log, "MemoryError") {
		t.Errorf("alice's log shows no MemoryError: the limit did not stop its allocation:\n%s", log)
	}
	if !strings.Contains(stderr, "program alice exited") || !strings.Contains(stderr, "no restart left") {
		t.Errorf("stderr does not say alice exited for good:\n%s", stderr)
	}
	if r := rows["alice"]; r.TechnicalLosses != 3 {
		t.Errorf("alice: %+v, want its 3 matches technical losses (it was down, or stuck, for all)", r)
	}
}

// TestJoinWindowNamesTheMissing: --no-ui waits for the roster's outside
// player and an open seat only as long as the join window, then starts
// without them, naming them.
func TestJoinWindowNamesTheMissing(t *testing.T) {
	dataDir := t.TempDir()
	roster := writeRoster(t, map[string]any{"name": "bob", "strategy": "random"}, map[string]any{"name": "dan", "strategy": "counter"},
		map[string]any{"name": "carol", "external": true})
	run := startLeaguetui(t, dataDir, nil, append([]string{"--no-ui", "--data", dataDir, "--seed", "2", "--roster", roster,
		"--open-seats", "1", "--join-window", "2s"}, fast...)...)
	run.wait(t)
	for _, want := range []string{"waiting for at most 2s for carol and 1 open seat; register at http://127.0.0.1:",
		"the join window (2s) has passed; starting without carol and 1 open seat"} {
		if !strings.Contains(run.Stderr(), want) {
			t.Errorf("stderr lacks %q:\n%s", want, run.Stderr())
		}
	}
	if rows := rowsByName(readStandings(t, dataDir)); len(rows) != 2 || rows["bob"].PlayerID != "P01" || rows["dan"].PlayerID != "P02" {
		t.Errorf("standings %v, want bob (P01) and dan (P02) only", rows)
	}
}

// TestBadRosterIsRefusedBeforeAnythingStarts: a roster with a mistake
// exits 2 with one line naming the entry and the field, and starts
// nothing.
func TestBadRosterIsRefusedBeforeAnythingStarts(t *testing.T) {
	dataDir := t.TempDir()
	roster := writeRoster(t, map[string]any{"name": "bob", "strategy": "random"},
		map[string]any{"name": "alice", "command": []string{"python3", "alice.py", "--port", "{prot}"}})
	out := leaguetest.RunLeaguetui(t, dataDir, 30*time.Second, nil, "--no-ui", "--data", dataDir, "--roster", roster, "--free-ports")
	var exit *exec.ExitError
	if !errors.As(out.Err, &exit) || exit.ExitCode() != 2 {
		t.Fatalf("exit: %v, want status 2", out.Err)
	}
	line := strings.TrimSpace(out.Stderr)
	if strings.Contains(line, "\n") || !strings.Contains(line, `players[1] "alice": command:`) || !strings.Contains(line, "{prot}") {
		t.Errorf("stderr %q, want one line naming alice's command and {prot}", line)
	}
	if _, err := os.Stat(filepath.Join(dataDir, "logs")); err == nil {
		t.Errorf("the bad roster started something: %s/logs exists", dataDir)
	}
}

// checkJoiningGuide checks docs/joining.md against what a player received
// in a real league: every method and message type on the wire is in the
// guide's table of what a player receives.
func checkJoiningGuide(t *testing.T, wireLog string) {
	t.Helper()
	guide, err := os.ReadFile(filepath.Join("..", "..", "docs", "joining.md"))
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(wireLog)
	if err != nil {
		t.Fatal(err)
	}
	seen := 0
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		var exchange struct {
			Request struct {
				Method string `json:"method"`
				Params struct {
					MessageType string `json:"message_type"`
				} `json:"params"`
			} `json:"request"`
		}
		if err := json.Unmarshal([]byte(line), &exchange); err != nil {
			t.Fatalf("%s: %v", wireLog, err)
		}
		req := exchange.Request
		if req.Method == "register_player" {
			continue // ours to send, not received
		}
		row := fmt.Sprintf("| `%s` | `%s`", req.Method, req.Params.MessageType)
		if !strings.Contains(string(guide), row) {
			t.Errorf("docs/joining.md has no row %q for what the player received", row)
		}
		seen++
	}
	if seen == 0 {
		t.Errorf("%s logged nothing the player received", wireLog)
	}
}

// TestRosterRefereeProgram: a referee in the roster may be a program too;
// leaguetui gives it the league's referee key in its environment, and it
// referees the whole league.
func TestRosterRefereeProgram(t *testing.T) {
	dataDir := t.TempDir()
	umpire := map[string]any{"name": "umpire", "command": []string{leaguetest.Binary(t), "referee", "--port", "{port}",
		"--manager", "{manager}", "--name", "{name}", "--data", "{data}"}}
	data, err := json.Marshal(map[string]any{"players": []map[string]any{{"name": "bob", "strategy": "random"},
		{"name": "dan", "strategy": "counter"}, {"name": "eve", "strategy": "adaptive"}}, "referees": []map[string]any{umpire}})
	if err != nil {
		t.Fatal(err)
	}
	roster := filepath.Join(t.TempDir(), "roster.json")
	if err := os.WriteFile(roster, data, 0o644); err != nil {
		t.Fatal(err)
	}
	run := startLeaguetui(t, dataDir, nil, append([]string{"--no-ui", "--data", dataDir, "--seed", "9", "--roster", roster}, fast...)...)
	run.wait(t)
	if !strings.Contains(run.Stderr(), "joined: umpire (REF01)") {
		t.Errorf("stderr does not say the umpire joined as REF01:\n%s", run.Stderr())
	}
	for name, r := range rowsByName(readStandings(t, dataDir)) {
		if r.Played != 2 || r.TechnicalLosses != 0 {
			t.Errorf("%s: played %d, technical losses %d; want 2 and 0", name, r.Played, r.TechnicalLosses)
		}
	}
}

// TestExternalNameWithSpaces: an external roster entry may reserve a
// display name with a space, as two other implementations name their
// players ("Player P05"): the player that registers with it gets the id
// the roster keeps and plays.
func TestExternalNameWithSpaces(t *testing.T) {
	dataDir := t.TempDir()
	roster := writeRoster(t, map[string]any{"name": "bob", "strategy": "random"},
		map[string]any{"name": "Player P05", "external": true})
	run := startLeaguetui(t, dataDir, nil, append([]string{"--no-ui", "--data", dataDir, "--seed", "3", "--roster", roster}, fast...)...)
	// Another implementation's player (leaguetui's own names its files after --name, which keeps it to file-safe names).
	leaguetest.StartExternalBadPlayer(t, dataDir, run.managerURL(t), "Player P05", "request_reply")
	run.wait(t)
	row, ok := rowsByName(readStandings(t, dataDir))["Player P05"]
	if !ok || row.PlayerID != "P02" || row.Played != 1 || row.TechnicalLosses != 0 {
		t.Errorf("Player P05: %+v (found %v), want P02, one match played, no technical loss", row, ok)
	}
}

// TestManagerPortFlag: --manager-port puts the manager of a --no-ui league
// on that port, so that outside players know the URL to register at
// without a config folder. The referee's and player's ports come from a
// config folder of free ports, so that the league needs no fixed port.
func TestManagerPortFlag(t *testing.T) {
	var ports [3]int
	for i := range 2 {
		p, err := process.FreePort("127.0.0.1")
		if err != nil {
			t.Fatal(err)
		}
		ports[i] = p
	}
	ports[2] = twoFreePorts(t) // the roster's two players count against the range; bob alone listens
	configDir := t.TempDir()
	system := fmt.Sprintf(`{"network": {"default_referee_port_range": [%d, %d], "default_player_port_range": [%d, %d]}}`,
		ports[1], ports[1], ports[2], ports[2]+1)
	if err := os.WriteFile(filepath.Join(configDir, "system.json"), []byte(system), 0o644); err != nil {
		t.Fatal(err)
	}
	dataDir := t.TempDir()
	roster := writeRoster(t, map[string]any{"name": "bob", "strategy": "random"}, map[string]any{"name": "carol", "external": true})
	run := startLeaguetui(t, dataDir, nil, "--no-ui", "--data", dataDir, "--seed", "3", "--roster", roster, "--referees", "1",
		"--config", configDir, "--manager-port", strconv.Itoa(ports[0]), "--move-timeout", "3s", "--retry-delay", "100ms")
	want := fmt.Sprintf("http://127.0.0.1:%d/mcp", ports[0])
	if got := run.managerURL(t); got != want {
		t.Fatalf("leaguetui says to register at %s, want %s", got, want)
	}
	leaguetest.StartExternalBadPlayer(t, dataDir, want, "carol", "request_reply")
	run.wait(t)
	if row := rowsByName(readStandings(t, dataDir))["carol"]; row.PlayerID != "P02" || row.Played != 1 {
		t.Errorf("carol: %+v, want P02 with one match played", row)
	}
}

// twoFreePorts is a port p such that p and p+1 are both free now.
func twoFreePorts(t *testing.T) int {
	for range 100 {
		p, err := process.FreePort("127.0.0.1")
		if err != nil {
			t.Fatal(err)
		}
		if l, err := net.Listen("tcp", net.JoinHostPort("127.0.0.1", strconv.Itoa(p+1))); err == nil {
			l.Close()
			return p
		}
	}
	t.Fatal("no two free ports in a row")
	return 0
}
