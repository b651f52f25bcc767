package referee

import (
	"encoding/json"
	"sync"
)

// inbox holds the answers players post back on their own instead of in the
// reply, keyed by match, player and message type.
type inbox struct {
	mu      sync.Mutex
	waiting map[string]chan json.RawMessage
}

func newInbox() *inbox { return &inbox{waiting: map[string]chan json.RawMessage{}} }

func inboxKey(matchID, player, messageType string) string {
	return matchID + "|" + player + "|" + messageType
}

// expect opens a slot for one answer; cancel closes it.
func (b *inbox) expect(matchID, player, messageType string) (answers <-chan json.RawMessage, cancel func()) {
	key := inboxKey(matchID, player, messageType)
	ch := make(chan json.RawMessage, 1)
	b.mu.Lock()
	b.waiting[key] = ch
	b.mu.Unlock()
	return ch, func() {
		b.mu.Lock()
		if b.waiting[key] == ch {
			delete(b.waiting, key)
		}
		b.mu.Unlock()
	}
}

// deliver hands an answer to whoever expects it; false if nobody does.
func (b *inbox) deliver(matchID, player, messageType string, body json.RawMessage) bool {
	b.mu.Lock()
	ch, ok := b.waiting[inboxKey(matchID, player, messageType)]
	b.mu.Unlock()
	if !ok {
		return false
	}
	select {
	case ch <- body:
	default: // one answer is enough
	}
	return true
}
