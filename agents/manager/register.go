package manager

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/leaguetui/leaguetui/agents/protocol"
	"github.com/leaguetui/leaguetui/agents/rpc"
	"github.com/leaguetui/leaguetui/engine"
)

func (m *Manager) routes() {
	m.Server.Handle(protocol.TypeLeagueRegisterRequest, m.handleRegisterPlayer)
	m.Server.Handle(protocol.TypeRefereeRegisterRequest, m.handleRegisterReferee)
	m.Server.Handle(protocol.TypeMatchResultReport, m.handleReport)
	m.Server.Handle(protocol.TypeMatchStep, m.handleMatchStep)
	m.Server.Handle(protocol.TypeLeagueQuery, m.handleQuery)
	m.Server.Handle(protocol.TypeStartLeague, m.handleStartLeague)
	m.Server.Handle(protocol.TypePauseLeague, m.handlePause)
	m.Server.Handle(protocol.TypeResumeLeague, m.handleResume)
	m.Server.Handle(protocol.TypeStopLeague, m.handleStop)
	m.serveHTTP()
	m.mcpTools()
}

func (m *Manager) handleRegisterPlayer(ctx context.Context, in protocol.Inbound) (any, error) {
	var req protocol.LeagueRegisterRequest
	if err := rpc.DecodeParams(in, &req); err != nil {
		return nil, err
	}
	return m.register(ctx, req.Envelope, req.PlayerMeta, engine.RolePlayer, protocol.DialectIn(ctx, in))
}

func (m *Manager) handleRegisterReferee(ctx context.Context, in protocol.Inbound) (any, error) {
	var req protocol.RefereeRegisterRequest
	if err := rpc.DecodeParams(in, &req); err != nil {
		return nil, err
	}
	return m.register(ctx, req.Envelope, req.RefereeMeta, engine.RoleReferee, protocol.DialectIn(ctx, in))
}

// register admits a player or referee. An agent registering again with its
// own token gets the same id with a fresh token, from any endpoint, so a
// restarted agent keeps its place; an endpoint already registered is
// refused to anyone else. A player whose MCP tools lack what referees call is
// refused here rather than failing its first match. The manager calls an
// admitted agent in the dialect it registered in.
func (m *Manager) register(ctx context.Context, env protocol.Envelope, meta protocol.AgentMeta, role engine.Role, dialect protocol.Dialect) (any, error) {
	if err := checkEnvelope(env); err != nil {
		return nil, err
	}
	if meta.ContactEndpoint == "" {
		return nil, protocol.Reject(protocol.ErrMissingField, "%s_meta.contact_endpoint is required", role)
	}
	if err := checkMeta(role, &meta); err != nil {
		return nil, err
	}
	if m.opts.Config.Network.RequireTLS && !strings.HasPrefix(meta.ContactEndpoint, "https://") {
		return nil, protocol.Reject(protocol.ErrMissingField,
			"this league requires TLS: %s_meta.contact_endpoint %q is not an https:// URL (serve HTTPS with --tls-cert and --tls-key)",
			role, meta.ContactEndpoint)
	}
	if meta.ProtocolVersion != "" && versionBelow(meta.ProtocolVersion, protocol.MinProtocolVersion) {
		return m.rejectRegistration(env, role, protocol.Reject(protocol.ErrProtocolVersion,
			"protocol_version %s is below %s", meta.ProtocolVersion, protocol.MinProtocolVersion).Error()), nil
	}
	if len(meta.GameTypes) > 0 && !slices.Contains(meta.GameTypes, m.game.Type()) {
		return m.rejectRegistration(env, role, fmt.Sprintf("this league plays %s, not %v", m.game.Type(), meta.GameTypes)), nil
	}
	if role == engine.RolePlayer {
		if missing := m.missingPlayerTools(ctx, meta.ContactEndpoint); len(missing) > 0 {
			return m.rejectRegistration(env, role, missingToolsReason(missing)), nil
		}
	}
	token, hash, err := m.newToken()
	if err != nil {
		return nil, err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	agent, known := m.returningAgent(env, role)
	if role == engine.RoleReferee && !known {
		if err := cmp.Or(m.admitReferee(meta.RefereeKey), m.admitTicketless(meta)); err != nil {
			m.Log.Warn("referee refused", "event_type", "REGISTRATION_REJECTED", "sender", env.Sender, "err", err)
			return nil, err
		}
	}
	if holder, taken := m.league.AgentAt(meta.ContactEndpoint); taken && (!known || holder.ID != agent.ID) {
		// An endpoint is public (round announcements, GET_PLAYERS): being
		// registered from it proves nothing, or anyone could take over
		// the agent there with a token of its own. An agent that proved
		// who it is may take it over from another of its role, though:
		// restarted agents get free ports, and one may be a port another
		// agent had before; that one keeps its id and token. A replay of
		// the registration that issued holder's token proves nothing
		// either: it is refused, and holder's token stays valid.
		if !known || holder.Role != role {
			return m.rejectRegistration(env, role, fmt.Sprintf(
				"that endpoint is %s's; it registers again with its own auth_token", holder.ID)), nil
		}
	}
	if holder, taken := m.nameHolder(meta.DisplayName, agent.ID); taken {
		return nil, protocol.Reject(protocol.ErrMissingField, "%s_meta.display_name %q is taken by %s; choose another",
			role, meta.DisplayName, holder.ID)
	}
	if !known && role == engine.RolePlayer && m.league.State != engine.LeagueWaiting {
		return m.rejectRegistration(env, role, "the league has already started"), nil
	}
	if !known {
		agent.ID = m.newID(role, meta.DisplayName)
	}
	agent = engine.AgentInfo{ID: agent.ID, Role: role, DisplayName: meta.DisplayName, Endpoint: meta.ContactEndpoint,
		GameTypes: meta.GameTypes, MaxConcurrentMatches: concurrency(meta, role, m.opts.Config.Referee.MaxConcurrentMatches),
		Version: meta.Version, TokenHash: hash}
	if agent.DisplayName == "" {
		agent.DisplayName = agent.ID
	}
	ev, err := m.stage(engine.Event{Kind: engine.EventAgentRegistered, Agent: &agent})
	if err == nil {
		err = ev.durable()
	}
	if err != nil {
		return nil, err
	}
	m.Client.Learn(agent.Endpoint, dialect)
	m.Log.Info("registered", "event_type", strings.ToUpper(string(role))+"_REGISTERED", "agent_id", agent.ID,
		"endpoint", agent.Endpoint, "again", known)
	resp := m.acceptRegistration(env, role, agent.ID, token)
	resp.ManagerKey = m.managerKey(agent)
	if role == engine.RolePlayer && m.issuesTickets() {
		resp.MatchTicketKey = m.ticketKey(agent.ID)
	}
	return resp, nil
}

// returningAgent recognises an agent registering again with the token it
// was issued (a restarted agent, perhaps on a new endpoint). A token that
// is not the claimed agent's own gives nothing: the request is then an
// ordinary registration. Call with m.mu held.
func (m *Manager) returningAgent(env protocol.Envelope, role engine.Role) (engine.AgentInfo, bool) {
	if env.AuthToken == "" {
		return engine.AgentInfo{}, false
	}
	kind, id := protocol.SplitSender(env.Sender)
	agent, ok := m.league.Agent(id)
	if !ok || kind != role || agent.Role != role || !tokenMatches(env.AuthToken, agent.TokenHash) {
		return engine.AgentInfo{}, false
	}
	return agent, true
}

// newID gives a newcomer its id: its name when the name has the form of
// its role's ids (P07, REF02) and is free, so that a player started with
// --name P01 is P01 and its id and name agree in the standings; otherwise
// the first free id (P01, P02, … as agents register, when nobody names
// theirs). Call with m.mu held.
func (m *Manager) newID(role engine.Role, name string) string {
	prefix := "P"
	if role == engine.RoleReferee {
		prefix = "REF"
	}
	if isNumbered(name, prefix) {
		if _, taken := m.league.Agent(name); !taken {
			return name
		}
	}
	for n := 1; ; n++ {
		id := fmt.Sprintf("%s%02d", prefix, n)
		if _, taken := m.league.Agent(id); !taken {
			return id
		}
	}
}

// isNumbered reports a name of the form prefix and two to four digits.
func isNumbered(name, prefix string) bool {
	digits, ok := strings.CutPrefix(name, prefix)
	if !ok || len(digits) < 2 || len(digits) > 4 {
		return false
	}
	for _, c := range digits {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

func concurrency(meta protocol.AgentMeta, role engine.Role, fallback int) int {
	if role != engine.RoleReferee {
		return 0
	}
	if meta.MaxConcurrentMatches > 0 {
		return meta.MaxConcurrentMatches
	}
	return max(fallback, 1)
}

func responseType(role engine.Role) string {
	if role == engine.RoleReferee {
		return protocol.TypeRefereeRegisterResponse
	}
	return protocol.TypeLeagueRegisterResponse
}

func (m *Manager) acceptRegistration(env protocol.Envelope, role engine.Role, id, token string) *protocol.RegisterResponse {
	resp := &protocol.RegisterResponse{Envelope: m.reply(responseType(role), env), Status: protocol.StatusAccepted}
	resp.AuthToken = token
	if role == engine.RoleReferee {
		resp.RefereeID = id
	} else {
		resp.PlayerID = id
	}
	return resp
}

func (m *Manager) rejectRegistration(env protocol.Envelope, role engine.Role, reason string) *protocol.RegisterResponse {
	m.Log.Warn("registration rejected", "event_type", "REGISTRATION_REJECTED", "sender", env.Sender, "reason", reason)
	return &protocol.RegisterResponse{Envelope: m.reply(responseType(role), env), Status: protocol.StatusRejected, Reason: &reason}
}

// reply starts a reply envelope that echoes the request's conversation.
func (m *Manager) reply(messageType string, req protocol.Envelope) protocol.Envelope {
	env := protocol.NewEnvelope(messageType, protocol.SenderManager, req.ConversationID)
	env.LeagueID = m.opts.Config.LeagueID
	return env
}

// checkEnvelope applies the manager's envelope rules: the fields it needs to
// authenticate must be there, and a timestamp with a non-UTC offset is
// refused (E021). Naive timestamps, which the specification's own sample
// player sends, pass.
func checkEnvelope(env protocol.Envelope) error {
	if env.Sender == "" {
		return protocol.Reject(protocol.ErrMissingField, "sender is required")
	}
	if env.Protocol != "" && env.Protocol != protocol.Version {
		return protocol.Reject(protocol.ErrProtocolVersion, "protocol %q is not %s", env.Protocol, protocol.Version)
	}
	if protocol.HasNonUTCOffset(env.Timestamp) {
		return protocol.Reject(protocol.ErrInvalidTimestamp, "timestamp %q is not in UTC", env.Timestamp)
	}
	return nil
}

// versionBelow compares dotted versions numerically ("2.1.0" < "2.10.0").
func versionBelow(v, min string) bool {
	a, b := strings.Split(v, "."), strings.Split(min, ".")
	for i := 0; i < max(len(a), len(b)); i++ {
		var x, y int
		if i < len(a) {
			fmt.Sscanf(a[i], "%d", &x)
		}
		if i < len(b) {
			fmt.Sscanf(b[i], "%d", &y)
		}
		if x != y {
			return x < y
		}
	}
	return false
}
