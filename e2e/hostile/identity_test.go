package hostile_test

import (
	"context"
	"net/http"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/leaguetui/leaguetui/agents/protocol"
	"github.com/leaguetui/leaguetui/engine"
	"github.com/leaguetui/leaguetui/internal/leaguetest"
	"github.com/leaguetui/leaguetui/league/control"
	"github.com/leaguetui/leaguetui/league/process"
)

const adminToken = "adm-hostile-test"

// league is a real league waiting to start: a manager, one referee and two
// players, each its own process.
type league struct {
	dir      string
	manager  *process.Child
	referees []*process.Child
	players  []*process.Child
	ctl      *control.Client
}

func startLeague(t *testing.T) *league {
	t.Helper()
	l := &league{dir: t.TempDir()}
	l.manager = leaguetest.StartManager(t, l.dir, adminToken, "--seed", "21", "--retry-delay", "50ms")
	l.ctl = control.New(l.manager.Endpoint, adminToken)
	l.referees = append(l.referees, leaguetest.StartReferee(t, l.dir, l.manager.Endpoint, "REF01"))
	for _, name := range []string{"P01", "P02"} {
		l.players = append(l.players, leaguetest.StartPlayer(t, l.dir, l.manager.Endpoint, name))
	}
	return l
}

// state is what an attack must leave as it was: every data file, the
// standings, and the feed.
type state struct {
	files     snapshot
	standings protocol.StandingsFile
	lastSeq   int64
}

func (l *league) state(t *testing.T) state {
	t.Helper()
	ctx := context.Background()
	standings, err := l.ctl.Standings(ctx)
	if err != nil {
		t.Fatal(err)
	}
	standings.LastUpdated = ""
	page, err := l.ctl.Events(ctx, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	return state{files: takeSnapshot(t, l.dir), standings: standings, lastSeq: page.LastSeq}
}

// unchanged fails the test if the attack changed the league.
func (before state) unchanged(t *testing.T, l *league) {
	t.Helper()
	after := l.state(t)
	before.files.unchanged(t, l.dir)
	if !reflect.DeepEqual(before.standings, after.standings) {
		t.Errorf("standings changed:\nbefore %+v\nafter  %+v", before.standings, after.standings)
	}
	if before.lastSeq != after.lastSeq {
		t.Errorf("the feed went from sequence %d to %d", before.lastSeq, after.lastSeq)
	}
}

// playsToTheEnd starts the league and requires it to complete with no
// technical loss: the attacks took nobody's place.
func (l *league) playsToTheEnd(t *testing.T) {
	t.Helper()
	if err := l.ctl.Start(context.Background()); err != nil {
		t.Fatalf("start: %v", err)
	}
	events, _ := leaguetest.NextEvents(t, l.ctl, 0, 2*time.Minute, engine.EventLeagueCompleted, engine.EventStopped)
	results := 0
	for _, ev := range events {
		if ev.Kind == engine.EventMatchResult {
			results++
			if ev.Result.Status == engine.StatusTechnicalLoss {
				t.Errorf("match %s was a technical loss: %+v", ev.MatchID, ev.Result)
			}
		}
	}
	if last := events[len(events)-1]; last.Kind != engine.EventLeagueCompleted || results != 1 {
		t.Errorf("the league ended with %s after %d results, want league_completed after 1", last.Kind, results)
	}
	l.settled(t)
}

// settled waits until the agents have written what they had to: the data
// folder is the same twice in a row, 600 ms apart (longer than a player
// waits between two writes of its history.json).
func (l *league) settled(t *testing.T) {
	t.Helper()
	last := takeSnapshot(t, l.dir)
	for range 50 {
		time.Sleep(600 * time.Millisecond) // the files have no event to wait on
		now := takeSnapshot(t, l.dir)
		if reflect.DeepEqual(now, last) {
			return
		}
		last = now
	}
	t.Fatal("the data folder kept changing for 30 s")
}

// playerRegistration is a register_player request; meta overrides fields
// of player_meta.
func playerRegistration(endpoint string, meta map[string]any) map[string]any {
	m := leaguetest.With(map[string]any{"display_name": "intruder", "version": "1.0.0",
		"game_types": []string{"even_odd"}, "contact_endpoint": endpoint}, meta)
	return leaguetest.With(leaguetest.Envelope("LEAGUE_REGISTER_REQUEST", "player:intruder"), map[string]any{"player_meta": m})
}

// TestIdentityAttacks: registrations that would take another agent's
// place, or put a name in the standings that is not one, are refused with
// a league error and change nothing; the league then plays normally.
func TestIdentityAttacks(t *testing.T) {
	t.Parallel()
	l := startLeague(t)
	p01 := l.players[0]
	url := l.manager.Endpoint

	// One endpoint is one agent however it is spelt: the port is compared
	// as the number it is, so leading zeros name the same socket.
	t.Run("impersonation at P01's endpoint in other spellings", func(t *testing.T) {
		before := l.state(t)
		port := p01.Endpoint[strings.LastIndex(p01.Endpoint, ":")+1 : strings.LastIndex(p01.Endpoint, "/")]
		for _, spelling := range []string{p01.Endpoint, p01.Endpoint + "/", "http://localhost:" + port + "/mcp",
			"HTTP://LOCALHOST:" + port + "/mcp/", "http://127.0.0.1:" + port + "//mcp/",
			"http://127.0.0.1:0" + port + "/mcp", "http://LocalHost:000" + port + "/mcp/"} {
			reply := leaguetest.Call(t, url, "register_player", playerRegistration(spelling, nil))
			if reply.String("status") != "REJECTED" || reply.String("auth_token") != "" ||
				!strings.Contains(reply.String("reason"), "P01") {
				t.Errorf("registration at %s: %s; want REJECTED naming P01, without a token", spelling, reply.Body)
			}
		}
		before.unchanged(t, l)
	})

	t.Run("names that are taken, too long or not printable", func(t *testing.T) {
		before := l.state(t)
		// A name another agent has, or another's id, is a refused
		// registration (REJECTED, no error code: nothing is missing); a
		// name no agent may have is an invalid field (E003).
		taken := []string{"P01", "p01", "REF01"}
		for i, name := range append(taken, strings.Repeat("n", 65), strings.Repeat("n", 1<<19),
			"\x1b[2J\x1b[H", "\x1b]0;pwned\x07", "P05\nFAKE: P01 disqualified", "evil\u202etxt", "\u009b31m", " P05", "P05\t") {
			endpoint := plainPeer(t).Endpoint
			reply := leaguetest.Call(t, url, "register_player", playerRegistration(endpoint, map[string]any{"display_name": name}))
			if i < len(taken) {
				wantRefusal(t, reply, "", "is taken by")
			} else {
				wantRefusal(t, reply, "E003", "display_name")
			}
			if strings.Contains(string(reply.Body), "\\u001b") || len(reply.Body) > 4096 {
				t.Errorf("name %d: the refusal echoes the name raw or whole (%d bytes)", i, len(reply.Body))
			}
		}
		before.unchanged(t, l)
	})

	l.playsToTheEnd(t)
}

// TestReplayedRegistration: the very request that registered an agent,
// sent again (same endpoint, same conversation), as an attacker who saw it
// would, is refused without a token, and the token it first issued stays
// the agent's.
func TestReplayedRegistration(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	mgr := leaguetest.StartManager(t, dir, adminToken)
	l := &league{dir: dir, manager: mgr, ctl: control.New(mgr.Endpoint, adminToken)}
	req := playerRegistration(plainPeer(t).Endpoint, map[string]any{"display_name": "P03"})
	first := leaguetest.Call(t, mgr.Endpoint, "register_player", req)
	id, token := first.String("player_id"), first.String("auth_token")
	if first.String("status") != "ACCEPTED" || token == "" {
		t.Fatalf("first registration: %s", first.Body)
	}
	before := l.state(t)
	for range 3 {
		reply := leaguetest.Call(t, mgr.Endpoint, "register_player", req)
		if reply.String("status") != "REJECTED" || reply.String("auth_token") != "" {
			t.Errorf("replay: %s; want REJECTED without a token", reply.Body)
		}
	}
	before.unchanged(t, l)
	query := leaguetest.With(leaguetest.Envelope("LEAGUE_QUERY", "player:"+id),
		map[string]any{"auth_token": token, "query_type": "GET_STATUS", "league_id": leagueID})
	if reply := leaguetest.Call(t, mgr.Endpoint, "league_query", query); reply.Result["success"] != true {
		t.Errorf("%s's token no longer works after the replays: %s", id, reply.Body)
	}
}

// plainPeer is an agent that speaks league JSON-RPC only and acknowledges
// whatever it is sent.
func plainPeer(t *testing.T) *leaguetest.Peer {
	return leaguetest.NewPeer(t, func(r leaguetest.PeerRequest) (int, []byte) {
		if r.Method == "initialize" || strings.HasPrefix(r.Method, "tools/") {
			return http.StatusOK, leaguetest.ErrorReply(r.ID, -32601, "Method not found")
		}
		return http.StatusOK, leaguetest.ResultReply(r.ID, map[string]any{"status": "ok"})
	})
}
