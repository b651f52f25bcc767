package mcpserve_test

import (
	"slices"
	"testing"
	"time"

	"github.com/leaguetui/leaguetui/agents/protocol"
	"github.com/leaguetui/leaguetui/agents/rpc"
	"github.com/leaguetui/leaguetui/engine"
	"github.com/leaguetui/leaguetui/internal/leaguetest"
	"github.com/leaguetui/leaguetui/league/control"
)

// Our referee reaches a player that speaks only MCP: the league methods are
// unknown there, so the client falls back to tools/call, with the Accept
// header the SDK requires, and remembers that for the next call.
func TestClientFallsBackToToolsCallOnAnMCPOnlyPeer(t *testing.T) {
	peer := startMCPOnlyPlayer(t, gamePlayerTypes...)
	peer.mu.Lock()
	peer.ID = "P09"
	peer.mu.Unlock()
	client := rpc.NewClient(rpc.Options{Retry: testConfig().Retry, Breaker: testConfig().Breaker})
	invite := func() protocol.GameJoinAck {
		msg := &protocol.GameInvitation{Envelope: protocol.NewEnvelope(protocol.TypeGameInvitation, "referee:REF01", "conv-x"),
			GameType: "even_odd", RoleInMatch: protocol.RolePlayerA, OpponentID: "P02", PlayerID: "P09"}
		msg.MatchID, msg.RoundID = "R1M1", 1
		var ack protocol.GameJoinAck
		if err := client.Do(testContext(t), rpc.Call{Endpoint: peer.URL, Message: msg, Timeout: 5 * time.Second}, &ack); err != nil {
			t.Fatal(err)
		}
		return ack
	}
	if ack := invite(); !ack.Accept || ack.PlayerID != "P09" {
		t.Fatalf("first invitation: %+v", ack)
	}
	before := len(peer.receivedMethods())
	invite()
	methods := peer.receivedMethods()
	if want := protocol.SendMethods[protocol.TypeGameInvitation]; !slices.Equal(methods[:len(want)], want) {
		t.Errorf("first tried %v, want the league's names %v first", methods[:len(want)], want)
	}
	if got := methods[before:]; !slices.Equal(got, []string{protocol.MethodToolsCall}) {
		t.Errorf("second invitation sent %v, want tools/call straight away", got)
	}
	if peer.callsOf("handle_game_invitation") != 2 {
		t.Errorf("handle_game_invitation called %d times, want 2", peer.callsOf("handle_game_invitation"))
	}
	if p := peer.problems(); len(p) > 0 {
		t.Errorf("the peer saw: %v", p)
	}
}

// A whole league in which one player is another implementation speaking
// only MCP tools/call completes normally: it plays every match, and nobody
// takes a technical loss.
func TestLeagueWithAnMCPOnlyPlayerCompletes(t *testing.T) {
	ctx := testContext(t)
	dir := t.TempDir()
	m := startManager(t, dir)
	startReferee(t, dir, m.Endpoint(), "REF01")
	startPlayer(t, dir, m.Endpoint(), "alpha")
	startPlayer(t, dir, m.Endpoint(), "beta")
	other := registerMCPOnlyPlayer(t, m.Endpoint())

	ctl := control.New(m.Endpoint(), adminToken)
	if err := ctl.Start(ctx); err != nil {
		t.Fatal(err)
	}
	awaitCompleted(t, ctl)

	standings, err := ctl.Standings(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if standings.State != engine.LeagueCompleted || standings.MatchesDone != 3 {
		t.Fatalf("league %s with %d of %d matches", standings.State, standings.MatchesDone, standings.MatchesTotal)
	}
	for _, row := range standings.Standings {
		if row.Played != 2 || row.TechnicalLosses != 0 {
			t.Errorf("%s played %d with %d technical losses", row.PlayerID, row.Played, row.TechnicalLosses)
		}
	}
	for _, tool := range []string{"handle_game_invitation", "choose_parity", "notify_match_result"} {
		if n := other.callsOf(tool); n != 2 {
			t.Errorf("the MCP-only player's %s was called %d times, want 2", tool, n)
		}
	}
	if p := other.problems(); len(p) > 0 {
		t.Errorf("the MCP-only player saw: %v", p)
	}
}

// registerMCPOnlyPlayer registers a fake MCP-only player with the manager,
// as its own code would, and waits for nothing else.
func registerMCPOnlyPlayer(t *testing.T, managerURL string) *mcpOnlyPlayer {
	t.Helper()
	p := startMCPOnlyPlayer(t, gamePlayerTypes...)
	req := &protocol.LeagueRegisterRequest{Envelope: protocol.NewEnvelope(protocol.TypeLeagueRegisterRequest, "player:other", "conv-reg"),
		PlayerMeta: protocol.AgentMeta{DisplayName: "other", Version: "0.1.0", GameTypes: []string{"even_odd"},
			ContactEndpoint: p.URL}}
	client := rpc.NewClient(rpc.Options{Retry: testConfig().Retry})
	var resp protocol.RegisterResponse
	if err := client.Do(testContext(t), rpc.Call{Endpoint: managerURL, Message: req, Timeout: 10 * time.Second}, &resp); err != nil {
		t.Fatal(err)
	}
	if resp.Status != protocol.StatusAccepted {
		t.Fatalf("the MCP-only player was not accepted: %+v", resp)
	}
	p.mu.Lock()
	p.ID = resp.PlayerID
	p.mu.Unlock()
	return p
}

// awaitCompleted follows the manager's event feed until the league completes.
func awaitCompleted(t *testing.T, ctl *control.Client) {
	t.Helper()
	events, _ := leaguetest.NextEvents(t, ctl, 0, 2*time.Minute, engine.EventLeagueCompleted, engine.EventStopped)
	if events[len(events)-1].Kind == engine.EventStopped {
		t.Fatal("the league was stopped")
	}
}
