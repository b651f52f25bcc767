// Package seats runs leagues with MCP-client seats (--mcp-seats) end to
// end: leaguetui --no-ui as a real process, its seat host among its
// children, and MCP clients of the official Go SDK taking the seats from
// DATA/seats.json and playing through the four tools.
package seats

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/leaguetui/leaguetui/agents/protocol"
	"github.com/leaguetui/leaguetui/agents/store"
	"github.com/leaguetui/leaguetui/engine"
	"github.com/leaguetui/leaguetui/internal/leaguetest"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func TestMain(m *testing.M) { leaguetest.Main(m) }

const (
	leagueID   = "league_2025_even_odd"
	runTimeout = 3 * time.Minute
)

// league is leaguetui --no-ui running, its stderr read line by line.
type league struct {
	*leaguetest.Live
	dataDir string
}

// startLeague runs leaguetui --no-ui on a new data folder with args.
func startLeague(t *testing.T, args ...string) *league {
	t.Helper()
	return startLeagueIn(t, t.TempDir(), args...)
}

// startLeagueIn runs leaguetui --no-ui on dataDir with args.
func startLeagueIn(t *testing.T, dataDir string, args ...string) *league {
	t.Helper()
	return &league{dataDir: dataDir,
		Live: leaguetest.StartLive(t, "", dataDir, nil, append([]string{"--no-ui", "--free-ports", "--data", dataDir}, args...)...)}
}

// seats waits for the league to say where its seats are, and reads them.
func (l *league) seats(t *testing.T) store.SeatsFile {
	t.Helper()
	line := l.AwaitLine(t, "MCP-client seats at ", 60*time.Second)
	path := store.Layout{Root: l.dataDir}.Seats()
	if !strings.Contains(line, path) {
		t.Errorf("the line names no %s: %s", path, line)
	}
	info, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if perm := info.Mode().Perm(); perm != 0o600 {
		t.Errorf("seats.json has mode %o, want 600 (the organiser's alone)", perm)
	}
	seats, err := store.LoadSeats(path)
	if err != nil {
		t.Fatal(err)
	}
	if seats.MCPURL == "" || !strings.Contains(line, seats.MCPURL) {
		t.Errorf("seats.json's mcp_url %q is not the one printed: %s", seats.MCPURL, line)
	}
	return seats
}

// wait waits for leaguetui to exit with status 0 and reads the standings.
func (l *league) wait(t *testing.T) protocol.StandingsFile {
	t.Helper()
	select {
	case err := <-l.Exited():
		if err != nil {
			t.Fatalf("leaguetui: %v (want exit status 0)\nstderr:\n%s", err, l.Stderr())
		}
	case <-time.After(runTimeout):
		t.Fatalf("leaguetui did not finish within %s\nstderr:\n%s", runTimeout, l.Stderr())
	}
	layout := store.Layout{Root: l.dataDir, LeagueID: leagueID}
	host, _ := layout.ProcessOutput("seats")
	leaguetest.CheckNoDataRace(t, host) // the seat host: its HTTP server, its seats' players and their clients' calls
	var s protocol.StandingsFile
	leaguetest.ReadJSON(t, layout.Standings(), &s)
	return s
}

// client is one MCP session of the Go SDK with the seat host.
type client struct {
	session *mcp.ClientSession
}

func connect(ctx context.Context, t *testing.T, url string) *client {
	t.Helper()
	c := mcp.NewClient(&mcp.Implementation{Name: "seats-e2e", Version: "1"}, nil)
	session, err := c.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: url}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = session.Close() })
	return &client{session: session}
}

// errTool is a tool's answer with isError set: the text says why.
type errTool struct{ text string }

func (e errTool) Error() string { return e.text }

// call calls a tool and reads its structured content into out, checking
// that the text content is the same JSON.
func (c *client) call(ctx context.Context, tool string, args map[string]any, out any) error {
	res, err := c.session.CallTool(ctx, &mcp.CallToolParams{Name: tool, Arguments: args})
	if err != nil {
		return err
	}
	text := ""
	if len(res.Content) > 0 {
		if tc, ok := res.Content[0].(*mcp.TextContent); ok {
			text = tc.Text
		}
	}
	if res.IsError {
		return errTool{text}
	}
	structured, err := json.Marshal(res.StructuredContent)
	if err != nil {
		return err
	}
	if !jsonEqual(structured, []byte(text)) {
		return fmt.Errorf("%s: structured content %s and text %s differ", tool, structured, text)
	}
	return json.Unmarshal(structured, out)
}

func jsonEqual(a, b []byte) bool {
	var x, y any
	if json.Unmarshal(a, &x) != nil || json.Unmarshal(b, &y) != nil {
		return false
	}
	ax, _ := json.Marshal(x)
	by, _ := json.Marshal(y)
	return string(ax) == string(by)
}

// turn is wait_for_turn's answer, as a client reads it.
type turn struct {
	State    string         `json:"state"`
	MatchID  string         `json:"match_id"`
	GameType string         `json:"game_type"`
	MoveType string         `json:"move_type"`
	Legal    []string       `json:"legal"`
	Deadline string         `json:"deadline"`
	Sees     map[string]any `json:"observation"`
}

// takeSeat takes the seat of code and returns the player id it plays as.
func (c *client) takeSeat(ctx context.Context, t *testing.T, code string) string {
	t.Helper()
	var out struct {
		Seat     string `json:"seat"`
		PlayerID string `json:"player_id"`
	}
	if err := c.call(ctx, "take_seat", map[string]any{"join_code": code}, &out); err != nil {
		t.Fatalf("take_seat: %v", err)
	}
	if out.PlayerID == "" {
		t.Fatalf("take_seat gave no player id: %+v", out)
	}
	return out.PlayerID
}

// play loops wait_for_turn and submit_move (the first legal move) until
// the league is completed, or until it has given stopAfter moves (0: no
// bound), and returns how many it gave.
func (c *client) play(ctx context.Context, stopAfter int) (int, error) {
	moves := 0
	for ctx.Err() == nil {
		var next turn
		if err := c.call(ctx, "wait_for_turn", map[string]any{"timeout_seconds": 5}, &next); err != nil {
			return moves, fmt.Errorf("wait_for_turn: %w", err)
		}
		switch next.State {
		case "league_completed":
			return moves, nil
		case "waiting":
			continue
		case "your_turn":
		default:
			return moves, fmt.Errorf("wait_for_turn: state %q", next.State)
		}
		if next.MatchID == "" || next.Deadline == "" || len(next.Legal) == 0 {
			return moves, fmt.Errorf("a turn without match_id, deadline or legal moves: %+v", next)
		}
		var accepted struct {
			Accepted bool `json:"accepted"`
		}
		if err := c.call(ctx, "submit_move", map[string]any{"match_id": next.MatchID, "move": next.Legal[0]}, &accepted); err != nil {
			return moves, fmt.Errorf("submit_move: %w", err)
		}
		if !accepted.Accepted {
			return moves, errors.New("submit_move did not accept a legal move")
		}
		if moves++; moves == stopAfter {
			return moves, nil
		}
	}
	return moves, ctx.Err()
}

// TestGoClientsPlayThroughSeatsAndOneComesBack plays a whole even/odd
// league of two built-in players and two MCP-client seats. The second
// seat's client disconnects after its first move while the league plays
// on; a new session takes the seat again with its code and keeps the same
// player. A session that another took the seat from holds it no more
// (until it takes it again with the code). No match ends in a technical
// loss.
func TestGoClientsPlayThroughSeatsAndOneComesBack(t *testing.T) {
	if testing.Short() {
		t.Skip("runs a league of real processes")
	}
	l := startLeague(t, "--players", "2", "--mcp-seats", "2", "--referees", "1", "--seed", "3")
	seats := l.seats(t)
	ctx, cancel := context.WithTimeout(context.Background(), runTimeout)
	defer cancel()
	if len(seats.Seats) != 2 || seats.Seats[0].Name != "seat-1" || seats.Seats[1].Name != "seat-2" {
		t.Fatalf("seats.json lists %+v, want seat-1 and seat-2", seats.Seats)
	}
	first := connect(ctx, t, seats.MCPURL)
	var refused errTool
	if err := first.call(ctx, "take_seat", map[string]any{"join_code": "join-wrong"}, &struct{}{}); !errors.As(err, &refused) {
		t.Fatalf("a wrong code: %v, want the tool's error", err)
	}
	first.takeSeat(ctx, t, seats.Seats[0].JoinCode)
	played := make(chan error, 1)
	go func() { _, err := first.play(ctx, 0); played <- err }()

	leaving := connect(ctx, t, seats.MCPURL)
	id := leaving.takeSeat(ctx, t, seats.Seats[1].JoinCode)
	if n, err := leaving.play(ctx, 1); err != nil || n != 1 {
		t.Fatalf("the leaving client gave %d moves: %v", n, err)
	}
	if err := leaving.session.Close(); err != nil {
		t.Fatal(err)
	}
	back := connect(ctx, t, seats.MCPURL)
	if again := back.takeSeat(ctx, t, seats.Seats[1].JoinCode); again != id {
		t.Errorf("the seat came back as %s, want %s (the same player)", again, id)
	}
	connect(ctx, t, seats.MCPURL).takeSeat(ctx, t, seats.Seats[1].JoinCode)
	if err := back.call(ctx, "wait_for_turn", map[string]any{"timeout_seconds": 1}, &turn{}); !errors.As(err, &refused) {
		t.Errorf("a session the seat was taken from still holds it: %v", err)
	}
	back.takeSeat(ctx, t, seats.Seats[1].JoinCode)
	var table struct {
		Standings []struct {
			PlayerID string `json:"player_id"`
		} `json:"standings"`
	}
	if err := back.call(ctx, "get_standings", nil, &table); err != nil || len(table.Standings) != 4 {
		t.Errorf("get_standings: %v, %d rows", err, len(table.Standings))
	}
	if _, err := back.play(ctx, 0); err != nil {
		t.Fatalf("the client that came back: %v", err)
	}
	if err := <-played; err != nil {
		t.Fatalf("seat-1's client: %v", err)
	}
	standings := l.wait(t)
	if standings.State != engine.LeagueCompleted || len(standings.Standings) != 4 {
		t.Fatalf("league %s with %d players, want completed with 4", standings.State, len(standings.Standings))
	}
	for _, row := range standings.Standings {
		if row.TechnicalLosses != 0 || row.Played == 0 {
			t.Errorf("%s (%s): %d played, %d technical losses", row.DisplayName, row.PlayerID, row.Played, row.TechnicalLosses)
		}
	}
}

// TestSilentSeatLosesOnTime takes a seat and never answers a move: every
// match of the seat is a technical loss, scored by the referee as for any
// player that does not answer, and the league completes.
func TestSilentSeatLosesOnTime(t *testing.T) {
	if testing.Short() {
		t.Skip("runs a league of real processes")
	}
	l := startLeague(t, "--players", "2", "--mcp-seats", "1", "--referees", "1", "--seed", "5",
		"--move-timeout", "1s", "--join-timeout", "3s", "--retry-delay", "50ms", "--attempts", "2")
	seats := l.seats(t)
	ctx, cancel := context.WithTimeout(context.Background(), runTimeout)
	defer cancel()
	silent := connect(ctx, t, seats.MCPURL)
	silent.takeSeat(ctx, t, seats.Seats[0].JoinCode)
	standings := l.wait(t)
	if standings.State != engine.LeagueCompleted {
		t.Fatalf("league %s, want completed", standings.State)
	}
	for _, row := range standings.Standings {
		seat := row.DisplayName == "seat-1"
		switch {
		case seat && (row.Played == 0 || row.TechnicalLosses != row.Played):
			t.Errorf("the silent seat: %d played, %d technical losses (want all)", row.Played, row.TechnicalLosses)
		case !seat && row.TechnicalLosses != 0:
			t.Errorf("%s: %d technical losses", row.DisplayName, row.TechnicalLosses)
		}
	}
}

// TestSeatSurvivesKillAndResume kills leaguetui (SIGKILL) after the
// seat's first move, and runs it again on the same data folder: the new
// seat host brings the seat's player back as itself, the client takes the
// seat again with the same code at the new URL, and the league completes
// with the seat as the same player and no technical loss.
func TestSeatSurvivesKillAndResume(t *testing.T) {
	if testing.Short() {
		t.Skip("runs a league of real processes")
	}
	dataDir := t.TempDir()
	first := startLeagueIn(t, dataDir, "--players", "2", "--mcp-seats", "1", "--referees", "1", "--seed", "9")
	seats := first.seats(t)
	ctx, cancel := context.WithTimeout(context.Background(), runTimeout)
	defer cancel()
	before := connect(ctx, t, seats.MCPURL)
	id := before.takeSeat(ctx, t, seats.Seats[0].JoinCode)
	if n, err := before.play(ctx, 1); err != nil || n != 1 {
		t.Fatalf("before the kill: %d moves, %v", n, err)
	}
	if err := first.Cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	<-first.Exited()
	leaguetest.KillLeftovers(t, dataDir)

	resumed := startLeagueIn(t, dataDir)
	again := resumed.seats(t)
	if again.Seats[0].JoinCode != seats.Seats[0].JoinCode {
		t.Fatal("the resumed league gave the seat another join code")
	}
	after := connect(ctx, t, again.MCPURL)
	if got := after.takeSeat(ctx, t, again.Seats[0].JoinCode); got != id {
		t.Errorf("after the resume the seat is %s, want %s", got, id)
	}
	if n, err := after.play(ctx, 0); err != nil || n == 0 {
		t.Fatalf("after the resume: %d moves (want the rest of the seat's matches), %v", n, err)
	}
	standings := resumed.wait(t)
	if standings.State != engine.LeagueCompleted || len(standings.Standings) != 3 {
		t.Fatalf("league %s with %d players, want completed with 3", standings.State, len(standings.Standings))
	}
	for _, row := range standings.Standings {
		if row.TechnicalLosses != 0 || row.Played == 0 {
			t.Errorf("%s (%s): %d played, %d technical losses", row.DisplayName, row.PlayerID, row.Played, row.TechnicalLosses)
		}
	}
}
