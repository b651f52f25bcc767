package manager

import (
	"fmt"

	"github.com/leaguetui/leaguetui/agents/protocol"
	"github.com/leaguetui/leaguetui/engine"
)

// envelopeTo starts a manager message about a round or match.
func (m *Manager) envelopeTo(messageType string, round int, matchID string) protocol.Envelope {
	conv := fmt.Sprintf("conv-%s-r%d", messageType, round)
	if matchID != "" {
		conv = "conv-" + matchID + "-start"
	}
	env := protocol.NewEnvelope(messageType, protocol.SenderManager, conv)
	env.LeagueID, env.RoundID, env.MatchID = m.opts.Config.LeagueID, protocol.RoundID(round), matchID
	return env
}

// broadcast posts one message to each agent; msgFor builds each copy.
func (m *Manager) broadcast(agents []engine.AgentInfo, msgFor func(engine.AgentInfo) protocol.Message) {
	for _, a := range agents {
		m.post.Post(a.Endpoint, msgFor(a), m.opts.Config.Timeouts.Generic)
	}
}

// Above fullListPlayers players, what each round sends every player is cut
// to what that player needs: its round announcement lists the matches it
// plays (or referees), and its standings lists the leaders and its own row.
// Whole lists would make a round's broadcasts O(players²), so the cost of a
// match would grow with the league (half a million rows a round for 1,000
// players). Up to fullListPlayers, every message is whole, as in the
// specification's samples; either way it is a valid message.
const (
	fullListPlayers = 64
	leadersShown    = 10
)

// announceRound sends ROUND_ANNOUNCEMENT to every player and to each referee
// with matches in it, with the endpoints other referees rely on.
func (m *Manager) announceRound(round int, assigned []assignment) {
	m.mu.Lock()
	players := m.league.Players()
	matches := make([]protocol.AnnouncedMatch, len(assigned))
	for i, a := range assigned {
		pa, _ := m.league.Agent(a.PlayerA)
		pb, _ := m.league.Agent(a.PlayerB)
		matches[i] = protocol.AnnouncedMatch{MatchID: a.MatchID, GameType: m.game.Type(),
			PlayerAID: a.PlayerA, PlayerBID: a.PlayerB, RefereeEndpoint: a.Referee.Endpoint, RefereeID: a.Referee.ID,
			PlayerAEndpoint: pa.Endpoint, PlayerBEndpoint: pb.Endpoint}
	}
	m.mu.Unlock()
	refs := map[string]engine.AgentInfo{}
	for _, a := range assigned {
		refs[a.Referee.ID] = a.Referee
	}
	recipients := append(players, m.refereesIn(refs)...)
	matchesFor := func(engine.AgentInfo) []protocol.AnnouncedMatch { return matches }
	if len(players) > fullListPlayers {
		own := map[string][]protocol.AnnouncedMatch{}
		for _, am := range matches {
			for _, id := range []string{am.PlayerAID, am.PlayerBID, am.RefereeID} {
				own[id] = append(own[id], am)
			}
		}
		matchesFor = func(a engine.AgentInfo) []protocol.AnnouncedMatch {
			return append([]protocol.AnnouncedMatch{}, own[a.ID]...) // [] for a player with the bye
		}
	}
	m.broadcast(recipients, func(a engine.AgentInfo) protocol.Message {
		return &protocol.RoundAnnouncement{Envelope: m.envelopeTo(protocol.TypeRoundAnnouncement, round, ""), Matches: matchesFor(a)}
	})
}

// standingsFor returns, for each player, the standings rows its messages
// carry: all of them in a league of up to fullListPlayers, otherwise the
// leaders and the player's own row.
func standingsFor(rows []protocol.StandingRow) func(playerID string) []protocol.StandingRow {
	if len(rows) <= fullListPlayers {
		return func(string) []protocol.StandingRow { return rows }
	}
	leaders := rows[:leadersShown]
	index := make(map[string]int, len(rows))
	for i, r := range rows {
		index[r.PlayerID] = i
	}
	return func(playerID string) []protocol.StandingRow {
		i, ok := index[playerID]
		if !ok || i < leadersShown {
			return leaders
		}
		return append(leaders[:leadersShown:leadersShown], rows[i])
	}
}

// refereesIn keeps registration order for a set of referees.
func (m *Manager) refereesIn(set map[string]engine.AgentInfo) []engine.AgentInfo {
	m.mu.Lock()
	defer m.mu.Unlock()
	var out []engine.AgentInfo
	for _, r := range m.league.Referees() {
		if _, ok := set[r.ID]; ok {
			out = append(out, r)
		}
	}
	return out
}

func (m *Manager) broadcastStandings(round int) {
	m.mu.Lock()
	players, rows := m.league.Players(), standingRows(m.league.Table.Rows())
	m.mu.Unlock()
	rowsFor := standingsFor(rows)
	m.broadcast(players, func(a engine.AgentInfo) protocol.Message {
		return &protocol.StandingsUpdate{Envelope: m.envelopeTo(protocol.TypeStandingsUpdate, round, ""), Standings: rowsFor(a.ID)}
	})
}

func (m *Manager) broadcastRoundCompleted(round, totalRounds int, results []engine.Result) {
	summary := protocol.RoundSummary{TotalMatches: len(results)}
	for _, r := range results {
		switch r.Status {
		case engine.StatusWin:
			summary.Wins++
		case engine.StatusDraw:
			summary.Draws++
		case engine.StatusTechnicalLoss:
			summary.TechnicalLosses++
		}
	}
	var next *int
	if round < totalRounds {
		n := round + 1
		next = &n
	}
	m.mu.Lock()
	players := m.league.Players()
	m.mu.Unlock()
	m.broadcast(players, func(engine.AgentInfo) protocol.Message {
		return &protocol.RoundCompleted{Envelope: m.envelopeTo(protocol.TypeRoundCompleted, round, ""),
			MatchesCompleted: len(results), MatchesPlayed: len(results), NextRoundID: next, Summary: summary}
	})
}

func (m *Manager) broadcastLeagueCompleted() {
	m.mu.Lock()
	everyone := append(m.league.Players(), m.league.Referees()...)
	rows := standingRows(m.league.Table.Rows())
	rounds := m.league.RoundCount()
	_, total := m.league.Progress()
	m.mu.Unlock()
	var champion protocol.Champion
	if len(rows) > 0 {
		champion = protocol.Champion{PlayerID: rows[0].PlayerID, DisplayName: rows[0].DisplayName, Points: rows[0].Points}
	}
	rowsFor := standingsFor(rows)
	m.broadcast(everyone, func(a engine.AgentInfo) protocol.Message {
		return &protocol.LeagueCompleted{Envelope: m.envelopeTo(protocol.TypeLeagueCompleted, rounds, ""),
			TotalRounds: rounds, TotalMatches: total, Champion: champion, FinalStandings: rowsFor(a.ID)}
	})
}

// standingRows converts the engine's table to the wire's rows.
func standingRows(rows []engine.Row) []protocol.StandingRow {
	out := make([]protocol.StandingRow, len(rows))
	for i, r := range rows {
		out[i] = protocol.StandingRow{Rank: r.Rank, PlayerID: r.PlayerID, DisplayName: r.DisplayName, Played: r.Played,
			Wins: r.Wins, Draws: r.Draws, Losses: r.Losses, TechnicalLosses: r.TechnicalLosses, Points: r.Points,
			Status: r.Status}
	}
	return out
}
