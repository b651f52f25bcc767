// Package linkrace_test plays the link race with real processes: a page
// server, a manager, referees reaching pages only through MCP, built-in
// racers and misbehaving ones, and checks the match files, the statuses and
// the seed's error taxonomy.
package linkrace_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/leaguetui/leaguetui/agents/protocol"
	"github.com/leaguetui/leaguetui/engine"
	"github.com/leaguetui/leaguetui/internal/leaguetest"
	"github.com/leaguetui/leaguetui/league/control"
	"github.com/leaguetui/leaguetui/league/process"
)

func TestMain(m *testing.M) { leaguetest.Main(m) }

const (
	leagueTimeout = 3 * time.Minute
	leagueID      = "league_2025_link_race" // config.LeagueIDFor: a league's id names its game
	adminToken    = "adm-linkrace-test-0123456789abcdef"
)

// raceResult is a link race's match file, the parts the tests read.
type raceResult = leaguetest.MatchFile[struct {
	leaguetest.MatchResult
	StartPage      string                 `json:"start_page"`
	TargetPage     string                 `json:"target_page"`
	PathA          []string               `json:"path_A"`
	PathB          []string               `json:"path_B"`
	StatusA        string                 `json:"status_A"`
	StatusB        string                 `json:"status_B"`
	StepsA         int                    `json:"steps_A"`
	StepsB         int                    `json:"steps_B"`
	PlayerStatuses map[string]string      `json:"player_statuses"`
	Errors         []leaguetest.GameError `json:"errors"`
}]

func readMatches(t *testing.T, dir string) []raceResult {
	t.Helper()
	return leaguetest.ReadMatchFiles[raceResult](t, dir, leagueID)
}

var statuses = []string{engine.RaceWon, engine.RaceLostMaxSteps, engine.RaceLostInvalidMove, engine.RaceError}

// checkRace checks one match file against the link race's rules.
func checkRace(t *testing.T, m raceResult) {
	t.Helper()
	r := m.Result
	if m.GameType != engine.LinkRaceType {
		t.Errorf("%s: game_type %q", m.MatchID, m.GameType)
	}
	for side, path := range map[string][]string{"A": r.PathA, "B": r.PathB} {
		if len(path) == 0 || path[0] != r.StartPage {
			t.Errorf("%s: path_%s %v does not start at %q", m.MatchID, side, path, r.StartPage)
		}
	}
	if !slices.Contains(statuses, r.StatusA) || !slices.Contains(statuses, r.StatusB) {
		t.Errorf("%s: statuses %q, %q", m.MatchID, r.StatusA, r.StatusB)
	}
	if r.PlayerStatuses[m.Players["player_A"]] != r.StatusA || r.PlayerStatuses[m.Players["player_B"]] != r.StatusB {
		t.Errorf("%s: player_statuses %v, want A %s and B %s", m.MatchID, r.PlayerStatuses, r.StatusA, r.StatusB)
	}
	if r.StatusA == engine.RaceWon && r.PathA[len(r.PathA)-1] != r.TargetPage {
		t.Errorf("%s: A won with path %v, target %q", m.MatchID, r.PathA, r.TargetPage)
	}
	wonA, wonB := r.StatusA == engine.RaceWon, r.StatusB == engine.RaceWon
	want := ""
	switch {
	case wonA && (!wonB || r.StepsA < r.StepsB):
		want = m.Players["player_A"]
	case wonB && (!wonA || r.StepsB < r.StepsA):
		want = m.Players["player_B"]
	}
	got := ""
	if r.Winner != nil {
		got = *r.Winner
	}
	if got != want {
		t.Errorf("%s: winner %q, want %q (A %s in %d, B %s in %d)", m.MatchID, got, want, r.StatusA, r.StepsA, r.StatusB, r.StepsB)
	}
	for _, e := range m.Transcript {
		if e.MessageType != "GAME_MOVE_CALL" {
			continue
		}
		req, _ := e.Content["move_request"].(map[string]any)
		state, _ := req["context"].(map[string]any)
		if req["move_type"] != engine.NavigateMove || state["current_page"] == nil || state["links"] == nil ||
			state["target_page"] != r.TargetPage || state["steps_left"] == nil {
			t.Errorf("%s: move request %v", m.MatchID, req)
		}
	}
}

// The league: six built-in racers, two referees, seed 7. Every
// match file holds both paths and statuses, the standings agree with them,
// and the same seed gives the same table and the same races.
func TestLinkRaceLeague(t *testing.T) {
	run := func() (string, string) {
		dir := t.TempDir()
		out := leaguetest.RunLeaguetui(t, dir, leagueTimeout, nil, leaguetest.Args("--no-ui", "--free-ports",
			"--game", "link_race", "--players", 6, "--referees", 2, "--seed", 7, "--data", dir)...)
		if out.Err != nil {
			t.Fatalf("league failed: %v\n%s", out.Err, out.Stderr)
		}
		return dir, out.Stdout
	}
	dir, table := run()
	matches := readMatches(t, dir)
	if len(matches) != 15 {
		t.Fatalf("%d match files, want 15", len(matches))
	}
	points, seen := map[string]int{}, map[string]bool{}
	for _, m := range matches {
		checkRace(t, m)
		for id, p := range m.Result.Score {
			points[id] += p
		}
		seen[m.Result.StatusA], seen[m.Result.StatusB] = true, true
	}
	if !seen[engine.RaceWon] || !seen[engine.RaceLostMaxSteps] {
		t.Errorf("statuses reached %v, want WON and LOST_MAX_STEPS among them", seen)
	}
	checkStandings(t, dir, points)
	again, table2 := run()
	if table2 != table {
		t.Errorf("the same seed gave another table:\n%s\nthen:\n%s", table, table2)
	}
	for i, m := range readMatches(t, again) {
		if !slices.Equal(m.Result.PathA, matches[i].Result.PathA) || !slices.Equal(m.Result.PathB, matches[i].Result.PathB) {
			t.Errorf("%s: the same seed raced other paths", m.MatchID)
		}
	}
}

func checkStandings(t *testing.T, dir string, points map[string]int) {
	t.Helper()
	var standings protocol.StandingsFile
	leaguetest.ReadJSON(t, filepath.Join(dir, "leagues", leagueID, "standings.json"), &standings)
	for _, row := range standings.Standings {
		if row.Points != points[row.PlayerID] {
			t.Errorf("%s: %d points in the standings, %d in the match files", row.PlayerID, row.Points, points[row.PlayerID])
		}
	}
}

// A graph where the race is always from S to "Target Page" and the page a
// greedy racer prefers ("Broken Page": it shares a word with the target)
// cannot be loaded.
const trapGraph = `{"title":"S","links":["Broken Page","Middle"],"summary":"the start"}
{"title":"Middle","links":["Target Page"]}
{"title":"Target Page","links":[]}
`

// Every error of the taxonomy a match can meet, and the statuses they lead
// to, with real processes: a greedy racer walks into a page the server
// cannot load (APP_NAVIGATION_ERROR, ERROR); misbehaving racers answer a
// page that is not a link (MODEL_INVALID_LINK), no page (MODEL_NO_TOOL_CALL)
// and another tool (MODEL_INVALID_TOOL), each LOST_INVALID_MOVE.
func TestLinkRaceErrors(t *testing.T) {
	dir := t.TempDir()
	graph := filepath.Join(dir, "graph.jsonl")
	if err := os.WriteFile(graph, []byte(trapGraph), 0o644); err != nil {
		t.Fatal(err)
	}
	game := []string{"--game", "link_race", "--move-timeout", "5s", "--retry-delay", "50ms"}
	matches := playRaces(t, dir, game, []string{"--pages", graph}, func(managerURL string) {
		leaguetest.StartPlayer(t, dir, managerURL, "greedy", append([]string{"--strategy", "greedy"}, game...)...)
		for _, mode := range []string{"wrong_link", "no_move", "wrong_tool"} {
			leaguetest.StartBadPlayer(t, dir, managerURL, mode, mode)
		}
	})
	if len(matches) != 6 {
		t.Fatalf("%d match files, want 6", len(matches))
	}
	errorTypes, seen := map[string]map[string]any{}, map[string]bool{}
	for _, m := range matches {
		checkRace(t, m)
		if m.Result.StartPage != "S" || m.Result.TargetPage != "Target Page" {
			t.Errorf("%s: race %q -> %q", m.MatchID, m.Result.StartPage, m.Result.TargetPage)
		}
		seen[m.Result.StatusA], seen[m.Result.StatusB] = true, true
		for _, e := range m.Result.Errors {
			errorTypes[e.ErrorType] = e.Metadata
		}
	}
	if !seen[engine.RaceError] || !seen[engine.RaceLostInvalidMove] {
		t.Errorf("statuses %v, want ERROR and LOST_INVALID_MOVE", seen)
	}
	for _, want := range []string{engine.ErrorNavigation, engine.ErrorInvalidLink, engine.ErrorNoToolCall, engine.ErrorInvalidTool} {
		if _, ok := errorTypes[want]; !ok {
			t.Errorf("no %s among the errors %v", want, errorTypes)
		}
	}
	link := errorTypes[engine.ErrorInvalidLink]
	call, _ := link["tool_call"].(map[string]any)
	if link["requested_page"] != "Nowhere At All" || link["current_page"] != "S" || link["is_target_page"] != false ||
		link["available_links_count"] != float64(2) || call["name"] != engine.NavigateMove {
		t.Errorf("MODEL_INVALID_LINK metadata %v", link)
	}
	nav := errorTypes[engine.ErrorNavigation]
	if nav["target_page"] != "Broken Page" || nav["navigation_capability"] != "navigate" || nav["nav_error"] == "" {
		t.Errorf("APP_NAVIGATION_ERROR metadata %v", nav)
	}
	if tool, _ := errorTypes[engine.ErrorInvalidTool]["tool_call"].(map[string]any); tool["name"] != "search_wikipedia" {
		t.Errorf("MODEL_INVALID_TOOL metadata %v", errorTypes[engine.ErrorInvalidTool])
	}
}

// A page server without navigation, or one that cannot list its pages to
// draw races from, fails the league's start with APP_CAPABILITY_ERROR and
// says what it has and what was wanted.
func TestPageServerWithoutTheCapabilitiesFailsTheStart(t *testing.T) {
	type args struct {
		Page  string `json:"page"`
		Query string `json:"query"`
	}
	for tool, want := range map[string]string{"search_wikipedia": "search_wikipedia", "navigate": "list_pages"} {
		t.Run(tool, func(t *testing.T) {
			server := mcp.NewServer(&mcp.Implementation{Name: "only-" + tool}, nil)
			mcp.AddTool(server, &mcp.Tool{Name: tool}, func(context.Context, *mcp.CallToolRequest, args) (*mcp.CallToolResult, any, error) {
				return nil, nil, fmt.Errorf("not called by a start that fails")
			})
			srv := httptest.NewServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return server },
				&mcp.StreamableHTTPOptions{Stateless: true, JSONResponse: true}))
			defer srv.Close()
			dir := t.TempDir()
			out := leaguetest.RunLeaguetui(t, dir, leagueTimeout, nil, "--no-ui", "--free-ports", "--game", "link_race",
				"--pages-url", srv.URL+"/mcp", "--players", "2", "--referees", "1", "--data", dir)
			if out.Err == nil || !strings.Contains(out.Stderr, engine.ErrorCapability) || !strings.Contains(out.Stderr, want) {
				t.Fatalf("league with a page server of %s only: err %v\n%s", tool, out.Err, out.Stderr)
			}
		})
	}
}

// A racer that never answers in time loses by technical loss and ends in
// ERROR (MODEL_GENERATION_ERROR), its path so far kept in the match file.
func TestLinkRaceTechnicalFailure(t *testing.T) {
	dir := t.TempDir()
	game := []string{"--game", "link_race", "--move-timeout", "1s", "--retry-delay", "50ms", "--attempts", "2"}
	var good, slow *process.Child
	matches := playRaces(t, dir, game, []string{"--seed", "3"}, func(managerURL string) {
		good = leaguetest.StartPlayer(t, dir, managerURL, "greedy", append([]string{"--strategy", "greedy"}, game...)...)
		slow = leaguetest.StartBadPlayer(t, dir, managerURL, "slow", "slow", "--delay", "3s")
	})
	if len(matches) != 1 {
		t.Fatalf("%d match files, want 1", len(matches))
	}
	r := matches[0].Result
	if r.Status != string(engine.StatusTechnicalLoss) || r.Winner == nil || *r.Winner != good.ID ||
		r.PlayerStatuses[slow.ID] != engine.RaceError {
		t.Errorf("result %+v, want a technical loss of %s in ERROR", r, slow.ID)
	}
	var generation bool
	for _, e := range r.Errors {
		generation = generation || e.ErrorType == engine.ErrorGeneration
	}
	if !generation {
		t.Errorf("errors %+v, want MODEL_GENERATION_ERROR", r.Errors)
	}
}

// playRaces plays a link-race league of real processes to its end: a page
// server started with pagesArgs, a manager and one referee with game's
// arguments, and the players addPlayers starts; it returns the match files.
func playRaces(t *testing.T, dir string, game, pagesArgs []string, addPlayers func(managerURL string)) []raceResult {
	t.Helper()
	pages := leaguetest.Start(t, "pages", filepath.Join(dir, "test-output"), false, nil,
		append(append([]string{"pages", "--port", "0"}, pagesArgs...), game...)...)
	mgr := leaguetest.StartManager(t, dir, adminToken, append([]string{"--seed", "5"}, game...)...)
	leaguetest.StartReferee(t, dir, mgr.Endpoint, "REF01", append([]string{"--pages-url", pages.Endpoint}, game...)...)
	addPlayers(mgr.Endpoint)
	ctl := control.New(mgr.Endpoint, adminToken)
	if err := ctl.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	leaguetest.UntilCompleted(t, ctl, 0, leagueTimeout)
	return readMatches(t, dir)
}
