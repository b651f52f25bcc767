package player

import (
	"sync"

	"github.com/leaguetui/leaguetui/agents/protocol"
	"github.com/leaguetui/leaguetui/agents/store"
	"github.com/leaguetui/leaguetui/agents/ticket"
	"github.com/leaguetui/leaguetui/engine"
)

// doorman decides whom a player answers about a match. Its manager's
// registration answer says how: a leaguetui manager gives a ticket key, and
// then an invitation, a move call or a result is taken only with the
// ticket of that match and of the referee that sends it (see
// agents/ticket); a manager that gives none (another implementation's, or
// a league open to any referee) offers no proof, and every call is taken
// as before. Before it is registered the player takes no match call.
type doorman struct {
	mu         sync.Mutex
	registered bool
	key        string
}

// admitted keeps what registration said; a player registering again gets
// the same key, so a match under way goes on.
func (d *doorman) admitted(resp *protocol.RegisterResponse) {
	store.Redact(resp.MatchTicketKey)
	d.mu.Lock()
	d.registered, d.key = true, resp.MatchTicketKey
	d.mu.Unlock()
}

// check refuses a match call that does not carry the ticket of its match
// and sender, before anything of the player's changes. leagueID is the
// league the player registered with, for a call that does not name one.
func (d *doorman) check(env protocol.Envelope, leagueID string) error {
	d.mu.Lock()
	registered, key := d.registered, d.key
	d.mu.Unlock()
	if !registered {
		return protocol.Reject(protocol.ErrPlayerNotRegistered, "this player takes match calls once registered with its manager")
	}
	if key == "" {
		return nil
	}
	if env.AuthToken == "" {
		return protocol.Reject(protocol.ErrAuthTokenMissing,
			"%s must carry the match ticket as auth_token: this player answers only the referee its manager gave the match", env.MessageType)
	}
	kind, referee := protocol.SplitSender(env.Sender)
	if env.LeagueID != "" {
		leagueID = env.LeagueID
	}
	if kind != engine.RoleReferee || !ticket.Valid(key, env.AuthToken, leagueID, env.MatchID, referee) {
		return protocol.Reject(protocol.ErrAuthTokenInvalid,
			"not the ticket of match %q from %q: this player answers only the referee its manager gave the match", env.MatchID, env.Sender)
	}
	return nil
}
