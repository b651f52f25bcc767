package manager_test

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
)

func TestMain(m *testing.M) { leaguetest.Main(m) }

const adminToken = "adm-auth-test-0123456789abcdef"

// ackingPeer is a fake agent that acknowledges every league message and
// knows no MCP. startMatch, if not nil, receives the match id of each
// start_match it is sent; completed, if not nil, a value for LEAGUE_COMPLETED.
func ackingPeer(t *testing.T, startMatch chan<- string, completed chan<- struct{}) *leaguetest.Peer {
	return leaguetest.NewPeer(t, func(req leaguetest.PeerRequest) (int, []byte) {
		switch req.Method {
		case "notify_league_completed":
			if completed != nil {
				completed <- struct{}{}
			}
		case "initialize", "tools/list", "tools/call":
			return http.StatusOK, leaguetest.ErrorReply(req.ID, -32601, "Method not found")
		case "start_match":
			if startMatch != nil {
				id, _ := req.Params["match_id"].(string)
				startMatch <- id
			}
			return http.StatusOK, leaguetest.ResultReply(req.ID, map[string]any{"message_type": "START_MATCH_ACK", "status": "accepted"})
		}
		return http.StatusOK, leaguetest.ResultReply(req.ID, map[string]any{"status": "ok"})
	})
}

// agent is a registered fake agent.
type agent struct {
	id, token, sender string
}

// register registers a fake agent and requires it to be accepted.
func register(t *testing.T, managerURL, role, endpoint string) agent {
	t.Helper()
	reply := leaguetest.Call(t, managerURL, "register_"+role, registration(role, endpoint, nil))
	idKey := map[string]string{"player": "player_id", "referee": "referee_id"}[role]
	a := agent{id: reply.String(idKey), token: reply.String("auth_token")}
	if reply.String("status") != "ACCEPTED" || a.id == "" || a.token == "" {
		t.Fatalf("register_%s: %s, want ACCEPTED with an id and a token", role, reply.Body)
	}
	a.sender = role + ":" + a.id
	return a
}

// registration builds a registration request; meta overrides the meta fields.
func registration(role, endpoint string, meta map[string]any) map[string]any {
	messageType := map[string]string{"player": "LEAGUE_REGISTER_REQUEST", "referee": "REFEREE_REGISTER_REQUEST"}[role]
	m := leaguetest.With(map[string]any{"display_name": "fake " + role + " at " + endpoint, "version": "1.0.0", "game_types": []string{"even_odd"},
		"contact_endpoint": endpoint, "max_concurrent_matches": 1}, meta)
	if role == "referee" {
		m = leaguetest.With(map[string]any{"referee_key": leaguetest.RefereeKey, "match_tickets": true}, m)
	}
	return leaguetest.With(leaguetest.Envelope(messageType, role+":alpha"), map[string]any{role + "_meta": m})
}

// wantLeagueError requires a LEAGUE_ERROR result with the code.
func wantLeagueError(t *testing.T, reply leaguetest.Reply, code string) {
	t.Helper()
	if reply.Error != nil || reply.String("message_type") != "LEAGUE_ERROR" || reply.String("error_code") != code {
		t.Errorf("reply %s, want a LEAGUE_ERROR %s result", reply.Body, code)
	}
}

// comparable drops what changes with the clock alone.
func comparable(s protocol.StandingsFile) protocol.StandingsFile {
	s.LastUpdated = ""
	s.Version = 0 // the journal's: a notice of refused reports is an event, and changes no standing
	return s
}

// TestAuth runs a real manager process and tries every way of reporting a
// result, querying and administering that it must refuse.
func TestAuth(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	mgr := leaguetest.StartManager(t, dir, adminToken, "--seed", "11", "--retry-delay", "50ms")
	url := mgr.Endpoint
	ctl := control.New(url, adminToken)
	ctx := context.Background()
	standings := func() protocol.StandingsFile {
		t.Helper()
		s, err := ctl.Standings(ctx)
		if err != nil {
			t.Fatal(err)
		}
		return comparable(s)
	}

	// Registrations that must be refused, before any succeeds: a refused
	// one must not use up an id.
	t.Run("register protocol_version 1.0.0", func(t *testing.T) {
		p := ackingPeer(t, nil, nil)
		reply := leaguetest.Call(t, url, "register_player", registration("player", p.Endpoint, map[string]any{"protocol_version": "1.0.0"}))
		if reply.String("status") != "REJECTED" || reply.String("player_id") != "" || reply.String("auth_token") != "" {
			t.Errorf("reply %s, want REJECTED without id or token", reply.Body)
		}
		if reason := reply.String("reason"); !strings.Contains(reason, "E018") && !strings.Contains(reason, "PROTOCOL_VERSION") {
			t.Errorf("reason %q does not say the protocol version is too old", reason)
		}
	})
	t.Run("register with a non-UTC timestamp", func(t *testing.T) {
		p := ackingPeer(t, nil, nil)
		req := leaguetest.With(registration("player", p.Endpoint, nil), map[string]any{"timestamp": "2025-01-15T10:00:00+02:00"})
		wantLeagueError(t, leaguetest.Call(t, url, "register_player", req), "E021")
	})
	t.Run("register a referee with a non-UTC timestamp", func(t *testing.T) {
		p := ackingPeer(t, nil, nil)
		req := leaguetest.With(registration("referee", p.Endpoint, nil), map[string]any{"timestamp": "2025-01-15T10:00:00-05:00"})
		wantLeagueError(t, leaguetest.Call(t, url, "register_referee", req), "E021")
	})

	starts1, starts2 := make(chan string, 8), make(chan string, 8)
	leagueCompleted := make(chan struct{}, 8)
	ref1 := register(t, url, "referee", ackingPeer(t, starts1, leagueCompleted).Endpoint)
	ref2 := register(t, url, "referee", ackingPeer(t, starts2, leagueCompleted).Endpoint)
	p1 := register(t, url, "player", ackingPeer(t, nil, leagueCompleted).Endpoint)
	p2 := register(t, url, "player", ackingPeer(t, nil, leagueCompleted).Endpoint)
	if got := []string{ref1.id, ref2.id, p1.id, p2.id}; !reflect.DeepEqual(got, []string{"REF01", "REF02", "P01", "P02"}) {
		t.Fatalf("ids %v, want REF01 REF02 P01 P02 (refused registrations take no id)", got)
	}

	t.Run("admin start refused", func(t *testing.T) {
		before := standings()
		tests := []struct {
			name, token, code string
		}{
			{"without the admin token", "", "E011"},
			{"with a wrong admin token", "adm-wrong", "E012"},
			{"with a player's token", p1.token, "E012"},
			{"with the admin token plus a suffix", adminToken + "x", "E012"},
		}
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				req := leaguetest.With(leaguetest.Envelope("START_LEAGUE", "admin:console"), map[string]any{"auth_token": tt.token})
				if tt.token == "" {
					delete(req, "auth_token")
				}
				wantLeagueError(t, leaguetest.Call(t, url, "start_league", req), tt.code)
				if err := control.New(url, tt.token).Start(ctx); err == nil {
					t.Errorf("control Start %s succeeded", tt.name)
				}
			})
		}
		if after := standings(); after.State != engine.LeagueWaiting || !reflect.DeepEqual(before, after) {
			t.Errorf("refused starts changed the league: %+v -> %+v", before, after)
		}
	})

	if err := ctl.Start(ctx); err != nil {
		t.Fatalf("start with the admin token: %v", err)
	}
	if err := ctl.Start(ctx); err == nil {
		t.Errorf("a second start_league was accepted")
	}
	// Two players, one match, R1M1, given to the first referee.
	select {
	case id := <-starts1:
		if id != "R1M1" {
			t.Fatalf("REF01 was asked to run %q, want R1M1", id)
		}
	case id := <-starts2:
		t.Fatalf("REF02 was asked to run %s, want REF01 to run R1M1", id)
	case <-time.After(30 * time.Second):
		t.Fatal("no start_match reached REF01")
	}

	report := func(sender agent, token, matchID string) map[string]any {
		msg := leaguetest.With(leaguetest.Envelope("MATCH_RESULT_REPORT", sender.sender), map[string]any{
			"auth_token": token, "league_id": "league_2025_even_odd", "round_id": 1, "match_id": matchID, "game_type": "even_odd",
			"result": map[string]any{"winner": "P01", "score": map[string]int{"P01": 3, "P02": 0}, "status": "WIN",
				"details": map[string]any{"drawn_number": 8, "choices": map[string]string{"P01": "even", "P02": "odd"}}},
		})
		if token == "" {
			delete(msg, "auth_token")
		}
		return msg
	}
	unregisteredRef := agent{id: "REF09", sender: "referee:REF09"}
	unregisteredPlayer := agent{id: "P09", sender: "player:P09"}

	t.Run("reports refused", func(t *testing.T) {
		before := standings()
		if before.State != engine.LeagueRunning || before.MatchesDone != 0 {
			t.Fatalf("standings before the reports: %+v", before)
		}
		tests := []struct {
			name      string
			msg       map[string]any
			wantCode  string // LEAGUE_ERROR code, or
			wantError bool   // a JSON-RPC error
		}{
			{name: "a player reports with its own token", msg: report(p1, p1.token, "R1M1"), wantCode: "E013"},
			{name: "an unregistered referee", msg: report(unregisteredRef, ref1.token, "R1M1"), wantCode: "E013"},
			{name: "an unregistered player", msg: report(unregisteredPlayer, p1.token, "R1M1"), wantCode: "E013"},
			{name: "no token", msg: report(ref1, "", "R1M1"), wantCode: "E011"},
			{name: "REF01 with P01's token", msg: report(ref1, p1.token, "R1M1"), wantCode: "E012"},
			{name: "REF01 with REF02's token", msg: report(ref1, ref2.token, "R1M1"), wantCode: "E012"},
			{name: "REF01 with a made-up token", msg: report(ref1, "tok-"+strings.Repeat("0", 64), "R1M1"), wantCode: "E012"},
			{name: "non-UTC timestamp", msg: leaguetest.With(report(ref1, ref1.token, "R1M1"),
				map[string]any{"timestamp": "2025-01-15T10:00:00+02:00"}), wantCode: "E021"},
			{name: "a match not assigned to the referee", msg: report(ref2, ref2.token, "R1M1"), wantError: true},
			{name: "a match that does not exist", msg: report(ref1, ref1.token, "R7M1"), wantError: true},
			{name: "a winner who did not play", msg: leaguetest.With(report(ref1, ref1.token, "R1M1"),
				map[string]any{"result": map[string]any{"winner": "P09", "status": "WIN"}}), wantError: true},
		}
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				reply := leaguetest.Call(t, url, "report_match_result", tt.msg)
				if tt.wantError {
					if reply.Error == nil || reply.Result != nil {
						t.Errorf("reply %s, want a JSON-RPC error", reply.Body)
					}
				} else {
					wantLeagueError(t, reply, tt.wantCode)
				}
				if after := standings(); !reflect.DeepEqual(before, after) {
					t.Errorf("a refused report changed the standings:\nbefore %+v\nafter  %+v", before, after)
				}
			})
		}
	})

	// The refused reports are told on the feed, which the console and
	// --no-ui show, once: a flood of them is one notice an interval.
	t.Run("refused reports told once", func(t *testing.T) {
		for range 200 {
			if reply := leaguetest.Call(t, url, "report_match_result", report(ref1, "", "R1M1")); reply.String("error_code") != "E011" {
				t.Fatalf("a report without a token: %s, want E011", reply.Body)
			}
		}
		page, err := ctl.Events(ctx, 0, 0)
		if err != nil {
			t.Fatal(err)
		}
		var told []string
		for _, ev := range page.Events {
			if ev.Kind == engine.EventStalled && strings.Contains(ev.Detail, "result report") {
				told = append(told, ev.Detail)
			}
		}
		if len(told) != 1 || !strings.Contains(told[0], "a result report of R1M1 from player:P01 was refused: E013") ||
			!strings.Contains(told[0], "the match waits for a report the league can take") {
			t.Errorf("the feed told of refused reports %q, want once, the first: P01's, refused E013", told)
		}
	})

	t.Run("queries refused", func(t *testing.T) {
		query := func(sender, token string) map[string]any {
			msg := leaguetest.With(leaguetest.Envelope("LEAGUE_QUERY", sender), map[string]any{"auth_token": token, "query_type": "GET_STANDINGS"})
			if token == "" {
				delete(msg, "auth_token")
			}
			return msg
		}
		tests := []struct {
			name, sender, token, code string
		}{
			{"an unregistered player", unregisteredPlayer.sender, p1.token, "E005"},
			{"an unregistered referee", unregisteredRef.sender, ref1.token, "E013"},
			{"no token", p1.sender, "", "E011"},
			{"P01 with P02's token", p1.sender, p2.token, "E012"},
			{"P01 with REF01's token", p1.sender, ref1.token, "E012"},
		}
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				wantLeagueError(t, leaguetest.Call(t, url, "league_query", query(tt.sender, tt.token)), tt.code)
			})
		}
		reply := leaguetest.Call(t, url, "league_query", query(p1.sender, p1.token))
		if reply.String("message_type") != "LEAGUE_QUERY_RESPONSE" || reply.Result["success"] != true {
			t.Errorf("P01's own query: %s, want a LEAGUE_QUERY_RESPONSE", reply.Body)
		}
	})

	// The assigned referee reports: accepted once, refused the second time.
	reply := leaguetest.Call(t, url, "report_match_result", report(ref1, ref1.token, "R1M1"))
	if reply.Error != nil || reply.String("message_type") != "MATCH_RESULT_ACK" {
		t.Fatalf("REF01's report of R1M1: %s, want MATCH_RESULT_ACK", reply.Body)
	}
	leaguetest.NextEvents(t, ctl, 0, 30*time.Second, engine.EventLeagueCompleted)
	done := standings()
	if done.State != engine.LeagueCompleted || done.MatchesDone != 1 || len(done.Standings) != 2 ||
		done.Standings[0].PlayerID != "P01" || done.Standings[0].Points != 3 || done.Standings[1].Points != 0 {
		t.Fatalf("standings after the report: %+v, want P01 first with 3 points, completed", done)
	}
	// LEAGUE_COMPLETED goes to every player and referee.
	for i := range 4 {
		select {
		case <-leagueCompleted:
		case <-time.After(30 * time.Second):
			t.Fatalf("LEAGUE_COMPLETED reached %d of the 4 agents", i)
		}
	}
	t.Run("second report of the same match", func(t *testing.T) {
		again := report(ref1, ref1.token, "R1M1")
		again["result"] = map[string]any{"winner": "P02", "score": map[string]int{"P01": 0, "P02": 3}, "status": "WIN"}
		if reply := leaguetest.Call(t, url, "report_match_result", again); reply.Error == nil {
			t.Errorf("second report: %s, want a JSON-RPC error", reply.Body)
		}
		if after := standings(); !reflect.DeepEqual(done, after) {
			t.Errorf("a second report changed the standings:\nbefore %+v\nafter  %+v", done, after)
		}
	})
}
