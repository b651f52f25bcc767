// Package ticket is how a player knows that a call comes from the referee
// its manager assigned to that match: a match ticket.
//
// The manager gives each player, at registration, a ticket key that only
// the two of them know (derived from the manager's own secret and the
// player's id, so a player registering again, even with a fresh token,
// gets the same one). For every match it assigns, the manager mints one
// ticket per player, bound to the league, the match and the referee, and
// hands both to that referee inside the authenticated start_match. The
// referee sends each player its ticket as the auth_token of the
// invitation, every move call and the result. The player recomputes the
// ticket with its key and refuses anything else: a stranger, a referee of
// the league calling about a match it was not given, or a message about
// another match. The ticket is all the player needs, so a player that
// restarts mid-match accepts the rest of it.
//
// The manager proves itself the same way to every agent: it gives each, at
// registration, a manager key (ManagerKey) that only the two of them know,
// and presents it as the auth_token of what changes the agent (a
// referee's start_match, every agent's notify_league_completed).
package ticket

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
)

// Prefixes tell a ticket key and a ticket apart from tokens at a glance.
const (
	keyPrefix        = "tk-"
	ticketPrefix     = "mt-"
	managerKeyPrefix = "mk-"
)

// PlayerKey is the ticket key the manager whose secret is managerSecret
// gives player playerID of league leagueID.
func PlayerKey(managerSecret, leagueID, playerID string) string {
	return keyPrefix + mac(managerSecret, "match_ticket_key", leagueID, playerID)
}

// ManagerKey is what the manager whose secret is managerSecret proves
// itself with to the agent of league leagueID with that role and id,
// registered with the token whose hash is tokenHash: it changes with the
// agent's token.
func ManagerKey(managerSecret, leagueID, role, agentID, tokenHash string) string {
	return managerKeyPrefix + mac(managerSecret, "manager_key", leagueID, role, agentID, tokenHash)
}

// Mint is the ticket of the player holding key for match matchID of league
// leagueID, run by referee refereeID.
func Mint(key, leagueID, matchID, refereeID string) string {
	return ticketPrefix + mac(key, "match_ticket", leagueID, matchID, refereeID)
}

// Valid reports, in constant time, whether ticket is the one Mint gives for
// key, the league, the match and the referee.
func Valid(key, ticket, leagueID, matchID, refereeID string) bool {
	return hmac.Equal([]byte(ticket), []byte(Mint(key, leagueID, matchID, refereeID)))
}

// mac is HMAC-SHA256 of the parts, each ended by a NUL so that no two
// lists of parts give the same input, in hex.
func mac(key string, parts ...string) string {
	h := hmac.New(sha256.New, []byte(key))
	for _, p := range parts {
		fmt.Fprintf(h, "%s\x00", p)
	}
	return hex.EncodeToString(h.Sum(nil))
}
