package manager

import (
	"net/http"
	"strings"

	"github.com/leaguetui/leaguetui/agents/protocol"
	"github.com/leaguetui/leaguetui/agents/relay"
	"github.com/leaguetui/leaguetui/agents/rpc"
	"github.com/leaguetui/leaguetui/engine"
)

// A player the league cannot reach (behind NAT, a firewall) registers
// with the contact_endpoint "pull" (relay.Marker) and gets a pull seat:
// its contact endpoint is the manager's relay endpoint for its id, where
// each call is held until the player takes it with a long poll and posts
// the answer (agents/relay). The league calls it as any other player:
// same messages, tokens and tickets; only the transport differs.

// pullPending stands, between a registration's checks and its
// enrolment, for the id of a pull seat's player not known yet: no agent
// id has its form.
const pullPending = "-"

// mountRelay serves the relay's routes beside the manager's own.
func (m *Manager) mountRelay() {
	m.relay = relay.New(relay.Options{MaxBody: m.opts.Config.Network.MessageBytes, Log: m.Log})
	m.relay.Mount(m.Server)
	m.Server.HandleHTTP("GET /pull/{agent}/health", m.servePullHealth)
}

// servePullHealth answers for a pull seat's player where another agent's
// /health is its own: the league cannot reach the player, so the console
// asks its relay endpoint, which says ACTIVE while the player polls and
// 503 (no answer) once it stopped. An id with no seat is 404.
func (m *Manager) servePullHealth(w http.ResponseWriter, req *http.Request) {
	id := req.PathValue("agent")
	m.mu.Lock()
	agent, known := m.league.Agent(id)
	m.mu.Unlock()
	switch {
	case !known || agent.Endpoint != m.pullEndpoint(id):
		http.Error(w, "no pull seat "+id, http.StatusNotFound)
	case !m.relay.Polling(id):
		http.Error(w, "the player of pull seat "+id+" does not poll it", http.StatusServiceUnavailable)
	default:
		rpc.WriteJSON(w, http.StatusOK, protocol.Health{ID: id, Role: protocol.PlayerRole, DisplayName: agent.DisplayName,
			State: protocol.StateActive, LeagueID: m.LeagueID(), Endpoint: agent.Endpoint})
	}
}

// askedForPull says a player's registration asks for a pull seat, and
// puts a placeholder under the relay in its contact endpoint, which the
// checks of every registration take and enrolment replaces
// (seatEndpoint). A registration claiming a relay endpoint itself is
// refused: only the manager hands those out, one to each pull player.
func (m *Manager) askedForPull(meta *protocol.AgentMeta, role engine.Role) (bool, error) {
	if !relay.IsMarker(meta.ContactEndpoint) {
		if relay.UnderRelay(meta.ContactEndpoint) {
			return false, protocol.Reject(protocol.CodeMissingField,
				"%s_meta.contact_endpoint %q has the form of the manager's relay endpoints, which it hands out itself: "+
					"a player the league cannot reach registers with contact_endpoint %q", role, meta.ContactEndpoint, relay.Marker)
		}
		return false, nil
	}
	if role != engine.RolePlayer {
		return false, protocol.Reject(protocol.CodeMissingField, "only a player may take a pull seat: a %s serves its own /mcp", role)
	}
	meta.ContactEndpoint = m.pullEndpoint(pullPending)
	return true, nil
}

// seatEndpoint is the contact endpoint a registration records for the
// agent id: its pull seat's relay endpoint where it asked for one,
// else the endpoint it gave.
func (m *Manager) seatEndpoint(endpoint, id string) string {
	if endpoint == m.pullEndpoint(pullPending) {
		return m.pullEndpoint(id)
	}
	return endpoint
}

// pullEndpoint is the relay endpoint of id's pull seat, under the
// manager's URL as the league's agents reach it: --advertise when given,
// else where it listens.
func (m *Manager) pullEndpoint(id string) string {
	base := m.Cfg.Network.Advertise
	if base == "" {
		base = m.Endpoint()
	}
	return relay.Endpoint(strings.TrimSuffix(strings.TrimSuffix(base, "/"), "/mcp"), id)
}

// seatAdmitted opens the pull seat of an admitted player that asked for
// one, with the token just issued to it, and closes any it had when it
// registers again serving its own /mcp.
func (m *Manager) seatAdmitted(pull bool, agent engine.AgentInfo, token string) {
	switch {
	case agent.Role != engine.RolePlayer:
	case pull:
		m.relay.Open(agent.ID, token)
	default:
		m.relay.Close(agent.ID)
	}
}
