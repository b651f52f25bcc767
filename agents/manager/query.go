package manager

import (
	"context"
	"fmt"

	"github.com/leaguetui/leaguetui/agents/protocol"
	"github.com/leaguetui/leaguetui/agents/rpc"
	"github.com/leaguetui/leaguetui/engine"
)

// handleQuery answers LEAGUE_QUERY from a registered player or referee.
func (m *Manager) handleQuery(_ context.Context, in protocol.Inbound) (any, error) {
	var q protocol.LeagueQuery
	if err := rpc.DecodeParams(in, &q); err != nil {
		return nil, err
	}
	if err := checkEnvelope(q.Envelope); err != nil {
		return nil, err
	}
	kind, _ := protocol.SplitSender(q.Sender)
	asker, err := m.authenticate(q.Envelope, kind)
	if err != nil {
		return nil, err
	}
	resp := &protocol.LeagueQueryResponse{Envelope: m.reply(protocol.TypeLeagueQueryResponse, q.Envelope),
		QueryType: q.QueryType, Success: true}
	data, err := m.answer(q, asker)
	if err != nil {
		resp.Success, resp.Error = false, err.Error()
		return resp, nil
	}
	resp.Data = data
	if q.QueryType == protocol.QueryStandings {
		resp.Standings = data.(map[string]any)["standings"].([]protocol.StandingRow)
	}
	return resp, nil
}

func (m *Manager) answer(q protocol.LeagueQuery, asker engine.AgentInfo) (any, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	switch q.QueryType {
	case protocol.QueryStandings:
		return map[string]any{"standings": protocol.StandingRows(m.league.Table.Rows())}, nil
	case protocol.QuerySchedule:
		return map[string]any{"rounds": m.league.Rounds()}, nil
	case protocol.QueryNextMatch:
		return map[string]any{"next_match": m.nextMatchOf(asker.ID)}, nil
	case protocol.QueryPlayerStats:
		id := asker.ID
		if p, ok := q.QueryParams["player_id"].(string); ok && p != "" {
			id = p
		}
		row, ok := m.league.Table.Row(id)
		if !ok {
			return nil, fmt.Errorf("no player %q", id)
		}
		return map[string]any{"player_id": id, "stats": row}, nil
	case protocol.QueryPlayers:
		var players []map[string]string
		for _, p := range m.league.Players() {
			players = append(players, map[string]string{"player_id": p.ID, "display_name": p.DisplayName, "contact_endpoint": p.Endpoint})
		}
		return map[string]any{"players": players}, nil
	case protocol.QueryStatus:
		done, total := m.league.Progress()
		return map[string]any{"state": m.league.State, "current_round": m.league.CurrentRound(),
			"total_rounds": m.league.PlannedRounds(), "matches_done": done, "matches_total": total}, nil
	}
	return nil, fmt.Errorf("unknown query_type %q", q.QueryType)
}

// nextMatchOf finds a player's first match without a result, or nil.
func (m *Manager) nextMatchOf(playerID string) map[string]any {
	for n := 1; n <= m.league.RoundCount(); n++ {
		for _, p := range m.league.Round(n).Matches {
			rec, _ := m.league.Match(p.MatchID)
			if rec.Result != nil || (p.PlayerA != playerID && p.PlayerB != playerID) {
				continue
			}
			opponent := p.PlayerA
			if opponent == playerID {
				opponent = p.PlayerB
			}
			next := map[string]any{"match_id": p.MatchID, "round_id": p.Round, "opponent_id": opponent}
			if ref, ok := m.league.Agent(rec.Referee); ok {
				next["referee_endpoint"] = ref.Endpoint
			}
			return next
		}
	}
	return nil
}
