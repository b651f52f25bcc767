package player

import (
	"crypto/hmac"
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
	checker    *ticket.Keyed // checks the tickets of key, made when key is given
	// vouched is, by match id, the ticket last found valid and what for.
	// A match's ticket comes again with each move call and with the result:
	// finding it equal to the one already checked for the same key, league,
	// match and referee says what recomputing its HMAC would.
	vouched map[string]vouch
}

// vouch is a ticket found valid, and what it was valid for.
type vouch struct {
	key, leagueID, refereeID, ticket string
}

// maxVouched bounds the matches the doorman remembers a ticket of: a
// player plays a few matches at a time, and each is forgotten once its
// result is taken (forget); one whose result never came is forgotten when
// the doorman starts over past this many.
const maxVouched = 256

// admitted keeps what registration said; a player registering again gets
// the same key, so a match under way goes on.
func (d *doorman) admitted(resp *protocol.RegisterResponse) {
	store.Redact(resp.MatchTicketKey)
	d.mu.Lock()
	d.registered, d.key = true, resp.MatchTicketKey
	d.checker = ticket.NewKeyed(resp.MatchTicketKey)
	d.vouched = nil
	d.mu.Unlock()
}

// check refuses a match call that does not carry the ticket of its match
// and sender, before anything of the player's changes. leagueID is the
// league the player registered with, for a call that does not name one.
func (d *doorman) check(env protocol.Envelope, leagueID string) error {
	d.mu.Lock()
	registered, key, checker := d.registered, d.key, d.checker
	d.mu.Unlock()
	if !registered {
		return protocol.Reject(protocol.CodePlayerNotRegistered, "this player takes match calls once registered with its manager")
	}
	if key == "" {
		return nil
	}
	if env.AuthToken == "" {
		return protocol.Reject(protocol.CodeAuthTokenMissing,
			"%s must carry the match ticket as auth_token: this player answers only the referee its manager gave the match", env.MessageType)
	}
	kind, referee := protocol.SplitSender(env.Sender)
	if env.LeagueID != "" {
		leagueID = env.LeagueID
	}
	if kind != engine.RoleReferee || !d.valid(checker, vouch{key, leagueID, referee, env.AuthToken}, env.MatchID) {
		return protocol.Reject(protocol.CodeAuthTokenInvalid,
			"not the ticket of match %q from %q: this player answers only the referee its manager gave the match", env.MatchID, env.Sender)
	}
	return nil
}

// valid reports whether claim.ticket is the ticket of matchID for the
// rest of claim: the ticket already found valid for the very same, or the
// one checker (claim.key's) recomputes. Tickets are compared in constant
// time.
func (d *doorman) valid(checker *ticket.Keyed, claim vouch, matchID string) bool {
	d.mu.Lock()
	seen, ok := d.vouched[matchID]
	d.mu.Unlock()
	if ok && seen.key == claim.key && seen.leagueID == claim.leagueID && seen.refereeID == claim.refereeID &&
		hmac.Equal([]byte(seen.ticket), []byte(claim.ticket)) {
		return true
	}
	if !checker.Valid(claim.ticket, claim.leagueID, matchID, claim.refereeID) {
		return false
	}
	d.mu.Lock()
	if d.vouched == nil || len(d.vouched) >= maxVouched {
		d.vouched = map[string]vouch{}
	}
	d.vouched[matchID] = claim
	d.mu.Unlock()
	return true
}

// forget drops what the doorman remembers of a match whose result was
// taken; a result sent again has its ticket checked anew.
func (d *doorman) forget(matchID string) {
	d.mu.Lock()
	delete(d.vouched, matchID)
	d.mu.Unlock()
}
