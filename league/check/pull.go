package check

import (
	"strings"

	"github.com/leaguetui/leaguetui/agents/relay"
	"github.com/leaguetui/leaguetui/config"
)

// A player that registers with the contact_endpoint "pull" is checked on
// a pull seat, as a leaguetui manager would seat it: the checker's
// manager hosts the relay (agents/relay), and every check calls the
// player at its relay endpoint, where the call waits for the player's
// poll and its answer. What the player says is held to the same checks
// as a player that listens; only GET /health has no host to ask.

// hostPullSeats serves the relay beside the checker's manager's /mcp.
func (s *session) hostPullSeats(cfg config.Config) {
	s.relay = relay.New(relay.Options{MaxBody: cfg.Network.MessageBytes})
	s.relay.Mount(s.mgr)
}

// seatEndpoint is where the checks call the agent: the endpoint it gave,
// or, for a player that asked for a pull seat, the seat's relay endpoint,
// opened with the token the checker issues it.
func (s *session) seatEndpoint(endpoint string) string {
	s.pull = s.opts.Role == PlayerRole && relay.IsMarker(endpoint)
	if !s.pull {
		return endpoint
	}
	s.relay.Open(s.id, s.token)
	return relay.Endpoint(strings.TrimSuffix(s.mgr.URL, "/mcp"), s.id)
}

// pullSeatStandIn is what a leaguetui manager holds a registration's
// contact endpoint to: a player's "pull" stands for the relay endpoint
// the manager gives it (a referee may not take a pull seat).
func pullSeatStandIn(endpoint string, role Role) string {
	if role == PlayerRole && relay.IsMarker(endpoint) {
		return relay.Endpoint("http://manager.invalid", assignedPlayer)
	}
	return endpoint
}
