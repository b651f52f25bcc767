package manager

import (
	"time"

	"github.com/leaguetui/leaguetui/agents/control"
	"github.com/leaguetui/leaguetui/agents/protocol"
	"github.com/leaguetui/leaguetui/agents/store"
	"github.com/leaguetui/leaguetui/engine"
)

// SchemaVersion is the version of every data file we write.
const SchemaVersion = "1.0.0"

// RoundsFile is rounds.json.
type RoundsFile struct {
	SchemaVersion string       `json:"schema_version"`
	LeagueID      string       `json:"league_id"`
	Rounds        []RoundEntry `json:"rounds"`
	LastUpdated   string       `json:"last_updated"`
}

// RoundEntry is one round of rounds.json.
type RoundEntry struct {
	RoundID int          `json:"round_id"`
	Status  string       `json:"status"` // PENDING, IN_PROGRESS, COMPLETED
	Matches []MatchEntry `json:"matches"`
}

// MatchEntry is one match of rounds.json.
type MatchEntry struct {
	MatchID   string  `json:"match_id"`
	PlayerAID string  `json:"player_A_id"`
	PlayerBID string  `json:"player_B_id"`
	RefereeID string  `json:"referee_id,omitempty"`
	Result    string  `json:"result,omitempty"` // WIN, DRAW, TECHNICAL_LOSS
	Winner    *string `json:"winner"`
}

// LeagueInfoFile is league.json: what was played, with what seed, by whom.
type LeagueInfoFile struct {
	SchemaVersion string             `json:"schema_version"`
	LeagueID      string             `json:"league_id"`
	GameType      string             `json:"game_type"`
	Seed          int64              `json:"seed"`
	Players       []engine.AgentInfo `json:"players"`
	Referees      []engine.AgentInfo `json:"referees"`
	LastUpdated   string             `json:"last_updated"`
}

// Standings snapshots the standings document.
func (m *Manager) Standings() control.StandingsFile {
	m.mu.Lock()
	defer m.mu.Unlock()
	done, total := m.league.Progress()
	completed := 0
	for r := 1; r <= len(m.league.Rounds) && m.league.RoundDone(r); r++ {
		completed = r
	}
	return control.StandingsFile{
		SchemaVersion: SchemaVersion, LeagueID: m.league.ID, Version: m.league.LastSeq(), State: m.league.State,
		Seed: m.league.Seed, RoundsCompleted: completed, RoundsTotal: len(m.league.Rounds),
		MatchesDone: done, MatchesTotal: total, Standings: standingRows(m.league.Table.Rows()),
		LastUpdated: protocol.FormatTime(time.Now()),
	}
}

// writeStandings and writeRounds take their snapshot and write it under
// m.files, so that writes land in snapshot order: an older snapshot never
// replaces a newer one.
func (m *Manager) writeStandings() {
	m.files.Lock()
	defer m.files.Unlock()
	m.writeFile(m.Layout.Standings(), m.Standings())
}

func (m *Manager) writeRounds() {
	m.files.Lock()
	defer m.files.Unlock()
	m.writeFile(m.Layout.Rounds(), m.Schedule())
}

// Schedule snapshots the rounds document: every round's matches with their
// referee and result so far.
func (m *Manager) Schedule() RoundsFile {
	m.mu.Lock()
	defer m.mu.Unlock()
	doc := RoundsFile{SchemaVersion: SchemaVersion, LeagueID: m.league.ID, LastUpdated: protocol.FormatTime(time.Now())}
	current := m.league.CurrentRound()
	for _, r := range m.league.Rounds {
		entry := RoundEntry{RoundID: r.Number, Status: roundStatus(r.Number, current, m.league.RoundDone(r.Number))}
		for _, p := range r.Matches {
			rec, _ := m.league.Match(p.MatchID)
			me := MatchEntry{MatchID: p.MatchID, PlayerAID: p.PlayerA, PlayerBID: p.PlayerB, RefereeID: rec.Referee}
			if rec.Result != nil {
				me.Result = string(rec.Result.Status)
				if rec.Result.Winner != "" {
					w := rec.Result.Winner
					me.Winner = &w
				}
			}
			entry.Matches = append(entry.Matches, me)
		}
		doc.Rounds = append(doc.Rounds, entry)
	}
	return doc
}

func roundStatus(round, current int, done bool) string {
	switch {
	case done:
		return "COMPLETED"
	case round == current:
		return "IN_PROGRESS"
	}
	return "PENDING"
}

func (m *Manager) writeLeagueInfo() {
	players, referees := m.league.Players(), m.league.Referees()
	for _, list := range [][]engine.AgentInfo{players, referees} {
		for i := range list {
			list[i].TokenHash = "" // league.json is for people: no secrets, not even hashed
		}
	}
	m.writeFile(m.Layout.LeagueInfo(), LeagueInfoFile{SchemaVersion: SchemaVersion, LeagueID: m.league.ID,
		GameType: m.league.GameType, Seed: m.league.Seed, Players: players, Referees: referees,
		LastUpdated: protocol.FormatTime(time.Now())})
}

// writeFile writes a derived file. The journal is the record; a failed
// write is logged and healed by the next one.
func (m *Manager) writeFile(path string, v any) {
	if err := store.WriteJSON(path, v); err != nil {
		m.Log.Error("cannot write data file", "event_type", "DATA_WRITE_FAILED", "path", path, "err", err)
	}
}
