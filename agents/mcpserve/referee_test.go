package mcpserve_test

import (
	"context"
	"fmt"
	"log/slog"
	"slices"
	"sync"
	"testing"

	"github.com/leaguetui/leaguetui/agents/protocol"
	"github.com/leaguetui/leaguetui/agents/rpc"
)

// fakeManager registers whoever asks and hands each match report to a
// channel, so a test can wait for a match the referee plays.
type fakeManager struct {
	URL     string
	reports chan protocol.MatchResultReport

	mu      sync.Mutex
	players int
}

func startFakeManager(t *testing.T) *fakeManager {
	t.Helper()
	f := &fakeManager{reports: make(chan protocol.MatchResultReport, 8)}
	srv := rpc.NewServer(slog.New(slog.DiscardHandler), func() string { return protocol.SenderManager })
	srv.Handle(protocol.TypeRefereeRegisterRequest, func(_ context.Context, in protocol.Inbound) (any, error) {
		return f.accept(in, protocol.TypeRefereeRegisterResponse, "REF01"), nil
	})
	srv.Handle(protocol.TypeLeagueRegisterRequest, func(_ context.Context, in protocol.Inbound) (any, error) {
		f.mu.Lock()
		f.players++
		id := fmt.Sprintf("P%02d", f.players)
		f.mu.Unlock()
		return f.accept(in, protocol.TypeLeagueRegisterResponse, id), nil
	})
	srv.Handle(protocol.TypeMatchStep, ack)
	srv.Handle(protocol.TypeMatchResultReport, func(ctx context.Context, in protocol.Inbound) (any, error) {
		var rep protocol.MatchResultReport
		if err := rpc.DecodeParams(in, &rep); err != nil {
			return nil, err
		}
		f.reports <- rep
		return ack(ctx, in)
	})
	l, err := srv.Listen("127.0.0.1", 0)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = l.Shutdown(shutdownContext(t)) })
	f.URL = l.URL()
	return f
}

func (f *fakeManager) accept(in protocol.Inbound, responseType, id string) *protocol.RegisterResponse {
	var env protocol.Envelope
	_ = protocol.Decode(in.Body, &env)
	resp := &protocol.RegisterResponse{Envelope: protocol.NewEnvelope(responseType, protocol.SenderManager, env.ConversationID),
		Status: protocol.StatusAccepted, RefereeID: id}
	if responseType == protocol.TypeLeagueRegisterResponse {
		resp.RefereeID, resp.PlayerID = "", id
	}
	resp.AuthToken = "tok-" + id
	return resp
}

func ack(_ context.Context, in protocol.Inbound) (any, error) {
	var env protocol.Envelope
	_ = protocol.Decode(in.Body, &env)
	return &protocol.Ack{Envelope: protocol.NewEnvelope(in.MessageType+"_ACK", protocol.SenderManager, env.ConversationID),
		Status: "ok"}, nil
}

func TestRefereeServesMatchesAndStateAsMCPTools(t *testing.T) {
	dir := t.TempDir()
	fm := startFakeManager(t)
	r := startReferee(t, dir, fm.URL, "REF01")
	a := startPlayer(t, dir, fm.URL, "alpha")
	b := startPlayer(t, dir, fm.URL, "beta")
	session := connect(t, r.Endpoint())

	if init := session.InitializeResult(); init.ServerInfo.Name != "leaguetui-referee" {
		t.Fatalf("initialize: server %+v", init.ServerInfo)
	}
	want := []string{"get_match_state", "notify_league_completed", "notify_round", "notify_round_completed",
		"receive_game_join_ack", "receive_parity_response", "start_match", "update_standings"}
	if got := listTools(t, session); !slices.Equal(got, want) {
		t.Fatalf("tools %v, want %v", got, want)
	}
	called := map[string]bool{}
	use := func(name string) string { called[name] = true; return name }

	mgr := protocol.SenderManager
	start := message(protocol.TypeStartMatch, mgr, map[string]any{"match_id": "X1", "round_id": 1, "game_type": "even_odd",
		"referee_id": "REF01", "player_A_id": "P01", "player_B_id": "P02",
		"player_A_endpoint": a.Endpoint(), "player_B_endpoint": b.Endpoint(), "league_seed": 42})
	if reply := callOK(t, session, use("start_match"), start); reply["status"] != "accepted" {
		t.Fatalf("start_match: %v", reply)
	}
	var report protocol.MatchResultReport
	select {
	case report = <-fm.reports:
	case <-testContext(t).Done():
		t.Fatal("the match was never reported")
	}
	state := callOK(t, session, use("get_match_state"), map[string]any{"match_id": "X1"})
	if state["state"] != "FINISHED" || state["result"] == nil {
		t.Fatalf("get_match_state after the report: %v", state)
	}
	result := state["result"].(map[string]any)
	if result["status"] != report.Result.Status {
		t.Errorf("state says %v, the report %v", result["status"], report.Result.Status)
	}
	if reply := callFails(t, session, "get_match_state", map[string]any{"match_id": "nope"}); reply["error"] == nil {
		t.Errorf("unknown match: %v", reply)
	}
	callFails(t, session, "get_match_state", map[string]any{})
	callFails(t, session, "start_match", without(start, "player_B_endpoint"))

	// Answers nobody waits for are refused; notifications are acknowledged.
	callFails(t, session, use("receive_game_join_ack"), message(protocol.TypeGameJoinAck, "player:P01",
		map[string]any{"match_id": "X9", "player_id": "P01", "accept": true}))
	callFails(t, session, use("receive_parity_response"), message(protocol.TypeChooseParityResponse, "player:P01",
		map[string]any{"match_id": "X9", "player_id": "P01", "parity_choice": "even"}))
	for name, args := range map[string]map[string]any{
		"notify_round":            message(protocol.TypeRoundAnnouncement, mgr, map[string]any{"round_id": 1, "matches": []any{}}),
		"update_standings":        message(protocol.TypeStandingsUpdate, mgr, map[string]any{"standings": []any{}}),
		"notify_round_completed":  message(protocol.TypeRoundCompleted, mgr, map[string]any{"round_id": 1}),
		"notify_league_completed": message(protocol.TypeLeagueCompleted, mgr, nil),
	} {
		if reply := callOK(t, session, use(name), args); reply["status"] != "ok" {
			t.Errorf("%s: %v", name, reply)
		}
	}
	for _, name := range want {
		if !called[name] {
			t.Errorf("tool %s was not called", name)
		}
	}
	unknownTool(t, session)
}
