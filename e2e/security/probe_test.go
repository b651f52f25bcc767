package security_test

import (
	"encoding/json"
	"testing"

	"github.com/leaguetui/leaguetui/agents/store"
	"github.com/leaguetui/leaguetui/internal/leaguetest"
	"github.com/leaguetui/leaguetui/league/process"
)

// probe is one request that must be refused without echoing its token.
type probe struct {
	name, method string
	params       map[string]any
}

// withToken is msg with token as its auth_token.
func withToken(msg map[string]any, token any) map[string]any {
	return leaguetest.With(msg, map[string]any{"auth_token": token})
}

// probeErrors sends the manager, a referee and a player requests holding
// wrong or foreign tokens, and requires that no reply holds a piece of any
// token. It returns the made-up tokens it sent, for the grep of the data
// folder: an agent must not write down a token it was sent either.
func probeErrors(t *testing.T, l *league, creds map[string]store.Credentials, spy secret) []secret {
	t.Helper()
	p1, p2 := l.players[0].ID, l.players[1].ID
	ref := l.referees[0].ID
	made := secret{"a made-up token", randomToken(t, "tok")}
	madeAdmin := secret{"a made-up admin token", randomToken(t, "adm")}
	secrets := []secret{spy, {"the admin", l.admin}, made, madeAdmin}
	for id, c := range creds {
		secrets = append(secrets, secret{id, c.AuthToken})
	}
	pieces := fragments(secrets)

	query := func(sender string) map[string]any {
		return leaguetest.With(leaguetest.Envelope("LEAGUE_QUERY", sender), map[string]any{"query_type": "GET_STANDINGS"})
	}
	report := func(matchID string) map[string]any {
		return leaguetest.With(leaguetest.Envelope("MATCH_RESULT_REPORT", "referee:"+ref), map[string]any{
			"league_id": leagueID, "round_id": 1, "match_id": matchID, "game_type": "even_odd",
			"result": map[string]any{"winner": p1, "status": "WIN", "score": map[string]int{p1: 3, p2: 0}}})
	}
	admin := leaguetest.Envelope("START_LEAGUE", "admin:console")
	register := leaguetest.With(leaguetest.Envelope("LEAGUE_REGISTER_REQUEST", "player:"+p1), map[string]any{
		"player_meta": map[string]any{"display_name": "thief", "version": "1.0.0", "game_types": []string{"even_odd"},
			"contact_endpoint": leaguetest.RefusingEndpoint(t)}})
	managerProbes := []probe{
		{"a query with another player's token", "league_query", withToken(query("player:"+p1), creds[p2].AuthToken)},
		{"a query with the admin token", "league_query", withToken(query("player:"+p1), l.admin)},
		{"a query with a made-up token", "league_query", withToken(query("player:"+p1), made.value)},
		{"a referee's query with a player's token", "league_query", withToken(query("referee:"+ref), spy.value)},
		{"an unregistered sender with a player's token", "league_query", withToken(query("player:P77"), creds[p1].AuthToken)},
		{"a token of the wrong type", "league_query", withToken(query("player:"+p1), []string{creds[p1].AuthToken})},
		{"a token in an object", "league_query", withToken(query("player:"+p1), map[string]string{"value": creds[p1].AuthToken})},
		{"a token under another spelling", "league_query", leaguetest.With(query("player:"+p1), map[string]any{"authToken": creds[p2].AuthToken})},
		{"a report with a player's token", "report_match_result", withToken(report("R1M1"), creds[p1].AuthToken)},
		{"a report of no match with the referee's own token", "report_match_result", withToken(report("R9M1"), creds[ref].AuthToken)},
		{"start with a player's token", "start_league", withToken(admin, creds[p1].AuthToken)},
		{"start with a made-up admin token", "start_league", withToken(admin, madeAdmin.value)},
		{"start of a completed league with the admin token", "start_league", withToken(admin, l.admin)},
		{"a registration as P01 with another's token", "register_player", withToken(register, creds[p2].AuthToken)},
		{"a registration with a made-up token", "register_player", withToken(register, made.value)},
		{"an MCP call with another player's token", "tools/call", map[string]any{"name": "league_query",
			"arguments": withToken(query("player:"+p1), creds[p2].AuthToken)}},
		{"an MCP admin call with a made-up admin token", "tools/call", map[string]any{"name": "start_league",
			"arguments": withToken(admin, madeAdmin.value)}},
	}
	for _, p := range managerProbes {
		wantNoEcho(t, "manager, "+p.name, leaguetest.Call(t, l.manager.Endpoint, p.method, p.params), pieces)
	}

	// Every agent, whatever it checks, must not echo a token in a request
	// it cannot read.
	truncated := []byte(`{"jsonrpc":"2.0","id":1,"method":"league_query","params":{"auth_token":"` + creds[p1].AuthToken + `","sender":`)
	badType, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 1, "method": "handle_game_invitation",
		"params": leaguetest.With(leaguetest.Envelope("GAME_INVITATION", "referee:"+ref), map[string]any{
			"auth_token": 7, "match_id": []string{creds[ref].AuthToken}})})
	for _, c := range []*process.Child{l.manager, l.referees[0], l.players[0]} {
		wantNoEcho(t, c.Name+", a truncated request", leaguetest.Post(t, c.Endpoint, truncated), pieces)
		wantNoEcho(t, c.Name+", fields of the wrong type", leaguetest.Post(t, c.Endpoint, badType), pieces)
	}
	return []secret{made, madeAdmin}
}

// poseAsReferee sends a real player what a referee would, holding the
// referee's real token as the specification's samples do: the player
// refuses it (a player answers only with its match ticket), and then, with
// the ticket the manager would give, takes it; every reply is without any
// token.
func poseAsReferee(t *testing.T, dir string, player *process.Child, creds map[string]store.Credentials, secrets []secret) {
	t.Helper()
	pieces := fragments(secrets)
	messages := func(authToken string) (invitation, move, over map[string]any) {
		head := map[string]any{"league_id": leagueID, "round_id": 9, "match_id": "R9M8", "game_type": "even_odd",
			"player_id": player.ID, "auth_token": authToken}
		invitation = leaguetest.With(leaguetest.Envelope("GAME_INVITATION", "referee:REF01"), leaguetest.With(head, map[string]any{
			"role_in_match": "PLAYER_A", "opponent_id": "P77"}))
		move = leaguetest.With(leaguetest.Envelope("CHOOSE_PARITY_CALL", "referee:REF01"), leaguetest.With(head, map[string]any{
			"context": map[string]any{"opponent_id": "P77", "round_id": 9}}))
		over = leaguetest.With(leaguetest.Envelope("GAME_OVER", "referee:REF01"), leaguetest.With(head, map[string]any{
			"game_result": map[string]any{"status": "DRAW", "winner_player_id": nil,
				"choices": map[string]string{player.ID: "even", "P77": "even"}}}))
		return invitation, move, over
	}

	invitation, move, over := messages(creds["REF01"].AuthToken)
	for method, msg := range map[string]map[string]any{"handle_game_invitation": invitation, "choose_parity": move,
		"notify_match_result": over} {
		reply := leaguetest.Call(t, player.Endpoint, method, msg)
		if reply.String("error_code") != "E012" {
			t.Errorf("%s with the referee's token instead of a match ticket: %s, want E012", method, reply.Body)
		}
		wantNoEcho(t, method+" refused", reply, pieces)
	}

	invitation, move, over = messages(leaguetest.MatchTicket(t, dir, leagueID, player.ID, "R9M8", "REF01"))
	reply := leaguetest.Call(t, player.Endpoint, "handle_game_invitation", invitation)
	if reply.Result["accept"] != true {
		t.Errorf("the player did not take the invitation: %s", reply.Body)
	}
	wantNoEcho(t, "GAME_JOIN_ACK", reply, pieces)
	reply = leaguetest.Call(t, player.Endpoint, "choose_parity", move)
	if reply.String("parity_choice") == "" {
		t.Errorf("the player did not move: %s", reply.Body)
	}
	wantNoEcho(t, "CHOOSE_PARITY_RESPONSE", reply, pieces)
	wantNoEcho(t, "the GAME_OVER acknowledgement", leaguetest.Call(t, player.Endpoint, "notify_match_result", over), pieces)
}

// fakeMatch is the match a fake manager gives a real referee.
const fakeMatch = "R9M9"

// poseAsManager sends a real referee a start_match for two fake players,
// as a process posing as the manager could, and requires the referee to
// refuse it (only its own manager's start_match carries the key they
// share) without echoing a token: the fake players hear nothing. Their
// made-up tokens are returned for the grep all the same.
func poseAsManager(t *testing.T, referee *process.Child, secrets []secret) []secret {
	t.Helper()
	a := newFakePlayer(t, "P98", randomToken(t, "tok"))
	b := newFakePlayer(t, "P99", randomToken(t, "tok"))
	theirs := []secret{{"fake player P98", a.token}, {"fake player P99", b.token}}
	secrets = append(secrets, theirs...)
	start := leaguetest.With(leaguetest.Envelope("START_MATCH", "league_manager"), map[string]any{
		"league_id": leagueID, "round_id": 9, "match_id": fakeMatch, "game_type": "even_odd", "league_seed": 1,
		"referee_id": referee.ID, "player_A_id": "P98", "player_B_id": "P99",
		"player_A_endpoint": a.Endpoint, "player_B_endpoint": b.Endpoint})
	reply := leaguetest.Call(t, referee.Endpoint, "start_match", start)
	if reply.String("message_type") != "LEAGUE_ERROR" || reply.String("error_code") != "E011" {
		t.Fatalf("the referee took a start_match from a stranger: %s", reply.Body)
	}
	wantNoEcho(t, "the refusal of START_MATCH", reply, fragments(secrets))
	return theirs
}
