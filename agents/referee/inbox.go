package referee

import (
	"crypto/subtle"
	"encoding/json"
	"sync"

	"github.com/leaguetui/leaguetui/agents/protocol"
)

// inbox holds the answers players post back on their own instead of in the
// reply, keyed by match, player and message type. A slot takes an answer
// only with the match ticket its player was sent as the auth_token of the
// call it answers: nobody else knows that ticket, so nobody else can answer
// in the player's name.
type inbox struct {
	mu      sync.Mutex
	waiting map[slotKey]slot
}

// slot is one answer awaited, and the ticket that must come with it.
type slot struct {
	answers chan json.RawMessage
	ticket  string // "" when the match came without tickets: nothing to check
}

func newInbox() *inbox { return &inbox{waiting: map[slotKey]slot{}} }

// slotKey names the slot of an answer: its match, its player and what it
// answers.
type slotKey struct{ matchID, player, answer string }

// inboxKey names the slot of an answer of messageType. The two answers
// that carry a move share theirs: a player may post a move in either form,
// whatever the game, as it may answer inline in either.
func inboxKey(matchID, player, messageType string) slotKey {
	if protocol.IsMoveAnswer(messageType) {
		messageType = "move"
	}
	return slotKey{matchID, player, messageType}
}

// expected is a slot opened by expect, which close closes.
type expected struct {
	b       *inbox
	key     slotKey
	answers chan json.RawMessage
}

// expect opens a slot for one answer that carries ticket; close closes it.
func (b *inbox) expect(matchID, player, messageType, ticket string) expected {
	key := inboxKey(matchID, player, messageType)
	s := slot{answers: make(chan json.RawMessage, 1), ticket: ticket}
	b.mu.Lock()
	b.waiting[key] = s
	b.mu.Unlock()
	return expected{b: b, key: key, answers: s.answers}
}

// close closes the slot, unless another expect has opened it again since.
func (e expected) close() {
	e.b.mu.Lock()
	if e.b.waiting[e.key].answers == e.answers {
		delete(e.b.waiting, e.key)
	}
	e.b.mu.Unlock()
}

// errNotExpected is deliver's answer when no slot waits for an answer.
var errNotExpected = protocol.Reject(protocol.CodeMissingField, "no such answer is awaited")

// deliver hands an answer to whoever expects it. It refuses, and the slot
// stays open for the player's own answer, when none is expected
// (errNotExpected) or when token is not the ticket (E011 without one,
// E012 with another): a refused answer changes nothing.
func (b *inbox) deliver(matchID, player, messageType, token string, body json.RawMessage) error {
	b.mu.Lock()
	s, ok := b.waiting[inboxKey(matchID, player, messageType)]
	b.mu.Unlock()
	switch {
	case !ok:
		return errNotExpected
	case s.ticket == "":
	case token == "":
		return protocol.Reject(protocol.CodeAuthTokenMissing,
			"a posted %s must carry as auth_token the match ticket %s was sent with the call it answers", messageType, player)
	case subtle.ConstantTimeCompare([]byte(token), []byte(s.ticket)) != 1:
		return protocol.Reject(protocol.CodeAuthTokenInvalid,
			"auth_token is not the match ticket %s was sent for match %s: only the invited player answers in its name", player, matchID)
	}
	select {
	case s.answers <- body:
	default: // one answer is enough
	}
	return nil
}
