package node

import (
	"crypto/subtle"
	"sync"

	"github.com/leaguetui/leaguetui/agents/protocol"
	"github.com/leaguetui/leaguetui/agents/store"
)

// managerProof is the key this agent's manager gave it at registration
// (manager_key), which the manager presents as the auth_token of every
// message that changes the agent's state (a referee's start_match, every
// agent's notify_league_completed): only the two of them know it, so such
// a message from anyone else is refused before it changes anything.
type managerProof struct {
	mu         sync.Mutex
	key        string
	registered bool
}

// set keeps what registration issued; until then nothing is taken.
func (p *managerProof) set(key string) {
	store.Redact(key)
	p.mu.Lock()
	p.key, p.registered = key, true
	p.mu.Unlock()
}

// check refuses what (a message, named as its method) that does not come
// from this agent's manager, as role sees it. A manager that issued no key (another
// implementation's) cannot be told from anyone else: its messages are
// taken as before.
func (p *managerProof) check(role protocol.Role, what, token string) error {
	p.mu.Lock()
	key, registered := p.key, p.registered
	p.mu.Unlock()
	switch {
	case !registered && role == protocol.RefereeRole:
		return protocol.Reject(protocol.CodeRefereeNotRegistered, "this referee takes %s once registered with its manager", what)
	case !registered:
		return protocol.Reject(protocol.CodePlayerNotRegistered, "this %s takes %s once registered with its manager", role, what)
	case key == "":
		return nil
	case token == "":
		return protocol.Reject(protocol.CodeAuthTokenMissing, "%s must carry the auth_token this %s's manager holds (its manager_key)", what, role)
	case subtle.ConstantTimeCompare([]byte(token), []byte(key)) != 1:
		return protocol.Reject(protocol.CodeAuthTokenInvalid, "%s is taken from this %s's own manager only", what, role)
	}
	return nil
}

// CheckManager refuses what (a message, named as its method, e.g.
// start_match) when its auth_token is not the manager_key this agent's
// manager gave it: what every message that changes the agent's state must
// carry.
func (n *Node) CheckManager(what, token string) error {
	return n.manager.check(n.Role, what, token)
}

// issuedNoKey reports a manager that registered this agent and issued no
// key.
func (p *managerProof) issuedNoKey() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.registered && p.key == ""
}

// ManagerIssuedNoKey reports a manager that registered this agent and
// issued no manager_key: another implementation's. A referee then takes
// the matches its round announcements give it, as league.v2 has it; ours
// issues a key and starts each match with start_match.
func (n *Node) ManagerIssuedNoKey() bool { return n.manager.issuedNoKey() }
