package manager

import (
	"crypto/rand"
	"crypto/subtle"
	"encoding/hex"
	"fmt"

	"github.com/leaguetui/leaguetui/agents/protocol"
	"github.com/leaguetui/leaguetui/agents/store"
	"github.com/leaguetui/leaguetui/agents/ticket"
	"github.com/leaguetui/leaguetui/engine"
)

// Referees are trusted with results, so they are admitted: a newcomer
// presents the referee key the admin set (LEAGUETUI_REFEREE_KEY), unless
// the manager was started with --open-referees. A referee that registers
// again with its own token was admitted before.
func (m *Manager) admitReferee(key string) error {
	switch want := m.opts.RefereeKey; {
	case want != "" && key != "" && subtle.ConstantTimeCompare([]byte(key), []byte(want)) == 1:
		return nil
	case m.opts.OpenReferees:
		return nil
	case want == "":
		return protocol.Reject(protocol.CodeAuthTokenInvalid,
			"this league admits no referee: its manager has no referee key (LEAGUETUI_REFEREE_KEY) and was not started with --open-referees")
	case key == "":
		return protocol.Reject(protocol.CodeAuthTokenMissing, "referee_meta.referee_key is required: referees are admitted with the league's referee key")
	default:
		return protocol.Reject(protocol.CodeAuthTokenInvalid, "referee_meta.referee_key is not this league's referee key")
	}
}

// managerSecret is the manager's own secret, kept beside the agents'
// credentials so that a restarted manager presents the same keys: with it
// the manager derives what it proves itself with to each referee.
func managerSecret(layout store.Layout) (string, error) {
	path, err := layout.Credentials("league_manager")
	if err != nil {
		return "", err
	}
	creds, ok, err := store.LoadCredentials(path)
	if err != nil {
		return "", err
	}
	if ok && creds.Role == protocol.ManagerRole {
		return creds.AuthToken, nil
	}
	buf := make([]byte, 32)
	if _, err := rand.Read(buf); err != nil {
		return "", err
	}
	secret := "mgr-" + hex.EncodeToString(buf)
	store.Redact(secret)
	creds = store.Credentials{LeagueID: layout.LeagueID, AgentID: protocol.SenderManager, Role: protocol.ManagerRole, AuthToken: secret}
	if err := store.SaveCredentials(path, creds); err != nil {
		return "", fmt.Errorf("cannot save the manager's key: %w", err)
	}
	return secret, nil
}

// managerKey is what the manager proves itself with to agent, given to
// it at registration (manager_key): the auth_token of a referee's
// start_match and of every agent's league completion. Only the two of them
// know it, and it changes with the agent's token.
func (m *Manager) managerKey(agent engine.AgentInfo) string {
	// Kept for each token an agent holds: every broadcast carries every
	// agent's key, an HMAC each, and redacting a key looks through all.
	holder := keyHolder{agent.Role, agent.ID, agent.TokenHash}
	if key, ok := m.managerKeys.Load(holder); ok {
		return key.(string)
	}
	key := ticket.ManagerKey(m.secret, m.league.ID, string(agent.Role), agent.ID, agent.TokenHash)
	store.Redact(key)
	m.managerKeys.Store(holder, key)
	return key
}

// keyHolder is what an agent's managerKey is made of, besides the league.
type keyHolder struct {
	role          engine.Role
	id, tokenHash string
}

// matchTicket is what player takes the calls of match from referee with
// (see agents/ticket). A reassigned match gets tickets bound to its new
// referee; the old one's still open the player's door, but the manager
// takes the result of the match from its current referee only.
func (m *Manager) matchTicket(player, match, referee string) string {
	return m.playerKeys(player).tickets.Mint(m.league.ID, match, referee)
}

// ticketKey is the key player's tickets are made with, given to it at
// registration. It depends on the player's id only, not its token, so a
// player that registers again mid-match still takes that match's calls.
func (m *Manager) ticketKey(player string) string { return m.playerKeys(player).key }

// playerKey is a player's ticket key, and what mints its tickets.
type playerKey struct {
	key     string
	tickets *ticket.Keyed
}

// playerKeys is player's ticket key and its minter. Kept: the key is the
// same for the league's life, and every match needs its two players'
// tickets.
func (m *Manager) playerKeys(player string) playerKey {
	if keys, ok := m.ticketKeys.Load(player); ok {
		return keys.(playerKey)
	}
	key := ticket.PlayerKey(m.secret, m.league.ID, player)
	keys, _ := m.ticketKeys.LoadOrStore(player, playerKey{key: key, tickets: ticket.NewKeyed(key)})
	return keys.(playerKey)
}

// issuesTickets says whether this league's players take match calls only
// with a ticket. An open league cannot promise it: any referee may join,
// and other implementations' referees send none.
func (m *Manager) issuesTickets() bool { return !m.opts.OpenReferees }

// admitTicketless refuses, in a league that issues tickets, a referee that
// does not say it sends them: the players would refuse its calls.
func (m *Manager) admitTicketless(meta protocol.AgentMeta) error {
	if meta.MatchTickets || !m.issuesTickets() {
		return nil
	}
	return protocol.Reject(protocol.CodeMissingField,
		"referee_meta.match_tickets must be true: this league's players take calls only with the match ticket each start_match carries "+
			"(player_A_ticket, player_B_ticket, sent to that player as auth_token); a referee that sends none joins a league started with --open-referees")
}
