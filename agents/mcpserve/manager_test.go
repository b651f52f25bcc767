package mcpserve_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/leaguetui/leaguetui/agents/protocol"
	"github.com/leaguetui/leaguetui/internal/leaguetest"
)

func playerMeta(name, endpoint string) map[string]any {
	return map[string]any{"player_meta": map[string]any{"display_name": name, "version": "1.0.0",
		"game_types": []string{"even_odd"}, "contact_endpoint": endpoint}}
}

func TestManagerServesTheLeagueAsMCPTools(t *testing.T) {
	m := startManager(t, t.TempDir())
	session := connect(t, m.Endpoint())
	if init := session.InitializeResult(); init.ServerInfo.Name != "leaguetui-league_manager" {
		t.Fatalf("initialize: server %+v", init.ServerInfo)
	}
	want := []string{"get_round_status", "get_schedule", "get_standings", "league_query", "pause_league",
		"register_player", "register_referee", "report_match_result", "report_match_step", "resume_league",
		"start_league", "stop_league"}
	if got := listTools(t, session); !slices.Equal(got, want) {
		t.Fatalf("tools %v, want %v", got, want)
	}
	called := map[string]bool{}
	use := func(name string) string { called[name] = true; return name }

	// Admin operations need the admin token: missing, wrong, then right
	// (too few players yet, so the start itself is refused).
	start := message(protocol.TypeStartLeague, "admin:test", nil)
	for _, name := range []string{"start_league", "pause_league", "resume_league", "stop_league"} {
		args := message(strings.ToUpper(name), "admin:test", nil)
		if reply := callFails(t, session, use(name), args); reply["error_code"] != protocol.CodeAuthTokenMissing {
			t.Errorf("%s without a token: %v", name, reply)
		}
	}
	if reply := callFails(t, session, "start_league", mergeArgs(start, map[string]any{"auth_token": "wrong"})); reply["error_code"] != protocol.CodeAuthTokenInvalid {
		t.Errorf("start_league with a wrong token: %v", reply)
	}
	if reply := callFails(t, session, "start_league", mergeArgs(start, map[string]any{"auth_token": adminToken})); !strings.Contains(reply["message"].(string), "need at least") {
		t.Errorf("start_league with the admin token: %v", reply)
	}

	ref := callOK(t, session, use("register_referee"), message(protocol.TypeRefereeRegisterRequest, "referee:alpha",
		map[string]any{"referee_meta": map[string]any{"display_name": "alpha", "version": "1.0.0",
			"game_types": []string{"even_odd"}, "contact_endpoint": plainPeer(t), "max_concurrent_matches": 2,
			"referee_key": leaguetest.RefereeKey, "match_tickets": true}}))
	if ref["status"] != protocol.StatusAccepted || ref["referee_id"] != "REF01" {
		t.Fatalf("register_referee: %v", ref)
	}
	// A peer that does not speak MCP at all is taken on trust.
	player := callOK(t, session, use("register_player"), message(protocol.TypeLeagueRegisterRequest, "player:plain",
		playerMeta("plain", plainPeer(t))))
	if player["status"] != protocol.StatusAccepted || player["player_id"] != "P01" {
		t.Fatalf("register_player of a plain JSON-RPC peer: %v", player)
	}
	callFails(t, session, "register_player", message(protocol.TypeLeagueRegisterRequest, "player:x", nil))

	query := message(protocol.TypeLeagueQuery, "player:P01", map[string]any{"query_type": protocol.QueryStandings})
	if reply := callFails(t, session, use("league_query"), query); reply["error_code"] != protocol.CodeAuthTokenMissing {
		t.Errorf("league_query without a token: %v", reply)
	}
	answer := callOK(t, session, "league_query", mergeArgs(query, map[string]any{"auth_token": player["auth_token"]}))
	if answer["message_type"] != protocol.TypeLeagueQueryResponse || answer["success"] != true {
		t.Errorf("league_query: %v", answer)
	}

	report := message(protocol.TypeMatchResultReport, "referee:REF01", map[string]any{"round_id": 1, "match_id": "R1M1",
		"game_type": "even_odd", "result": map[string]any{"winner": nil, "score": map[string]any{}}})
	if reply := callFails(t, session, use("report_match_result"), report); reply["error_code"] != protocol.CodeAuthTokenMissing {
		t.Errorf("report_match_result without a token: %v", reply)
	}
	step := message(protocol.TypeMatchStep, "referee:REF01", map[string]any{"match_id": "R1M1", "step": "invited",
		"auth_token": ref["auth_token"]})
	// The token is good; the match is simply not the referee's (no league yet).
	if reply := callFails(t, session, use("report_match_step"), step); !strings.Contains(reply["message"].(string), "not assigned") {
		t.Errorf("report_match_step: %v", reply)
	}

	standings := callOK(t, session, use("get_standings"), nil)
	if standings["league_id"] == nil || standings["state"] != "waiting" {
		t.Errorf("get_standings: %v", standings)
	}
	if schedule := callOK(t, session, use("get_schedule"), map[string]any{}); schedule["league_id"] == nil {
		t.Errorf("get_schedule: %v", schedule)
	}
	if status := callOK(t, session, use("get_round_status"), map[string]any{}); status["state"] != "waiting" {
		t.Errorf("get_round_status: %v", status)
	}
	callFails(t, session, "get_round_status", map[string]any{"round_id": "one"})
	callFails(t, session, "get_round_status", map[string]any{"round_id": 9})

	for _, name := range want {
		if !called[name] {
			t.Errorf("tool %s was not called", name)
		}
	}
	unknownTool(t, session)
}

// A player whose tools/list lacks a tool the referees call is told so when
// it registers, not in the middle of a match.
func TestRegistrationRejectsAPlayerMissingGameTools(t *testing.T) {
	m := startManager(t, t.TempDir())
	session := connect(t, m.Endpoint())
	partial := startMCPOnlyPlayer(t, protocol.TypeGameInvitation, protocol.TypeGameOver)
	reply := callOK(t, session, "register_player", message(protocol.TypeLeagueRegisterRequest, "player:partial",
		playerMeta("partial", partial.URL)))
	reason, _ := reply["reason"].(string)
	if reply["status"] != protocol.StatusRejected || !strings.Contains(reason, "choose_parity") {
		t.Fatalf("register_player of a player without choose_parity: %v", reply)
	}
	if strings.Contains(reason, "handle_game_invitation") || strings.Contains(reason, "notify_match_result") {
		t.Errorf("the reason names tools the player has: %s", reason)
	}

	// A player that registers by plain JSON-RPC is called by plain JSON-RPC:
	// its MCP tools are not asked for (asking every player cost each
	// registration an MCP exchange).
	plain := startMCPOnlyPlayer(t, protocol.TypeGameInvitation, protocol.TypeGameOver)
	reply = leaguetest.Call(t, m.Endpoint(), "register_player", message(protocol.TypeLeagueRegisterRequest, "player:plain",
		playerMeta("plain", plain.URL))).Result
	if reply["status"] != protocol.StatusAccepted {
		t.Errorf("register_player by plain JSON-RPC: %v, want it accepted without a tools/list", reply)
	}
	if methods := plain.receivedMethods(); len(methods) != 0 {
		t.Errorf("a player that registered by plain JSON-RPC was sent %v", methods)
	}

	complete := startMCPOnlyPlayer(t, gamePlayerTypes...)
	reply = callOK(t, session, "register_player", message(protocol.TypeLeagueRegisterRequest, "player:complete",
		playerMeta("complete", complete.URL)))
	if reply["status"] != protocol.StatusAccepted {
		t.Fatalf("register_player of a complete MCP player: %v", reply)
	}
}
