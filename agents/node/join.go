package node

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"time"

	"github.com/leaguetui/leaguetui/agents/protocol"
	"github.com/leaguetui/leaguetui/agents/store"
)

// Registration is what one role registers with. The sequence itself is
// the same for every role that registers, and is Join's.
type Registration struct {
	ManagerURL string
	Port       int // to listen on; 0 takes a free one
	// Timeout bounds one attempt; Join keeps trying for registerAttempts
	// of them, while the manager may still be starting.
	Timeout time.Duration
	// Type is the register request's message type.
	Type string
	// Meta is the role's own part of its metadata (game types, its
	// capacity, keys); Join fills in the display name, the versions and
	// the contact endpoint.
	Meta protocol.AgentMeta
	// Request makes the role's register request of the envelope and the
	// metadata.
	Request func(protocol.Envelope, protocol.AgentMeta) protocol.Message
	// Prepare, if set, runs once the agent listens, before it registers:
	// what the role needs before it may take work.
	Prepare func(context.Context) error
}

// registerAttempts is how many attempts' time an agent keeps trying to
// reach a manager that may still be starting.
const registerAttempts = 3

// Join is the one way an agent joins its league, for a newcomer and for
// an agent registering again after its own restart or its manager's: it
// listens, finds the endpoint to register (ContactEndpoint), prepares,
// then registers within the window (Register), which presents the
// credentials saved at an earlier registration, so that the manager gives
// a returning agent its id back, and records, saves and prints the
// identity it is given. What the role keeps from the answer besides its
// identity goes through Admitted.
func (n *Node) Join(ctx context.Context, reg Registration) (*protocol.RegisterResponse, error) {
	if err := n.Listen(reg.Port); err != nil {
		return nil, err
	}
	endpoint, err := n.ContactEndpoint(reg.ManagerURL)
	if err != nil {
		return nil, err
	}
	if reg.Prepare != nil {
		if err := reg.Prepare(ctx); err != nil {
			return nil, err
		}
	}
	meta := reg.Meta
	meta.DisplayName, meta.ContactEndpoint = n.Name, endpoint
	meta.Version, meta.ProtocolVersion = protocol.ProtocolVersion, protocol.ProtocolVersion
	if meta.RejoinToken, err = n.rejoinToken(); err != nil {
		return nil, err
	}
	msg := reg.Request(n.Envelope(reg.Type, ""), meta)
	window, cancel := context.WithTimeout(ctx, registerAttempts*reg.Timeout)
	defer cancel()
	return n.Register(window, reg.ManagerURL, msg, reg.Timeout)
}

// rejoinToken is the token this agent holds for its league: the one its
// credentials file saved, or, for a newcomer, a secret of its own, saved
// there before it registers. A newcomer killed after the manager took its
// registration but before it saved what it was issued then registers
// again with that secret (presentCredentials), which the manager kept as
// its prior token (protocol.AgentMeta.RejoinToken), and gets its id back.
func (n *Node) rejoinToken() (string, error) {
	path, err := n.Layout().Credentials(n.Name)
	if err != nil {
		return "", err
	}
	if creds, ok, _ := store.LoadCredentials(path); ok && creds.Role == n.Role {
		return creds.AuthToken, nil
	}
	buf := make([]byte, 32)
	if _, err := rand.Read(buf); err != nil {
		return "", err
	}
	secret := "rejoin-" + hex.EncodeToString(buf)
	store.Redact(secret)
	// Saved under the name it registers with: the id is the manager's to give.
	creds := store.Credentials{LeagueID: n.LeagueID(), AgentID: n.Name, Role: n.Role, AuthToken: secret}
	if err := store.SaveCredentials(path, creds); err != nil {
		// It registers all the same; only a crash before it saves what it
		// is issued would leave it out.
		n.Log.Warn("cannot save credentials", "event_type", "DATA_WRITE_FAILED", "err", err)
	}
	return secret, nil
}
