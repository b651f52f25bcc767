package referee

import (
	"crypto/subtle"
	"sync"

	"github.com/leaguetui/leaguetui/agents/protocol"
	"github.com/leaguetui/leaguetui/agents/store"
)

// managerProof is the key this referee's manager gave it at registration,
// which the manager presents as the auth_token of every start_match: only
// the two of them know it, so a start_match from anyone else is refused
// before it changes anything.
type managerProof struct {
	mu         sync.Mutex
	key        string
	registered bool
}

// set keeps what registration issued; until then no match is taken.
func (p *managerProof) set(key string) {
	store.Redact(key)
	p.mu.Lock()
	p.key, p.registered = key, true
	p.mu.Unlock()
}

// check refuses a start_match that does not come from this referee's
// manager. A manager that issued no key (another implementation's) cannot
// be told from anyone else: its matches are taken as before.
func (p *managerProof) check(token string) error {
	p.mu.Lock()
	key, registered := p.key, p.registered
	p.mu.Unlock()
	switch {
	case !registered:
		return protocol.Reject(protocol.ErrRefereeNotRegistred, "this referee takes matches once registered with its manager")
	case key == "":
		return nil
	case token == "":
		return protocol.Reject(protocol.ErrAuthTokenMissing, "start_match must carry the auth_token this referee's manager holds")
	case subtle.ConstantTimeCompare([]byte(token), []byte(key)) != 1:
		return protocol.Reject(protocol.ErrAuthTokenInvalid, "start_match is taken from this referee's own manager only")
	}
	return nil
}
