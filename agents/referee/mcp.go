package referee

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"
	"time"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/leaguetui/leaguetui/agents/mcpserve"
	"github.com/leaguetui/leaguetui/agents/protocol"
)

// MatchState is what the get_match_state tool answers: where a match this
// referee runs (or ran) stands, as of its last step.
type MatchState struct {
	MatchID   string                `json:"match_id"`
	RoundID   int                   `json:"round_id"`
	GameType  string                `json:"game_type"`
	PlayerAID string                `json:"player_A_id"`
	PlayerBID string                `json:"player_B_id"`
	State     string                `json:"state"` // WAITING_FOR_PLAYERS, COLLECTING_CHOICES, FINISHED
	Step      string                `json:"step"`  // assigned, invited, joined, choosing, drawn N, finished
	Detail    string                `json:"detail,omitempty"`
	Pending   []string              `json:"pending"` // players the current step still waits for
	Result    *protocol.MatchResult `json:"result,omitempty"`
	UpdatedAt string                `json:"updated_at"`
}

// matchStates keeps the last state of every match this referee was given.
// It holds snapshots, not the matches: reading one never races a match
// in progress, and a finished match costs a few fields.
type matchStates struct {
	mu   sync.Mutex
	byID map[string]MatchState
}

func newMatchStates() *matchStates { return &matchStates{byID: map[string]MatchState{}} }

// record snapshots run after a step. It runs on the match's own goroutine,
// between steps, when nothing else touches the match.
func (s *matchStates) record(run *matchRun, step, detail string) {
	players := run.match.Players()
	st := MatchState{MatchID: run.start.MatchID, RoundID: int(run.start.RoundID), GameType: run.game.Type(),
		PlayerAID: players[0], PlayerBID: players[1], State: string(run.match.State()), Step: step, Detail: detail,
		Pending: run.match.Pending(), UpdatedAt: protocol.FormatTime(time.Now())}
	if run.match.Done() {
		result := run.result(run.match.Outcome())
		st.Result = &result
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.byID[st.MatchID] = st
}

func (s *matchStates) get(matchID string) (MatchState, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	st, ok := s.byID[matchID]
	return st, ok
}

// mcpTools offers get_match_state beside the league operations.
func (r *Referee) mcpTools() {
	r.MCP.AddReadOnlyTool(mcpserve.Tool{Name: "get_match_state", Title: "Match state",
		Description: "Where a match this referee runs or ran stands: state, last step, whom it waits for, " +
			"and the result once decided.",
		Input: &jsonschema.Schema{Type: "object", Required: []string{"match_id"},
			Properties: map[string]*jsonschema.Schema{"match_id": {Type: "string", Description: "e.g. R1M1"}}},
		Call: r.matchStateTool})
}

func (r *Referee) matchStateTool(_ context.Context, args json.RawMessage) (any, error) {
	var in struct {
		MatchID string `json:"match_id"`
	}
	if err := json.Unmarshal(args, &in); err != nil {
		return nil, err
	}
	st, ok := r.states.get(in.MatchID)
	if !ok {
		return nil, fmt.Errorf("match %q was never given to this referee", in.MatchID)
	}
	return st, nil
}
