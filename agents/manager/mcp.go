package manager

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/leaguetui/leaguetui/agents/mcpserve"
	"github.com/leaguetui/leaguetui/agents/protocol"
	"github.com/leaguetui/leaguetui/engine"
)

// toolProbeTimeout bounds the tools/list probe at a player's registration:
// registration must stay fast, and the probe is only a courtesy.
const toolProbeTimeout = 2 * time.Second

// mcpTools offers the league's read-only views as MCP tools, beside the
// league operations every handler already is. They read what GET /standings
// and rounds.json show, and need no token.
func (m *Manager) mcpTools() {
	m.MCP.AddReadOnlyTool(mcpserve.Tool{Name: "get_standings", Title: "Standings",
		Description: "The standings now, ranked by points, then the league's tie-breakers (by default wins, draws, player id), with the league's progress.",
		Call:        func(context.Context, json.RawMessage) (any, error) { return m.Standings(), nil }})
	m.MCP.AddReadOnlyTool(mcpserve.Tool{Name: "get_schedule", Title: "Schedule",
		Description: "Every round's matches with their referee and result so far (rounds.json).",
		Call:        func(context.Context, json.RawMessage) (any, error) { return m.Schedule(), nil }})
	m.MCP.AddReadOnlyTool(mcpserve.Tool{Name: "get_round_status", Title: "Round status",
		Description: "One round's matches and status (the current round unless round_id says which), " +
			"with the league's state and progress.",
		Input: &jsonschema.Schema{Type: "object", Properties: map[string]*jsonschema.Schema{
			"round_id": {Type: "integer", Description: "the round, 1, 2, …; default the current one"}}},
		Call: m.roundStatusTool})
}

// RoundStatus is what get_round_status answers.
type RoundStatus struct {
	LeagueID        string               `json:"league_id"`
	State           engine.LeagueState   `json:"state"`
	RoundsCompleted int                  `json:"rounds_completed"`
	RoundsTotal     int                  `json:"rounds_total"`
	MatchesDone     int                  `json:"matches_done"`
	MatchesTotal    int                  `json:"matches_total"`
	Round           *protocol.RoundEntry `json:"round"` // null before the league has a schedule
}

func (m *Manager) roundStatusTool(_ context.Context, args json.RawMessage) (any, error) {
	var in struct {
		RoundID int `json:"round_id"`
	}
	if len(args) > 0 {
		if err := json.Unmarshal(args, &in); err != nil {
			return nil, err
		}
	}
	return m.RoundStatus(in.RoundID)
}

// RoundStatus describes round (0: the first round not completed, or the last
// one once all are).
func (m *Manager) RoundStatus(round int) (RoundStatus, error) {
	standings, schedule := m.Standings(), m.Schedule()
	status := RoundStatus{LeagueID: standings.LeagueID, State: standings.State,
		RoundsCompleted: standings.RoundsCompleted, RoundsTotal: standings.RoundsTotal,
		MatchesDone: standings.MatchesDone, MatchesTotal: standings.MatchesTotal}
	rounds := schedule.Rounds
	switch {
	case round < 0 || round > len(rounds):
		return status, fmt.Errorf("no round %d: the league has %d", round, len(rounds))
	case len(rounds) == 0:
		return status, nil
	case round == 0:
		round = len(rounds)
		for _, r := range rounds {
			if r.Status != "COMPLETED" {
				round = r.RoundID
				break
			}
		}
	}
	status.Round = &rounds[round-1]
	return status, nil
}

// missingPlayerTools asks a registering player for its MCP tools and names
// those a referee will call that it lacks, so that the player hears it now
// and not halfway through a match. A player that does not answer tools/list
// (a plain JSON-RPC peer, or one too slow) is taken on trust: nil.
func (m *Manager) missingPlayerTools(ctx context.Context, endpoint string) []string {
	ctx, cancel := context.WithTimeout(ctx, toolProbeTimeout)
	defer cancel()
	tools, err := mcpserve.ListTools(ctx, endpoint)
	if err != nil {
		m.Log.Info("player's MCP tools not listed; taken as a plain JSON-RPC player", "event_type", "TOOLS_PROBE",
			"endpoint", endpoint, "err", err)
		return nil
	}
	return mcpserve.Missing(tools, mcpserve.PlayerTools(moveCallType(m.game)))
}

// moveCallType is the call the referees ask a game's moves with: a game of
// one choose_parity move has league.v2's own call, every other the generic
// one.
func moveCallType(g engine.Game) string {
	if one, ok := g.(engine.OneMoveGame); ok {
		return protocol.MoveCallType(one.MoveType())
	}
	return protocol.TypeGameMoveCall
}

// missingToolsReason is the REJECTED reason for a player without the tools.
func missingToolsReason(missing []string) string {
	return fmt.Sprintf("the player's MCP tools lack %s, which the referees call in every match",
		strings.Join(missing, ", "))
}
