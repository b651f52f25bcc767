package manager

import (
	"bytes"
	"encoding/json"
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

// broadcastWriteBuffer is the write buffer of the manager's connections:
// room for the largest broadcast with its headers (a whole 64-player
// standings is 9 to 11 KB framed, a referee's round announcement of 32
// matches about 8 KB: TestBroadcastsFitTheWriteBuffer), so that each
// leaves in one write. With net/http's 4 KB each left in two or three,
// and over loopback every write is a pass through TCP and a wake-up of
// the reader (rpc.Poster.SetWriteBuffer). The manager keeps a connection
// or two to each agent: 12 KB more each.
const broadcastWriteBuffer = 16 << 10

// announceRound sends ROUND_ANNOUNCEMENT to every player and to each referee
// with matches in it. Referees get the endpoints that referees of other
// implementations rely on to find their players; players get the fields
// league.v2 requires and no more, since they only acknowledge it: at 64
// players the extras were 40% of the bytes every player read each round.
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
	m.noteAnnounced(assigned)
	m.mu.Unlock()
	refs := map[string]engine.AgentInfo{}
	for _, a := range assigned {
		refs[a.Referee.ID] = a.Referee
	}
	recipients := append(players, m.refereesIn(refs)...)
	copies, err := newAnnouncement(m.envelopeTo(protocol.TypeRoundAnnouncement, round, ""), matches)
	if err != nil {
		m.Log.Error("round announcement not sent", "round", round, "err", err)
		return
	}
	m.broadcast(recipients, announcementsFor(matches, len(players), copies))
}

// announcement is a round announcement encoded twice: with every field
// of its matches for referees, with the required ones for players.
type announcement struct {
	forReferees, forPlayers *listBroadcast
}

func newAnnouncement(env protocol.Envelope, matches []protocol.AnnouncedMatch) (announcement, error) {
	empty := &protocol.RoundAnnouncement{Envelope: env, Matches: []protocol.AnnouncedMatch{}}
	forReferees, err := newListBroadcast(empty, matches)
	if err != nil {
		return announcement{}, err
	}
	forPlayers, err := newListBroadcast(empty, playersView(matches))
	return announcement{forReferees: forReferees, forPlayers: forPlayers}, err
}

// playersView is the matches with the fields league.v2 requires of an
// announced match, and none of those recommended for referees.
func playersView(matches []protocol.AnnouncedMatch) []protocol.AnnouncedMatch {
	out := make([]protocol.AnnouncedMatch, len(matches))
	for i, am := range matches {
		out[i] = protocol.AnnouncedMatch{MatchID: am.MatchID, GameType: am.GameType,
			PlayerAID: am.PlayerAID, PlayerBID: am.PlayerBID, RefereeEndpoint: am.RefereeEndpoint}
	}
	return out
}

// announcementsFor gives each recipient its copy of a round announcement:
// every match in a league of up to fullListPlayers, otherwise the matches
// it plays or referees ([] for a player with the bye); a referee's with
// every field, a player's with the required ones.
func announcementsFor(matches []protocol.AnnouncedMatch, players int, copies announcement) func(engine.AgentInfo) protocol.Message {
	pick := func(a engine.AgentInfo) *listBroadcast {
		if a.Role == engine.RolePlayer {
			return copies.forPlayers
		}
		return copies.forReferees
	}
	if players <= fullListPlayers {
		return func(a engine.AgentInfo) protocol.Message { return pick(a).whole }
	}
	own := map[string][]int{}
	for i, am := range matches {
		for _, id := range []string{am.PlayerAID, am.PlayerBID, am.RefereeID} {
			own[id] = append(own[id], i)
		}
	}
	return func(a engine.AgentInfo) protocol.Message { return pick(a).with(own[a.ID]) }
}

// standingsFor gives each player its copy of a message with the standings
// as its list: all the rows in a league of up to fullListPlayers,
// otherwise the leaders' and the player's own.
func standingsFor(rows []protocol.StandingRow, copies *listBroadcast) func(engine.AgentInfo) *protocol.Encoded {
	if len(rows) <= fullListPlayers {
		return func(engine.AgentInfo) *protocol.Encoded { return copies.whole }
	}
	leaders := make([]int, leadersShown)
	index := make(map[string]int, len(rows))
	for i, r := range rows {
		index[r.PlayerID] = i
		if i < leadersShown {
			leaders[i] = i
		}
	}
	leadersOnly := copies.with(leaders)
	return func(a engine.AgentInfo) *protocol.Encoded {
		i, ok := index[a.ID]
		if !ok || i < leadersShown {
			return leadersOnly
		}
		return copies.with(append(leaders[:leadersShown:leadersShown], i))
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
	players, rows := m.league.Players(), protocol.StandingRows(m.league.Table.Rows())
	m.mu.Unlock()
	copies, err := newListBroadcast(&protocol.StandingsUpdate{Envelope: m.envelopeTo(protocol.TypeStandingsUpdate, round, ""),
		Standings: []protocol.StandingRow{}}, rows)
	if err != nil {
		m.Log.Error("standings not sent", "round", round, "err", err)
		return
	}
	copyFor := standingsFor(rows, copies)
	m.broadcast(players, func(a engine.AgentInfo) protocol.Message { return copyFor(a) })
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
	msg, err := protocol.Encode(&protocol.RoundCompleted{Envelope: m.envelopeTo(protocol.TypeRoundCompleted, round, ""),
		MatchesCompleted: len(results), MatchesPlayed: len(results), NextRoundID: next, Summary: summary})
	if err != nil {
		m.Log.Error("round completion not sent", "round", round, "err", err)
		return
	}
	m.broadcast(players, func(engine.AgentInfo) protocol.Message { return msg })
}

func (m *Manager) broadcastLeagueCompleted() {
	m.mu.Lock()
	everyone := append(m.league.Players(), m.league.Referees()...)
	rows := protocol.StandingRows(m.league.Table.Rows())
	rounds := m.league.RoundCount()
	_, total := m.league.Progress()
	m.mu.Unlock()
	var champion protocol.Champion
	if len(rows) > 0 {
		champion = protocol.Champion{PlayerID: rows[0].PlayerID, DisplayName: rows[0].DisplayName, Points: rows[0].Points}
	}
	copies, err := newListBroadcast(&protocol.LeagueCompleted{Envelope: m.envelopeTo(protocol.TypeLeagueCompleted, rounds, ""),
		TotalRounds: rounds, TotalMatches: total, Champion: champion, FinalStandings: []protocol.StandingRow{}}, rows)
	if err != nil {
		m.Log.Error("league completion not sent", "err", err)
		return
	}
	// It changes every agent (it says the league is over): each copy
	// carries, as its auth_token, the key the manager gave that agent.
	copyFor := standingsFor(rows, copies)
	m.broadcast(everyone, func(a engine.AgentInfo) protocol.Message { return copyFor(a).WithAuthToken(m.managerKey(a)) })
}

// listBroadcast is a broadcast whose copies differ, if at all, only in
// which elements of one list they carry (a round's matches, the
// standings' rows), the list being the message's last field. The message
// is encoded once with the list empty, and each element once; a
// recipient's copy is spliced from those, the very bytes encoding/json
// makes of the recipient's own message, without encoding anything again.
type listBroadcast struct {
	header protocol.Envelope
	head   []byte // the message with the list empty, without its closing "]}"
	items  []json.RawMessage
	whole  *protocol.Encoded // the copy with every element
}

func newListBroadcast[T any](msg protocol.Message, items []T) (*listBroadcast, error) {
	empty, err := protocol.Marshal(msg)
	if err != nil {
		return nil, fmt.Errorf("encode %s: %w", msg.Header().MessageType, err)
	}
	if !bytes.HasSuffix(empty, []byte("[]}")) {
		return nil, fmt.Errorf("encode %s: the list is not its last field", msg.Header().MessageType)
	}
	b := &listBroadcast{header: *msg.Header(), head: empty[:len(empty)-2], items: make([]json.RawMessage, len(items))}
	for i, item := range items {
		if b.items[i], err = protocol.Marshal(item); err != nil {
			return nil, fmt.Errorf("encode %s: %w", msg.Header().MessageType, err)
		}
	}
	every := make([]int, len(items))
	for i := range every {
		every[i] = i
	}
	b.whole = b.with(every)
	return b, nil
}

// with is the copy that carries the elements picked, in that order.
func (b *listBroadcast) with(picked []int) *protocol.Encoded {
	size := len(b.head) + 2
	for _, i := range picked {
		size += len(b.items[i]) + 1
	}
	out := append(make([]byte, 0, size), b.head...)
	for n, i := range picked {
		if n > 0 {
			out = append(out, ',')
		}
		out = append(out, b.items[i]...)
	}
	return &protocol.Encoded{Envelope: b.header, JSON: append(out, "]}"...)}
}
