package mcpserve_test

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/leaguetui/leaguetui/agents/protocol"
	"github.com/leaguetui/leaguetui/agents/rpc"
	"github.com/leaguetui/leaguetui/internal/leaguetest"
)

// playerCalls is a valid message for each player tool, as a referee or the
// manager sends it, and the reply's message type. The referee's messages
// carry REF01's ticket for P01's match R1M1 of the league in dataDir, the
// league's completion P01's manager_key.
func playerCalls(t *testing.T, dataDir string) map[string]struct {
	args  map[string]any
	reply string
} {
	ref := protocol.RefereeSender("REF01")
	match := map[string]any{"match_id": "R1M1", "round_id": 1, "league_id": "league_2025_even_odd",
		"auth_token": leaguetest.MatchTicket(t, dataDir, "league_2025_even_odd", "P01", "R1M1", "REF01")}
	with := func(fields map[string]any) map[string]any {
		for k, v := range match {
			fields[k] = v
		}
		return fields
	}
	return map[string]struct {
		args  map[string]any
		reply string
	}{
		"handle_game_invitation": {message(protocol.TypeGameInvitation, ref, with(map[string]any{
			"game_type": "even_odd", "role_in_match": "PLAYER_A", "opponent_id": "P02"})), protocol.TypeGameJoinAck},
		"choose_parity": {message(protocol.TypeChooseParityCall, ref, with(map[string]any{
			"player_id": "P01", "game_type": "even_odd", "deadline": "2030-01-01T00:00:00Z",
			"context": map[string]any{"opponent_id": "P02", "round_id": 1,
				"your_standings": map[string]any{"wins": 0, "losses": 0, "draws": 0}}})), protocol.TypeChooseParityResponse},
		"game_move_call": {message(protocol.TypeGameMoveCall, ref, with(map[string]any{
			"player_id": "P01", "game_type": "even_odd", "context": map[string]any{"opponent_id": "P02", "round_id": 1},
			"move_request": map[string]any{"move_type": "choose_parity", "valid_options": []string{"even", "odd"}}})),
			protocol.TypeChooseParityResponse},
		"notify_match_result": {message(protocol.TypeGameOver, ref, with(map[string]any{"game_type": "even_odd",
			"game_result": map[string]any{"status": "WIN", "winner_player_id": "P01",
				"choices": map[string]any{"P01": "even", "P02": "odd"}, "drawn_number": 4, "number_parity": "even"}})),
			"GAME_OVER_ACK"},
		"notify_game_error": {message(protocol.TypeGameError, ref, with(map[string]any{"error_code": "E001",
			"error_name": "TIMEOUT_ERROR", "player_id": "P01", "retryable": true})), "GAME_ERROR_ACK"},
		"notify_round": {message(protocol.TypeRoundAnnouncement, protocol.SenderManager, with(map[string]any{
			"matches": []any{map[string]any{"match_id": "R1M1", "game_type": "even_odd", "player_A_id": "P01",
				"player_B_id": "P02", "referee_endpoint": "http://127.0.0.1:1/mcp"}}})), "ROUND_ANNOUNCEMENT_ACK"},
		"update_standings": {message(protocol.TypeStandingsUpdate, protocol.SenderManager, with(map[string]any{
			"standings": []any{map[string]any{"rank": 1, "player_id": "P01", "points": 3}}})), "LEAGUE_STANDINGS_UPDATE_ACK"},
		"notify_round_completed": {message(protocol.TypeRoundCompleted, protocol.SenderManager, with(map[string]any{
			"matches_completed": 1, "next_round_id": nil})), "ROUND_COMPLETED_ACK"},
		"notify_league_completed": {message(protocol.TypeLeagueCompleted, protocol.SenderManager, map[string]any{
			"total_rounds": 1, "champion": map[string]any{"player_id": "P01", "points": 3},
			"auth_token": leaguetest.ManagerKey(t, dataDir, "league_2025_even_odd", "P01")}), "LEAGUE_COMPLETED_ACK"},
	}
}

func TestPlayerServesItsLeagueOperationsAsMCPTools(t *testing.T) {
	dir := t.TempDir()
	m := startManager(t, dir)
	p := startPlayer(t, dir, m.Endpoint(), "P01")
	session := connect(t, p.Endpoint())

	init := session.InitializeResult()
	if init.ServerInfo.Name != "leaguetui-player" || init.Capabilities.Tools == nil {
		t.Fatalf("initialize: server %+v, capabilities %+v", init.ServerInfo, init.Capabilities)
	}
	calls := playerCalls(t, dir)
	var want []string
	for name := range calls {
		want = append(want, name)
	}
	slices.Sort(want)
	if got := listTools(t, session); !slices.Equal(got, want) {
		t.Fatalf("tools %v, want %v", got, want)
	}
	// notify_league_completed last: it winds the player down.
	order := append(slices.DeleteFunc(slices.Clone(want), func(s string) bool { return s == "notify_league_completed" }),
		"notify_league_completed")
	for _, name := range order {
		served := p.Server.Served()
		reply := callOK(t, session, name, calls[name].args)
		if reply["message_type"] != calls[name].reply {
			t.Errorf("%s: reply %v, want %s", name, reply["message_type"], calls[name].reply)
		}
		if p.Server.Served() != served+1 {
			t.Errorf("%s: did not go through the league's Dispatch", name)
		}
	}
}

// The same move comes back over MCP and over plain JSON-RPC: one path.
func TestPlayerToolAndPlainMethodGiveTheSameReply(t *testing.T) {
	dir := t.TempDir()
	m := startManager(t, dir)
	p := startPlayer(t, dir, m.Endpoint(), "P01")
	session := connect(t, p.Endpoint())
	args := playerCalls(t, dir)["choose_parity"].args
	viaTool := callOK(t, session, "choose_parity", args)

	client := rpc.NewClient(rpc.Options{Retry: testConfig().Retry})
	var msg protocol.MoveCall
	raw, _ := json.Marshal(args)
	if err := protocol.Decode(raw, &msg); err != nil {
		t.Fatal(err)
	}
	var viaRPC protocol.MoveAnswer
	if err := client.Do(testContext(t), rpc.Call{Endpoint: p.Endpoint(), Message: &msg, Timeout: testConfig().Timeouts.Move}, &viaRPC); err != nil {
		t.Fatal(err)
	}
	if viaTool["parity_choice"] != viaRPC.Choice || viaRPC.PlayerID != "P01" {
		t.Fatalf("tool answered %v, plain JSON-RPC %+v", viaTool, viaRPC)
	}
}

func TestPlayerToolErrors(t *testing.T) {
	dir := t.TempDir()
	m := startManager(t, dir)
	p := startPlayer(t, dir, m.Endpoint(), "P01")
	session := connect(t, p.Endpoint())
	unknownTool(t, session)

	valid := playerCalls(t, dir)["choose_parity"].args
	for name, args := range map[string]any{
		"missing match_id":     without(valid, "match_id"),
		"missing the envelope": without(valid, "protocol", "sender", "timestamp", "conversation_id"),
		"wrong message_type":   message(protocol.TypeGameOver, "referee:REF01", without(valid, "protocol", "message_type")),
		"wrong field type":     mergeArgs(valid, map[string]any{"context": "P02"}),
		"not an object":        []int{1, 2},
	} {
		t.Run(name, func(t *testing.T) {
			reply := callFails(t, session, "choose_parity", args)
			if !strings.Contains(reply["error"].(string), "invalid arguments") {
				t.Errorf("reply %v", reply)
			}
		})
	}
}
