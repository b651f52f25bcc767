package protocol_test

import (
	"encoding/json"
	"errors"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/leaguetui/leaguetui/agents/protocol"
)

// specTimestamp is the one timestamp form we send (protocol.md §8).
var specTimestamp = regexp.MustCompile(`^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$`)

func ptr[T any](v T) *T { return &v }

// env builds a full envelope as an agent would send it.
func env(messageType, sender string, round int, matchID string) protocol.Envelope {
	e := protocol.NewEnvelope(messageType, sender, "conv-r1m1-001")
	e.AuthToken = "tok-p01-abc123"
	e.LeagueID = "league_2025_even_odd"
	e.RoundID = protocol.RoundID(round)
	e.MatchID = matchID
	return e
}

var rows = []protocol.StandingRow{
	{Rank: 1, PlayerID: "P02", DisplayName: "Bravo", Played: 3, Wins: 2, Draws: 0, Losses: 1, Points: 6},
	{Rank: 2, PlayerID: "P01", DisplayName: "Alpha", Played: 3, Wins: 1, Draws: 1, Losses: 1, TechnicalLosses: 1, Points: 4},
}

// lookup follows a dotted path ("game_result.drawn_number", "matches.0.player_A_id")
// through decoded JSON.
func lookup(v any, path string) (any, bool) {
	for _, key := range strings.Split(path, ".") {
		switch node := v.(type) {
		case map[string]any:
			next, ok := node[key]
			if !ok {
				return nil, false
			}
			v = next
		case []any:
			i, err := strconv.Atoi(key)
			if err != nil || i < 0 || i >= len(node) {
				return nil, false
			}
			v = node[i]
		default:
			return nil, false
		}
	}
	return v, true
}

// TestRoundTrip marshals every message type, checks the field names and
// values on the wire against the specification, and decodes it back to the
// same value.
func TestRoundTrip(t *testing.T) {
	winner := "P01"
	next := 2
	tests := []struct {
		name  string
		msg   protocol.Message
		empty func() protocol.Message
		wire  map[string]any // dotted path -> value on the wire (JSON numbers are float64)
	}{
		{
			name: "REFEREE_REGISTER_REQUEST",
			msg: &protocol.RefereeRegisterRequest{Envelope: protocol.NewEnvelope(protocol.TypeRefereeRegisterRequest, "referee:alpha", "conv-ref-alpha-reg-001"),
				RefereeMeta: protocol.AgentMeta{DisplayName: "Referee Alpha", Version: "1.0.0", GameTypes: []string{"even_odd"},
					ContactEndpoint: "http://localhost:8001/mcp", MaxConcurrentMatches: 2, ProtocolVersion: "2.1.0"}},
			empty: func() protocol.Message { return &protocol.RefereeRegisterRequest{} },
			wire: map[string]any{"protocol": "league.v2", "message_type": "REFEREE_REGISTER_REQUEST", "sender": "referee:alpha",
				"referee_meta.display_name": "Referee Alpha", "referee_meta.game_types.0": "even_odd",
				"referee_meta.contact_endpoint": "http://localhost:8001/mcp", "referee_meta.max_concurrent_matches": 2.0,
				"referee_meta.protocol_version": "2.1.0"},
		},
		{
			name: "LEAGUE_REGISTER_REQUEST",
			msg: &protocol.LeagueRegisterRequest{Envelope: protocol.NewEnvelope(protocol.TypeLeagueRegisterRequest, "player:alpha", "conv-player-alpha-reg-001"),
				PlayerMeta: protocol.AgentMeta{DisplayName: "Agent Alpha", Version: "1.0.0", GameTypes: []string{"even_odd"},
					ContactEndpoint: "http://localhost:8101/mcp"}},
			empty: func() protocol.Message { return &protocol.LeagueRegisterRequest{} },
			wire: map[string]any{"message_type": "LEAGUE_REGISTER_REQUEST", "player_meta.display_name": "Agent Alpha",
				"player_meta.version": "1.0.0", "player_meta.contact_endpoint": "http://localhost:8101/mcp"},
		},
		{
			name: "LEAGUE_REGISTER_RESPONSE accepted",
			msg: &protocol.RegisterResponse{Envelope: env(protocol.TypeLeagueRegisterResponse, "league_manager", 0, ""),
				Status: protocol.StatusAccepted, PlayerID: "P01"},
			empty: func() protocol.Message { return &protocol.RegisterResponse{} },
			wire: map[string]any{"status": "ACCEPTED", "player_id": "P01", "auth_token": "tok-p01-abc123",
				"league_id": "league_2025_even_odd", "reason": nil},
		},
		{
			name: "REFEREE_REGISTER_RESPONSE rejected",
			msg: &protocol.RegisterResponse{Envelope: protocol.NewEnvelope(protocol.TypeRefereeRegisterResponse, "league_manager", "c"),
				Status: protocol.StatusRejected, Reason: ptr("protocol_version 1.0.0 is below 2.0.0")},
			empty: func() protocol.Message { return &protocol.RegisterResponse{} },
			wire:  map[string]any{"status": "REJECTED", "reason": "protocol_version 1.0.0 is below 2.0.0"},
		},
		{
			name: "ROUND_ANNOUNCEMENT",
			msg: &protocol.RoundAnnouncement{Envelope: env(protocol.TypeRoundAnnouncement, "league_manager", 1, ""),
				Matches: []protocol.AnnouncedMatch{{MatchID: "R1M1", GameType: "even_odd", PlayerAID: "P01", PlayerBID: "P02",
					RefereeEndpoint: "http://localhost:8001/mcp", RefereeID: "REF01",
					PlayerAEndpoint: "http://localhost:8101/mcp", PlayerBEndpoint: "http://localhost:8102/mcp"}}},
			empty: func() protocol.Message { return &protocol.RoundAnnouncement{} },
			wire: map[string]any{"round_id": 1.0, "matches.0.match_id": "R1M1", "matches.0.player_A_id": "P01",
				"matches.0.player_B_id": "P02", "matches.0.referee_endpoint": "http://localhost:8001/mcp",
				"matches.0.game_type": "even_odd", "matches.0.referee_id": "REF01", "matches.0.player_A_endpoint": "http://localhost:8101/mcp"},
		},
		{
			name: "START_MATCH",
			msg: &protocol.StartMatch{Envelope: env(protocol.TypeStartMatch, "league_manager", 2, "R2M1"), GameType: "even_odd",
				RefereeID: "REF01", PlayerAID: "P01", PlayerBID: "P03", PlayerAEndpoint: "http://a/mcp", PlayerBEndpoint: "http://b/mcp",
				LeagueSeed: 42, Standings: map[string]protocol.Standing{"P01": {Wins: 1}, "P03": {Draws: 1}}},
			empty: func() protocol.Message { return &protocol.StartMatch{} },
			wire: map[string]any{"match_id": "R2M1", "round_id": 2.0, "player_A_id": "P01", "player_B_id": "P03",
				"player_A_endpoint": "http://a/mcp", "league_seed": 42.0, "standings.P01.wins": 1.0},
		},
		{
			name: "GAME_INVITATION",
			msg: &protocol.GameInvitation{Envelope: env(protocol.TypeGameInvitation, "referee:REF01", 1, "R1M1"), GameType: "even_odd",
				RoleInMatch: protocol.RolePlayerA, OpponentID: "P02", PlayerID: "P01"},
			empty: func() protocol.Message { return &protocol.GameInvitation{} },
			wire: map[string]any{"sender": "referee:REF01", "match_id": "R1M1", "round_id": 1.0, "game_type": "even_odd",
				"role_in_match": "PLAYER_A", "opponent_id": "P02", "conversation_id": "conv-r1m1-001"},
		},
		{
			name: "GAME_JOIN_ACK",
			msg: &protocol.GameJoinAck{Envelope: env(protocol.TypeGameJoinAck, "player:P01", 1, "R1M1"), PlayerID: "P01",
				ArrivalTimestamp: "2025-01-15T10:00:00Z", Accept: true},
			empty: func() protocol.Message { return &protocol.GameJoinAck{} },
			wire: map[string]any{"match_id": "R1M1", "player_id": "P01", "arrival_timestamp": "2025-01-15T10:00:00Z",
				"accept": true, "auth_token": "tok-p01-abc123"},
		},
		{
			name: "GAME_JOIN_ACK declined",
			msg: &protocol.GameJoinAck{Envelope: env(protocol.TypeGameJoinAck, "player:P01", 1, "R1M1"), PlayerID: "P01",
				ArrivalTimestamp: "2025-01-15T10:00:00Z", Accept: false},
			empty: func() protocol.Message { return &protocol.GameJoinAck{} },
			wire:  map[string]any{"accept": false},
		},
		{
			name: "CHOOSE_PARITY_CALL",
			msg: &protocol.MoveCall{Envelope: env(protocol.TypeChooseParityCall, "referee:REF01", 1, "R1M1"), PlayerID: "P01",
				GameType: "even_odd", Context: protocol.MoveContext{OpponentID: "P02", RoundID: 1,
					YourStandings: protocol.Standing{Wins: 2, Losses: 1, Draws: 0}},
				Deadline:    "2025-01-15T10:00:30Z",
				MoveRequest: &protocol.MoveRequest{MoveType: "choose_parity", ValidOptions: []string{"even", "odd"}}},
			empty: func() protocol.Message { return &protocol.MoveCall{} },
			wire: map[string]any{"player_id": "P01", "context.opponent_id": "P02", "context.round_id": 1.0,
				"context.your_standings.wins": 2.0, "context.your_standings.losses": 1.0, "context.your_standings.draws": 0.0,
				"deadline": "2025-01-15T10:00:30Z", "move_request.valid_options.1": "odd"},
		},
		{
			name: "CHOOSE_PARITY_RESPONSE",
			msg: &protocol.MoveAnswer{Envelope: env(protocol.TypeChooseParityResponse, "player:P01", 1, "R1M1"),
				PlayerID: "P01", Choice: "odd"},
			empty: func() protocol.Message { return &protocol.MoveAnswer{} },
			wire:  map[string]any{"player_id": "P01", "parity_choice": "odd", "match_id": "R1M1"},
		},
		{
			name: "GAME_OVER win",
			msg: &protocol.GameOver{Envelope: env(protocol.TypeGameOver, "referee:REF01", 1, "R1M1"), GameType: "even_odd",
				GameResult: protocol.GameResult{Status: "WIN", WinnerPlayerID: &winner, Choices: map[string]string{"P01": "even", "P02": "odd"},
					Reason: "P01 chose even, number was 8", Details: map[string]any{"drawn_number": 8.0, "number_parity": "even"}},
				Reason: "P01 chose even, number was 8"},
			empty: func() protocol.Message { return &protocol.GameOver{} },
			wire: map[string]any{"game_result.status": "WIN", "game_result.winner_player_id": "P01",
				"game_result.drawn_number": 8.0, "game_result.number_parity": "even", "game_result.choices.P02": "odd",
				"game_result.reason": "P01 chose even, number was 8", "reason": "P01 chose even, number was 8"},
		},
		{
			name: "GAME_OVER draw",
			msg: &protocol.GameOver{Envelope: env(protocol.TypeGameOver, "referee:REF01", 1, "R1M1"), GameType: "even_odd",
				GameResult: protocol.GameResult{Status: "DRAW", Choices: map[string]string{"P01": "odd", "P02": "odd"},
					Reason: "both chose odd", Details: map[string]any{"drawn_number": 4.0, "number_parity": "even"}},
				Reason: "both chose odd"},
			empty: func() protocol.Message { return &protocol.GameOver{} },
			wire:  map[string]any{"game_result.status": "DRAW", "game_result.winner_player_id": nil},
		},
		{
			name: "MATCH_RESULT_REPORT",
			msg: &protocol.MatchResultReport{Envelope: env(protocol.TypeMatchResultReport, "referee:REF01", 1, "R1M1"), GameType: "even_odd",
				Result: protocol.ReportResult{Winner: &winner, Score: map[string]int{"P01": 3, "P02": 0}, Status: "WIN",
					Details: protocol.ReportDetails{Choices: map[string]string{"P01": "even", "P02": "odd"},
						Game: map[string]any{"drawn_number": 8.0, "number_parity": "even"}}}},
			empty: func() protocol.Message { return &protocol.MatchResultReport{} },
			wire: map[string]any{"league_id": "league_2025_even_odd", "round_id": 1.0, "match_id": "R1M1", "game_type": "even_odd",
				"result.winner": "P01", "result.score.P01": 3.0, "result.score.P02": 0.0, "result.status": "WIN",
				"result.details.drawn_number": 8.0, "result.details.choices.P01": "even"},
		},
		{
			name: "MATCH_RESULT_REPORT with its match's last steps",
			msg: &protocol.MatchResultReport{Envelope: env(protocol.TypeMatchResultReport, "referee:REF01", 1, "R1M1"), GameType: "even_odd",
				Result: protocol.ReportResult{Score: map[string]int{"P01": 1, "P02": 1}, Status: "DRAW"},
				Steps:  []protocol.StepEntry{{RoundID: 1, MatchID: "R1M1", Step: "choosing"}, {RoundID: 1, MatchID: "R1M1", Step: "draw", Detail: "both chose odd"}}},
			empty: func() protocol.Message { return &protocol.MatchResultReport{} },
			wire: map[string]any{"result.status": "DRAW", "match_steps.0.step": "choosing", "match_steps.1.match_id": "R1M1",
				"match_steps.1.round_id": 1.0, "match_steps.1.step": "draw", "match_steps.1.detail": "both chose odd"},
		},
		{
			name: "MATCH_RESULT_REPORT technical loss",
			msg: &protocol.MatchResultReport{Envelope: env(protocol.TypeMatchResultReport, "referee:REF01", 1, "R1M1"), GameType: "even_odd",
				Result: protocol.ReportResult{Winner: &winner, Score: map[string]int{"P01": 3, "P02": 0}, Status: "TECHNICAL_LOSS",
					Details: protocol.ReportDetails{Choices: map[string]string{"P01": "even"}, TechnicalLoss: true,
						Reason: "P02 did not answer", OffendingPlayer: "P02", Offenders: []string{"P02"}}}},
			empty: func() protocol.Message { return &protocol.MatchResultReport{} },
			wire: map[string]any{"result.status": "TECHNICAL_LOSS", "result.details.technical_loss": true,
				"result.details.offending_player": "P02", "result.details.reason": "P02 did not answer"},
		},
		{
			name:  "LEAGUE_STANDINGS_UPDATE",
			msg:   &protocol.StandingsUpdate{Envelope: env(protocol.TypeStandingsUpdate, "league_manager", 3, ""), Standings: rows},
			empty: func() protocol.Message { return &protocol.StandingsUpdate{} },
			wire: map[string]any{"standings.0.rank": 1.0, "standings.0.player_id": "P02", "standings.0.display_name": "Bravo",
				"standings.0.played": 3.0, "standings.0.wins": 2.0, "standings.0.draws": 0.0, "standings.0.losses": 1.0,
				"standings.0.points": 6.0, "standings.1.technical_losses": 1.0},
		},
		{
			name: "ROUND_COMPLETED",
			msg: &protocol.RoundCompleted{Envelope: env(protocol.TypeRoundCompleted, "league_manager", 1, ""), MatchesCompleted: 2,
				MatchesPlayed: 2, NextRoundID: &next, Summary: protocol.RoundSummary{TotalMatches: 2, Wins: 1, Draws: 1}},
			empty: func() protocol.Message { return &protocol.RoundCompleted{} },
			wire: map[string]any{"matches_completed": 2.0, "matches_played": 2.0, "next_round_id": 2.0,
				"summary.total_matches": 2.0, "summary.wins": 1.0, "summary.draws": 1.0, "summary.technical_losses": 0.0},
		},
		{
			name: "ROUND_COMPLETED last round",
			msg: &protocol.RoundCompleted{Envelope: env(protocol.TypeRoundCompleted, "league_manager", 3, ""), MatchesCompleted: 2,
				MatchesPlayed: 2, Summary: protocol.RoundSummary{TotalMatches: 2, Wins: 2}},
			empty: func() protocol.Message { return &protocol.RoundCompleted{} },
			wire:  map[string]any{"next_round_id": nil},
		},
		{
			name: "LEAGUE_COMPLETED",
			msg: &protocol.LeagueCompleted{Envelope: env(protocol.TypeLeagueCompleted, "league_manager", 3, ""), TotalRounds: 3,
				TotalMatches: 6, Champion: protocol.Champion{PlayerID: "P02", DisplayName: "Bravo", Points: 6}, FinalStandings: rows},
			empty: func() protocol.Message { return &protocol.LeagueCompleted{} },
			wire: map[string]any{"total_rounds": 3.0, "total_matches": 6.0, "champion.player_id": "P02", "champion.points": 6.0,
				"final_standings.0.rank": 1.0, "final_standings.1.player_id": "P01"},
		},
		{
			name: "LEAGUE_QUERY",
			msg: &protocol.LeagueQuery{Envelope: env(protocol.TypeLeagueQuery, "player:P01", 0, ""), QueryType: protocol.QueryNextMatch,
				QueryParams: map[string]any{"player_id": "P01"}},
			empty: func() protocol.Message { return &protocol.LeagueQuery{} },
			wire:  map[string]any{"query_type": "GET_NEXT_MATCH", "query_params.player_id": "P01"},
		},
		{
			name: "LEAGUE_QUERY_RESPONSE",
			msg: &protocol.LeagueQueryResponse{Envelope: env(protocol.TypeLeagueQueryResponse, "league_manager", 0, ""),
				QueryType: protocol.QueryStandings, Success: true,
				Data: map[string]any{"next_match": map[string]any{"match_id": "R2M1", "round_id": 2.0}}, Standings: rows},
			empty: func() protocol.Message { return &protocol.LeagueQueryResponse{} },
			wire: map[string]any{"query_type": "GET_STANDINGS", "success": true, "data.next_match.match_id": "R2M1",
				"standings.0.player_id": "P02"},
		},
		{
			name: "GAME_ERROR",
			msg: &protocol.GameError{Envelope: env(protocol.TypeGameError, "referee:REF01", 1, "R1M1"), ErrorCode: protocol.CodeTimeout,
				ErrorName: "TIMEOUT_ERROR", ErrorDescription: "no answer in 30 s", AffectedPlayer: "P02", PlayerID: "P02",
				ActionRequired: "CHOOSE_PARITY_RESPONSE", GameState: "COLLECTING_CHOICES", Retryable: true, RetryCount: 1, MaxRetries: 3,
				RetryInfo:   protocol.RetryInfo{RetryCount: 1, MaxRetries: 3, NextRetryAt: "2025-01-15T10:00:32Z"},
				Consequence: "technical loss"},
			empty: func() protocol.Message { return &protocol.GameError{} },
			wire: map[string]any{"error_code": "E001", "error_name": "TIMEOUT_ERROR", "affected_player": "P02", "player_id": "P02",
				"action_required": "CHOOSE_PARITY_RESPONSE", "game_state": "COLLECTING_CHOICES", "retryable": true,
				"retry_count": 1.0, "max_retries": 3.0, "retry_info.retry_count": 1.0, "retry_info.max_retries": 3.0},
		},
		{
			name: "MATCH_STEP",
			msg: &protocol.MatchStep{Envelope: env(protocol.TypeMatchStep, "referee:REF01", 1, "R1M1"), Step: "drawn 8",
				Detail: "P01 wins"},
			empty: func() protocol.Message { return &protocol.MatchStep{} },
			wire:  map[string]any{"step": "drawn 8", "detail": "P01 wins", "match_id": "R1M1"},
		},
		{
			name:  "START_LEAGUE",
			msg:   &protocol.StartLeague{Envelope: env(protocol.TypeStartLeague, "admin:console", 0, "")},
			empty: func() protocol.Message { return &protocol.StartLeague{} },
			wire:  map[string]any{"message_type": "START_LEAGUE", "auth_token": "tok-p01-abc123"},
		},
		{
			name:  "ack",
			msg:   &protocol.Ack{Envelope: env(protocol.TypeMatchResultAck, "league_manager", 1, "R1M1"), Status: "RECEIVED"},
			empty: func() protocol.Message { return &protocol.Ack{} },
			wire:  map[string]any{"message_type": "MATCH_RESULT_ACK", "status": "RECEIVED"},
		},
		{
			name: "LEAGUE_ERROR",
			msg: &protocol.LeagueError{Envelope: env(protocol.TypeLeagueError, "league_manager", 0, ""), ErrorCode: "E012",
				ErrorName: "AUTH_TOKEN_INVALID", ErrorDescription: "auth_token is not valid for player:P01",
				OriginalMessageType: "LEAGUE_QUERY", Context: map[string]any{"sender": "player:P01"}, Retryable: false},
			empty: func() protocol.Message { return &protocol.LeagueError{} },
			wire: map[string]any{"error_code": "E012", "error_name": "AUTH_TOKEN_INVALID", "original_message_type": "LEAGUE_QUERY",
				"context.sender": "player:P01", "retryable": false},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			raw, err := json.Marshal(tt.msg)
			if err != nil {
				t.Fatal(err)
			}
			var wire map[string]any
			if err := json.Unmarshal(raw, &wire); err != nil {
				t.Fatal(err)
			}
			for path, want := range tt.wire {
				got, ok := lookup(wire, path)
				if !ok {
					t.Errorf("no %q on the wire: %s", path, raw)
					continue
				}
				if !reflect.DeepEqual(got, want) {
					t.Errorf("%s = %#v on the wire, want %#v", path, got, want)
				}
			}
			// Every message carries the flat envelope, with a timestamp in
			// the one form strict peers accept.
			for _, key := range []string{"protocol", "message_type", "sender", "timestamp", "conversation_id"} {
				if _, ok := wire[key]; !ok {
					t.Errorf("envelope field %q missing: %s", key, raw)
				}
			}
			if ts, _ := wire["timestamp"].(string); !specTimestamp.MatchString(ts) {
				t.Errorf("timestamp %q does not match %s", ts, specTimestamp)
			}
			for _, nested := range []string{"envelope", "payload"} {
				if _, ok := wire[nested]; ok {
					t.Errorf("the envelope must be flat, found %q: %s", nested, raw)
				}
			}

			got := tt.empty()
			if err := protocol.Decode(raw, got); err != nil {
				t.Fatalf("Decode: %v\n%s", err, raw)
			}
			if !reflect.DeepEqual(got, tt.msg) {
				back, _ := json.Marshal(got)
				t.Errorf("round trip changed the message\nsent:    %s\ndecoded: %s\n%#v\n%#v", raw, back, tt.msg, got)
			}
		})
	}
}

func TestEncodeRequestUsesIntegerIDAndFlatParams(t *testing.T) {
	msg := &protocol.MoveCall{Envelope: env(protocol.TypeChooseParityCall, "referee:REF01", 1, "R1M1"), PlayerID: "P01"}
	raw, err := protocol.EncodeRequest("choose_parity", msg, 1001)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(raw), `"id":1001`) {
		t.Errorf("request id is not the integer 1001: %s", raw)
	}
	var req struct {
		JSONRPC string         `json:"jsonrpc"`
		Method  string         `json:"method"`
		ID      any            `json:"id"`
		Params  map[string]any `json:"params"`
	}
	if err := json.Unmarshal(raw, &req); err != nil {
		t.Fatal(err)
	}
	if req.JSONRPC != "2.0" || req.Method != "choose_parity" || req.ID != 1001.0 {
		t.Errorf("framing = %q %q %#v, want 2.0 choose_parity 1001", req.JSONRPC, req.Method, req.ID)
	}
	if req.Params["message_type"] != "CHOOSE_PARITY_CALL" || req.Params["match_id"] != "R1M1" {
		t.Errorf("params are not the flat league message: %v", req.Params)
	}
}

// TestDecodeLiberal reads the field spellings other implementations send
// (protocol.md §8 and §9).
func TestDecodeLiberal(t *testing.T) {
	tests := []struct {
		name  string
		body  string
		into  protocol.Message
		check func(t *testing.T, msg protocol.Message)
	}{
		{
			name: "supported_games for game_types",
			body: `{"message_type":"LEAGUE_REGISTER_REQUEST","sender":"player:alpha","player_meta":{"display_name":"A","version":"1","supported_games":["even_odd"],"contact_endpoint":"http://x/mcp"}}`,
			into: &protocol.LeagueRegisterRequest{},
			check: func(t *testing.T, m protocol.Message) {
				if got := m.(*protocol.LeagueRegisterRequest).PlayerMeta.GameTypes; !reflect.DeepEqual(got, []string{"even_odd"}) {
					t.Errorf("game_types = %v", got)
				}
			},
		},
		{
			name: "referee supported_games",
			body: `{"referee_meta":{"display_name":"R","supported_games":["even_odd"],"contact_endpoint":"http://r/mcp"}}`,
			into: &protocol.RefereeRegisterRequest{},
			check: func(t *testing.T, m protocol.Message) {
				meta := m.(*protocol.RefereeRegisterRequest).RefereeMeta
				if !reflect.DeepEqual(meta.GameTypes, []string{"even_odd"}) || meta.ContactEndpoint != "http://r/mcp" {
					t.Errorf("referee_meta = %+v", meta)
				}
			},
		},
		{name: "accepted true", body: `{"match_id":"R1M1","accepted":true}`, into: &protocol.GameJoinAck{}, check: wantAccept(true)},
		{name: "accepted false", body: `{"match_id":"R1M1","accepted":false}`, into: &protocol.GameJoinAck{}, check: wantAccept(false)},
		{name: "accept false", body: `{"match_id":"R1M1","accept":false}`, into: &protocol.GameJoinAck{}, check: wantAccept(false)},
		{name: "missing accept means joined", body: `{"message_type":"GAME_JOIN_ACK","match_id":"R1M1","player_id":"P01"}`,
			into: &protocol.GameJoinAck{}, check: wantAccept(true)},
		{name: "choice", body: `{"choice":"even"}`, into: &protocol.MoveAnswer{}, check: wantChoice("even")},
		{name: "move_data.choice", body: `{"message_type":"GAME_MOVE_RESPONSE","move_data":{"move_type":"choose_parity","choice":"odd"}}`,
			into: &protocol.MoveAnswer{}, check: wantChoice("odd")},
		{name: "choice with case and spaces", body: `{"parity_choice":" EVEN "}`, into: &protocol.MoveAnswer{}, check: wantChoice("even")},
		{name: "parity", body: `{"parity":"Odd"}`, into: &protocol.MoveAnswer{}, check: wantChoice("odd")},
		{name: "parity_choice wins over choice", body: `{"parity_choice":"odd","choice":"even"}`, into: &protocol.MoveAnswer{}, check: wantChoice("odd")},
		{
			name: "player_a_id in an announcement",
			body: `{"round_id":1,"matches":[{"match_id":"R1M1","game_type":"even_odd","player_a_id":"P01","player_b_id":"P02","referee_endpoint":"http://r/mcp"}]}`,
			into: &protocol.RoundAnnouncement{},
			check: func(t *testing.T, m protocol.Message) {
				got := m.(*protocol.RoundAnnouncement).Matches
				if len(got) != 1 || got[0].PlayerAID != "P01" || got[0].PlayerBID != "P02" {
					t.Errorf("matches = %+v", got)
				}
			},
		},
		{
			name: "player_a_id and player_a_endpoint in run_match",
			body: `{"match_id":"R1M1","game_type":"even_odd","player_a_id":"P01","player_b_id":"P02","player_a_endpoint":"http://a/mcp","player_b_endpoint":"http://b/mcp"}`,
			into: &protocol.StartMatch{},
			check: func(t *testing.T, m protocol.Message) {
				s := m.(*protocol.StartMatch)
				if s.PlayerAID != "P01" || s.PlayerBID != "P02" || s.PlayerAEndpoint != "http://a/mcp" || s.PlayerBEndpoint != "http://b/mcp" {
					t.Errorf("start = %+v", s)
				}
			},
		},
		{name: "numeric-string round_id", body: `{"round_id":"3"}`, into: &protocol.RoundAnnouncement{}, check: wantRound(3)},
		{name: "numeric round_id", body: `{"round_id":3}`, into: &protocol.RoundAnnouncement{}, check: wantRound(3)},
		{name: "null round_id", body: `{"round_id":null}`, into: &protocol.RoundAnnouncement{}, check: wantRound(0)},
		{
			name: "winner DRAW is no winner",
			body: `{"match_id":"R1M1","result":{"winner":"DRAW","score":{"P01":1,"P02":1}}}`,
			into: &protocol.MatchResultReport{},
			check: func(t *testing.T, m protocol.Message) {
				if w := m.(*protocol.MatchResultReport).Result.Winner; w != nil {
					t.Errorf("winner = %q, want none", *w)
				}
			},
		},
		{
			name: "winner_id for winner",
			body: `{"match_id":"R1M1","result":{"winner_id":"P02","score":{"P01":0,"P02":3}}}`,
			into: &protocol.MatchResultReport{},
			check: func(t *testing.T, m protocol.Message) {
				if w := m.(*protocol.MatchResultReport).Result.Winner; w == nil || *w != "P02" {
					t.Errorf("winner = %v, want P02", w)
				}
			},
		},
		{
			name: "game_id for match_id",
			body: `{"type":"GAME_INVITATION","game_id":"R2M1","role":"PLAYER_B","opponent":"P03"}`,
			into: &protocol.GameInvitation{},
			check: func(t *testing.T, m protocol.Message) {
				inv := m.(*protocol.GameInvitation)
				if inv.MatchID != "R2M1" || inv.MessageType != "GAME_INVITATION" || inv.RoleInMatch != "PLAYER_B" || inv.OpponentID != "P03" {
					t.Errorf("invitation = %+v", inv)
				}
			},
		},
		{
			name: "v1 join ack",
			body: `{"type":"GAME_JOIN_ACK","game_id":"R2M1","player_id":"P01","accepted":true}`,
			into: &protocol.GameJoinAck{},
			check: func(t *testing.T, m protocol.Message) {
				ack := m.(*protocol.GameJoinAck)
				if ack.MatchID != "R2M1" || !ack.Accept || ack.MessageType != "GAME_JOIN_ACK" {
					t.Errorf("ack = %+v", ack)
				}
			},
		},
		{
			name: "v1 choice",
			body: `{"type":"RESPONSE_PARITY_CHOOSE","game_id":"R2M1","choice":"ODD"}`,
			into: &protocol.MoveAnswer{},
			check: func(t *testing.T, m protocol.Message) {
				r := m.(*protocol.MoveAnswer)
				if r.MatchID != "R2M1" || r.Choice != "odd" {
					t.Errorf("response = %+v", r)
				}
			},
		},
		{
			name: "token for auth_token",
			body: `{"status":"ACCEPTED","player_id":"P07","token":"tok-7"}`,
			into: &protocol.RegisterResponse{},
			check: func(t *testing.T, m protocol.Message) {
				if r := m.(*protocol.RegisterResponse); r.AuthToken != "tok-7" || r.PlayerID != "P07" {
					t.Errorf("response = %+v", r)
				}
			},
		},
		{
			name: "winner for winner_player_id in game_result",
			body: `{"game_result":{"status":"WIN","winner":"P02","choices":{"P01":"odd","P02":"even"},"drawn_number":4}}`,
			into: &protocol.GameOver{},
			check: func(t *testing.T, m protocol.Message) {
				gr := m.(*protocol.GameOver).GameResult
				if gr.WinnerPlayerID == nil || *gr.WinnerPlayerID != "P02" || gr.Details["drawn_number"] != 4.0 {
					t.Errorf("game_result = %+v", gr)
				}
				if _, leaked := gr.Details["winner"]; leaked {
					t.Errorf("winner kept as a game detail: %v", gr.Details)
				}
			},
		},
		{
			name: "query params",
			body: `{"query_type":"GET_PLAYER_STATS","params":{"player_id":"P02"}}`,
			into: &protocol.LeagueQuery{},
			check: func(t *testing.T, m protocol.Message) {
				if q := m.(*protocol.LeagueQuery); q.QueryParams["player_id"] != "P02" {
					t.Errorf("query = %+v", q)
				}
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if err := protocol.Decode([]byte(tt.body), tt.into); err != nil {
				t.Fatalf("Decode(%s): %v", tt.body, err)
			}
			tt.check(t, tt.into)
		})
	}
}

func wantAccept(want bool) func(*testing.T, protocol.Message) {
	return func(t *testing.T, m protocol.Message) {
		t.Helper()
		if got := m.(*protocol.GameJoinAck).Accept; got != want {
			t.Errorf("accept = %v, want %v", got, want)
		}
	}
}

func wantChoice(want string) func(*testing.T, protocol.Message) {
	return func(t *testing.T, m protocol.Message) {
		t.Helper()
		if got := m.(*protocol.MoveAnswer).Choice; got != want {
			t.Errorf("parity_choice = %q, want %q", got, want)
		}
	}
}

func wantRound(want int) func(*testing.T, protocol.Message) {
	return func(t *testing.T, m protocol.Message) {
		t.Helper()
		if got := m.Header().RoundID; int(got) != want {
			t.Errorf("round_id = %d, want %d", got, want)
		}
	}
}

func TestDecodeRejects(t *testing.T) {
	tests := []struct {
		name string
		body string
		into protocol.Message
	}{
		{"not JSON", `{"match_id":`, &protocol.GameInvitation{}},
		{"not an object", `["GAME_INVITATION"]`, &protocol.GameInvitation{}},
		{"round_id not a number", `{"round_id":"three"}`, &protocol.RoundAnnouncement{}},
		{"choice not an object", `[1]`, &protocol.MoveAnswer{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if err := protocol.Decode([]byte(tt.body), tt.into); err == nil {
				t.Errorf("Decode(%s) = nil error, want one", tt.body)
			}
		})
	}
}

// TestRoute finds the league message and its type inside every wrapper
// peers use (protocol.md §8, "Dispatch key order").
func TestRoute(t *testing.T) {
	tests := []struct {
		name     string
		method   string
		params   string
		wantType string
		wantTool bool
		// wantField is a field the routed body must hold, as key=value.
		wantField string
	}{
		{name: "SPEC method", method: "handle_game_invitation", params: `{"message_type":"GAME_INVITATION","match_id":"R1M1"}`,
			wantType: "GAME_INVITATION", wantField: "match_id=R1M1"},
		{name: "message_type wins over the method", method: "notify_round", params: `{"message_type":"GAME_OVER","match_id":"R1M1"}`,
			wantType: "GAME_OVER"},
		{name: "lower-case message_type", method: "anything", params: `{"message_type":"game_invitation"}`, wantType: "GAME_INVITATION"},
		{name: "v1 type field", method: "anything", params: `{"type":"GAME_OVER"}`, wantType: "GAME_OVER"},
		{name: "tools/call", method: "tools/call",
			params:   `{"name":"choose_parity","arguments":{"message_type":"CHOOSE_PARITY_CALL","match_id":"R1M2"}}`,
			wantType: "CHOOSE_PARITY_CALL", wantTool: true, wantField: "match_id=R1M2"},
		{name: "tools/call without message_type uses the tool name", method: "tools/call",
			params: `{"name":"notify_match_result","arguments":{"match_id":"R1M3"}}`, wantType: "GAME_OVER", wantTool: true,
			wantField: "match_id=R1M3"},
		{name: "mcp_message", method: "mcp_message", params: `{"message":{"message_type":"GAME_JOIN_ACK","match_id":"R1M1"}}`,
			wantType: "GAME_JOIN_ACK", wantField: "match_id=R1M1"},
		{name: "protocol/message", method: "protocol/message", params: `{"message":{"message_type":"LEAGUE_QUERY","query_type":"GET_STANDINGS"}}`,
			wantType: "LEAGUE_QUERY", wantField: "query_type=GET_STANDINGS"},
		{name: "handle_message", method: "handle_message", params: `{"message":{"message_type":"ROUND_ANNOUNCEMENT","league_id":"L"}}`,
			wantType: "ROUND_ANNOUNCEMENT", wantField: "league_id=L"},
		{name: "handle_message with a flat message", method: "handle_message", params: `{"message_type":"ROUND_COMPLETED","league_id":"L"}`,
			wantType: "ROUND_COMPLETED", wantField: "league_id=L"},
		{name: "league.handle envelope and payload", method: "league.handle",
			params:   `{"envelope":{"message_type":"LEAGUE_QUERY","sender":"player:P01"},"payload":{"query_type":"GET_STANDINGS"}}`,
			wantType: "LEAGUE_QUERY", wantField: "query_type=GET_STANDINGS"},
		{name: "league.handle keeps the envelope", method: "league.handle",
			params:   `{"envelope":{"message_type":"LEAGUE_QUERY","sender":"player:P01"},"payload":{"query_type":"GET_STANDINGS"}}`,
			wantType: "LEAGUE_QUERY", wantField: "sender=player:P01"},
		{name: "UPPER method", method: "GAME_INVITATION", params: `{"match_id":"R1M1"}`, wantType: "GAME_INVITATION"},
		{name: "UPPER method CHOOSE_PARITY_CALL", method: "CHOOSE_PARITY_CALL", params: `{}`, wantType: "CHOOSE_PARITY_CALL"},
		{name: "snake method", method: "game_over", params: `{"match_id":"R1M1"}`, wantType: "GAME_OVER"},
		{name: "snake method of a report", method: "match_result_report", params: `{}`, wantType: "MATCH_RESULT_REPORT"},
		{name: "parity_choose", method: "parity_choose", params: `{"match_id":"R1M1"}`, wantType: "CHOOSE_PARITY_CALL"},
		{name: "receive_game_join_ack", method: "receive_game_join_ack", params: `{"match_id":"R1M1"}`, wantType: "GAME_JOIN_ACK"},
		{name: "receive_parity_response", method: "receive_parity_response", params: `{}`, wantType: "CHOOSE_PARITY_RESPONSE"},
		{name: "GAME_MOVE_CALL", method: "x", params: `{"message_type":"GAME_MOVE_CALL"}`, wantType: "GAME_MOVE_CALL"},
		{name: "RESPONSE_PARITY_CHOOSE", method: "x", params: `{"message_type":"RESPONSE_PARITY_CHOOSE"}`, wantType: "CHOOSE_PARITY_RESPONSE"},
		{name: "run_match", method: "run_match", params: `{}`, wantType: "START_MATCH"},
		{name: "ping without params", method: "ping", params: ``, wantType: "PING"},
		{name: "unknown method", method: "frobnicate", params: `{"x":1}`, wantType: ""},
		{name: "unknown message_type and method", method: "frobnicate", params: `{"message_type":"NOT_A_MESSAGE"}`, wantType: ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in, ok := protocol.Route(tt.method, json.RawMessage(tt.params))
			if ok != (tt.wantType != "") || in.MessageType != tt.wantType {
				t.Fatalf("Route(%q, %s) = %q, %v; want %q", tt.method, tt.params, in.MessageType, ok, tt.wantType)
			}
			if in.ViaTool != tt.wantTool || in.Method != tt.method {
				t.Errorf("ViaTool = %v, Method = %q; want %v, %q", in.ViaTool, in.Method, tt.wantTool, tt.method)
			}
			var body map[string]any
			if err := json.Unmarshal(in.Body, &body); err != nil {
				t.Fatalf("routed body is not an object: %s", in.Body)
			}
			if tt.wantField != "" {
				key, value, _ := strings.Cut(tt.wantField, "=")
				if body[key] != value {
					t.Errorf("routed body %s has %s = %v, want %q", in.Body, key, body[key], value)
				}
			}
		})
	}
}

// TestParseReply reads every reply form peers answer with (protocol.md §1
// and §9 #18).
func TestParseReply(t *testing.T) {
	ack := `{"message_type":"GAME_JOIN_ACK","match_id":"R1M1","player_id":"P01","accept":true}`
	quoted, _ := json.Marshal(ack)
	tests := []struct {
		name      string
		body      string
		wantType  string // message_type of the message returned
		wantRaw   string // or the exact raw result
		wantRPC   int    // or a JSON-RPC error with this code
		wantCode  string // or a LEAGUE_ERROR with this code
		wantError bool   // or some other error
	}{
		{name: "JSON-RPC result", body: `{"jsonrpc":"2.0","result":` + ack + `,"id":1}`, wantType: "GAME_JOIN_ACK"},
		{name: "bare message (SPEC 5.3.2 sample)", body: ack, wantType: "GAME_JOIN_ACK"},
		{name: "MCP content text", body: `{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":` + string(quoted) + `}]}}`,
			wantType: "GAME_JOIN_ACK"},
		{name: "MCP structuredContent", body: `{"jsonrpc":"2.0","id":1,"result":{"structuredContent":` + ack +
			`,"content":[{"type":"text","text":"joined"}]}}`, wantType: "GAME_JOIN_ACK"},
		{name: "JSON-RPC error", body: `{"jsonrpc":"2.0","id":1,"error":{"code":-32601,"message":"Method not found"}}`, wantRPC: -32601},
		{name: "JSON-RPC error beside a null result", body: `{"jsonrpc":"2.0","id":1,"result":null,"error":{"code":-32602,"message":"bad"}}`, wantRPC: -32602},
		{name: "LEAGUE_ERROR result", body: `{"jsonrpc":"2.0","id":1,"result":{"message_type":"LEAGUE_ERROR","error_code":"E012","error_name":"AUTH_TOKEN_INVALID"}}`,
			wantCode: "E012"},
		{name: "LEAGUE_ERROR in MCP content", body: `{"jsonrpc":"2.0","id":1,"result":{"isError":true,"content":[{"type":"text","text":` +
			mustQuote(`{"message_type":"LEAGUE_ERROR","error_code":"E011"}`) + `}]}}`, wantCode: "E011"},
		{name: "MCP tool error text", body: `{"jsonrpc":"2.0","id":1,"result":{"isError":true,"content":[{"type":"text","text":"boom"}]}}`,
			wantError: true},
		{name: "plain acknowledgement", body: `{"jsonrpc":"2.0","id":1,"result":{"status":"ok"}}`, wantRaw: `{"status":"ok"}`},
		{name: "plain value", body: `{"jsonrpc":"2.0","id":1,"result":"ok"}`, wantRaw: `"ok"`},
		{name: "bare acknowledgement (SPEC 5.3.2 sample)", body: `{"status":"ok"}`, wantRaw: `{"status":"ok"}`},
		{name: "neither result nor error", body: `{"jsonrpc":"2.0","id":1}`, wantError: true},
		{name: "status beside a JSON-RPC frame is no bare reply", body: `{"jsonrpc":"2.0","id":1,"status":"ok"}`, wantError: true},
		{name: "a web framework's error body", body: `{"detail":"Not Found"}`, wantError: true},
		{name: "not JSON", body: `<html>502 Bad Gateway</html>`, wantError: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := protocol.ParseReply([]byte(tt.body))
			var rpcErr *protocol.RPCError
			var leagueErr *protocol.LeagueError
			switch {
			case tt.wantRPC != 0:
				if !errors.As(err, &rpcErr) || rpcErr.Code != tt.wantRPC {
					t.Errorf("ParseReply = %s, %v; want JSON-RPC error %d", got, err, tt.wantRPC)
				}
			case tt.wantCode != "":
				if !errors.As(err, &leagueErr) || leagueErr.ErrorCode != tt.wantCode {
					t.Errorf("ParseReply = %s, %v; want LEAGUE_ERROR %s", got, err, tt.wantCode)
				}
			case tt.wantError:
				if err == nil || errors.As(err, &rpcErr) || errors.As(err, &leagueErr) {
					t.Errorf("ParseReply = %s, %v; want a plain error", got, err)
				}
			case tt.wantRaw != "":
				if err != nil || string(got) != tt.wantRaw {
					t.Errorf("ParseReply = %s, %v; want %s", got, err, tt.wantRaw)
				}
			default:
				var msg struct {
					MessageType string `json:"message_type"`
					MatchID     string `json:"match_id"`
				}
				if err != nil || json.Unmarshal(got, &msg) != nil || msg.MessageType != tt.wantType || msg.MatchID != "R1M1" {
					t.Errorf("ParseReply = %s, %v; want the %s message", got, err, tt.wantType)
				}
			}
		})
	}
}

func mustQuote(s string) string {
	q, _ := json.Marshal(s)
	return string(q)
}

func TestParseRequest(t *testing.T) {
	tests := []struct {
		name string
		body string
		code int // 0: valid
	}{
		{"valid", `{"jsonrpc":"2.0","method":"ping","id":1}`, 0},
		{"missing jsonrpc is tolerated", `{"method":"ping","id":1}`, 0},
		{"null params", `{"jsonrpc":"2.0","method":"ping","params":null,"id":1}`, 0},
		{"invalid JSON", `{"jsonrpc":"2.0","method":`, protocol.CodeParseError},
		{"wrong jsonrpc", `{"jsonrpc":"1.0","method":"ping","id":1}`, protocol.CodeInvalidRequest},
		{"missing method", `{"jsonrpc":"2.0","id":1}`, protocol.CodeInvalidRequest},
		{"method not a string", `{"jsonrpc":"2.0","method":7,"id":1}`, protocol.CodeInvalidRequest},
		{"batch", `[{"jsonrpc":"2.0","method":"ping","id":1}]`, protocol.CodeInvalidRequest},
		{"params an array", `{"jsonrpc":"2.0","method":"ping","params":[1,2],"id":1}`, protocol.CodeInvalidParams},
		{"params a string", `{"jsonrpc":"2.0","method":"ping","params":"x","id":1}`, protocol.CodeInvalidParams},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, rpcErr := protocol.ParseRequest([]byte(tt.body))
			switch {
			case tt.code == 0 && rpcErr != nil:
				t.Errorf("ParseRequest(%s) = %v, want valid", tt.body, rpcErr)
			case tt.code != 0 && (rpcErr == nil || rpcErr.Code != tt.code):
				t.Errorf("ParseRequest(%s) = %v, want code %d", tt.body, rpcErr, tt.code)
			}
		})
	}
}

func TestTimestamps(t *testing.T) {
	if got := protocol.FormatTime(time.Date(2025, 1, 15, 12, 0, 0, 123456789, time.FixedZone("IST", 2*3600))); got != "2025-01-15T10:00:00Z" {
		t.Errorf("FormatTime = %q, want 2025-01-15T10:00:00Z (UTC, no fraction)", got)
	}
	want := time.Date(2025, 1, 15, 10, 30, 0, 0, time.UTC)
	tests := []struct {
		in        string
		utc       bool
		nonUTC    bool // HasNonUTCOffset
		wantError bool
	}{
		{in: "2025-01-15T10:30:00Z", utc: true},
		{in: "2025-01-15T10:30:00+00:00", utc: true},
		{in: "2025-01-15T10:30:00.000000Z", utc: true},
		{in: "2025-01-15T10:30:00.000+00:00", utc: true},
		{in: "20250115T103000Z", utc: true},
		{in: "2025-01-15T12:30:00+02:00", utc: false, nonUTC: true},
		{in: "2025-01-15T10:30:00", utc: false},
		{in: "2025-01-15T10:30:00.000000", utc: false},
		{in: "yesterday", wantError: true},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, utc, err := protocol.ParseTime(tt.in)
			if tt.wantError {
				if err == nil {
					t.Errorf("ParseTime(%q) = %v, want an error", tt.in, got)
				}
				return
			}
			if err != nil || !got.Equal(want) || utc != tt.utc {
				t.Errorf("ParseTime(%q) = %v, utc %v, %v; want %v, utc %v", tt.in, got, utc, err, want, tt.utc)
			}
			if nonUTC := protocol.HasNonUTCOffset(tt.in); nonUTC != tt.nonUTC {
				t.Errorf("HasNonUTCOffset(%q) = %v, want %v", tt.in, nonUTC, tt.nonUTC)
			}
		})
	}
}

func TestSenderID(t *testing.T) {
	tests := map[string]string{
		"player:P01":            "P01",
		"referee:REF02":         "REF02",
		"league_manager":        "league_manager",
		"league_manager:LM01":   "league_manager",
		"league:league_manager": "league_manager",
	}
	for sender, want := range tests {
		if got := (protocol.Envelope{Sender: sender}).SenderID(); got != want {
			t.Errorf("SenderID(%q) = %q, want %q", sender, got, want)
		}
	}
}
