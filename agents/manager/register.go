package manager

import (
	"cmp"
	"context"
	"crypto/subtle"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/leaguetui/leaguetui/agents/protocol"
	"github.com/leaguetui/leaguetui/agents/rpc"
	"github.com/leaguetui/leaguetui/agents/store"
	"github.com/leaguetui/leaguetui/agents/throttle"
	"github.com/leaguetui/leaguetui/config"
	"github.com/leaguetui/leaguetui/engine"
)

func (m *Manager) routes() {
	m.Server.Handle(protocol.TypeLeagueRegisterRequest, m.handleRegisterPlayer)
	m.Server.Handle(protocol.TypeRefereeRegisterRequest, m.handleRegisterReferee)
	// A match's report and steps, and a query, are decoded and nothing is
	// kept of their bodies (their messages hold no raw JSON: every string
	// and fact decoded is the manager's own), so the server lends them the
	// buffer each was read into rather than copying it
	// (TestMatchHandlersKeepNothingOfTheBody).
	m.Server.HandleBorrowing(protocol.TypeMatchResultReport, m.handleReport)
	m.Server.HandleBorrowing(protocol.TypeMatchStep, m.handleMatchStep)
	m.Server.HandleBorrowing(protocol.TypeLeagueQuery, m.handleQuery)
	m.Server.Handle(protocol.TypeStartLeague, m.handleStartLeague)
	m.Server.Handle(protocol.TypePauseLeague, m.handlePause)
	m.Server.Handle(protocol.TypeResumeLeague, m.handleResume)
	m.Server.Handle(protocol.TypeStopLeague, m.handleStop)
	m.serveHTTP()
	m.guesses = throttle.New(throttle.Options{})
	m.mountRelay()
	m.mcpTools()
}

func (m *Manager) handleRegisterPlayer(ctx context.Context, in protocol.Inbound) (any, error) {
	var req protocol.LeagueRegisterRequest
	if err := rpc.DecodeParams(in, &req); err != nil {
		return nil, err
	}
	req.PlayerMeta.JoinCode = cmp.Or(req.PlayerMeta.JoinCode, req.JoinCode) // taken beside the envelope too
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
// refused to anyone else. A player that registered through MCP's tools/call
// and whose MCP tools lack what referees call is refused here rather than
// failing its first match. The manager calls an
// admitted agent in the dialect it registered in. The registration is
// decided and staged under m.mu, and waited for in the journal outside it
// (see journaled): the acceptance is sent once it is durable.
func (m *Manager) register(ctx context.Context, env protocol.Envelope, meta protocol.AgentMeta, role engine.Role, dialect protocol.Dialect) (any, error) {
	env.Sender = protocol.RegistrationSender(env, meta, role) // a newcomer's that sends none (another implementation's)
	pull, err := m.askedForPull(&meta, role)
	if err != nil {
		return nil, err
	}
	if err := m.checkRegistration(env, &meta, role); err != nil {
		return nil, err
	}
	if reason := m.unfitReason(ctx, meta, role, dialect); reason != "" {
		return m.rejectRegistration(env, role, reason), nil
	}
	source := throttle.Source(rpc.RemoteAddr(ctx))
	token, hash, err := m.newToken()
	if err != nil {
		return nil, err
	}
	var entry enrolment
	err = m.journaled(func(b *batch) (err error) {
		entry, err = m.enrol(b, env, meta, role, dialect, hash, source)
		return err
	})
	switch {
	case err != nil:
		return nil, err
	case entry.refused != "":
		m.countWrongCode(source, entry.wrongCode)
		return m.rejectRegistration(env, role, entry.refused), nil
	}
	if role == engine.RoleReferee && !meta.MatchTickets {
		// Not ours: it may take its matches from the round announcement.
		m.noteTicketless(entry.agent.ID)
	}
	m.seatAdmitted(pull, entry.agent, token)
	return m.welcome(env, role, entry, token), nil
}

// checkRegistration refuses, with the error its sender gets, a
// registration whose envelope or meta is malformed
// (protocol.CheckRegistration, which normalizes meta's endpoint), or
// that this league's network settings refuse.
func (m *Manager) checkRegistration(env protocol.Envelope, meta *protocol.AgentMeta, role engine.Role) error {
	if err := protocol.CheckRegistration(env, meta, role); err != nil {
		return err
	}
	if m.opts.Config.Network.RequireTLS && !strings.HasPrefix(meta.ContactEndpoint, "https://") {
		return protocol.Reject(protocol.CodeMissingField,
			"this league requires TLS: %s_meta.contact_endpoint %q is not an https:// URL (serve HTTPS with --tls-cert and --tls-key)",
			role, meta.ContactEndpoint)
	}
	return nil
}

// guessRefusal is why a newcomer's registration with a join code is
// refused before its code is compared, or "": its source (rpc.RemoteAddr)
// gave too many wrong codes of late and is locked out for a while
// (agents/throttle), so that no client guesses codes at the rate the
// manager answers; a wrong one sent meanwhile makes the lock-out longer
// (the answer is the same whatever the code: it tells nothing). A player
// registering again as itself (its token) is never held up: its token,
// not a code, admits it.
func (m *Manager) guessRefusal(source string, meta protocol.AgentMeta) string {
	if meta.JoinCode == "" {
		return ""
	}
	wait := m.guesses.LockedOut(source)
	if wait <= 0 {
		return ""
	}
	if m.wrongJoinCode(meta) {
		wait = m.guesses.Wrong(source)
	}
	return fmt.Sprintf("too many wrong join codes from your address: try again in %s", wait.Round(time.Second))
}

// wrongJoinCode says meta presents a join code that is not the one of
// the name it registers under (a name that has one).
func (m *Manager) wrongJoinCode(meta protocol.AgentMeta) bool {
	want, coded := m.opts.JoinCodes.Lookup(meta.DisplayName)
	return coded && meta.JoinCode != "" && subtle.ConstantTimeCompare([]byte(meta.JoinCode), []byte(want)) != 1
}

// countWrongCode counts against source a newcomer refused for a join
// code that is not its name's (wrongCode).
func (m *Manager) countWrongCode(source string, wrongCode bool) {
	if !wrongCode {
		return
	}
	if lock := m.guesses.Wrong(source); lock > 0 {
		// Said at a bounded rate (store.RefusedKey), as every refusal: a
		// guesser cannot flood the log.
		m.Log.Warn("wrong join codes", "event_type", "JOIN_CODE_GUESSES", store.RefusedKey, "join_code_guesses",
			"source", source, "locked_out", lock.String())
	}
}

// unfitReason is why an agent that cannot take part in this league is
// refused (too old a protocol, other games, a player without the tools
// referees call), or "". Only a player that registered through tools/call
// is asked for its tools: the referees call it the same way, and call
// every other player by plain JSON-RPC methods, where its MCP tools (if it
// has any) play no part. Asking every player cost each registration an MCP
// exchange and the player the building of its tools' schemas.
func (m *Manager) unfitReason(ctx context.Context, meta protocol.AgentMeta, role engine.Role, dialect protocol.Dialect) string {
	if meta.ProtocolVersion != "" && versionBelow(meta.ProtocolVersion, protocol.MinProtocolVersion) {
		return protocol.Reject(protocol.CodeProtocolVersion,
			"protocol_version %s is below %s", meta.ProtocolVersion, protocol.MinProtocolVersion).Error()
	}
	if len(meta.GameTypes) > 0 && !slices.Contains(meta.GameTypes, m.game.Type()) {
		return fmt.Sprintf("this league plays %s, not %v", m.game.Type(), meta.GameTypes)
	}
	if role == engine.RolePlayer && dialect.Wrapper == protocol.MethodToolsCall {
		if missing := m.missingPlayerTools(ctx, meta.ContactEndpoint); len(missing) > 0 {
			return missingToolsReason(missing)
		}
	}
	return ""
}

// enrolment is a registration the league took, staged for the journal,
// or the reason it refused it.
type enrolment struct {
	agent   engine.AgentInfo
	again   bool   // a returning agent, keeping its id
	refused string // why the league refuses it; nothing was staged
	// wrongCode says it was refused for a join code that is not its
	// name's: a guess, counted against its source.
	wrongCode bool
}

// enrol decides, within journaled, whether the league takes the agent
// and, if so, stages its registration and learns its dialect, so that the
// league never calls it in another.
func (m *Manager) enrol(b *batch, env protocol.Envelope, meta protocol.AgentMeta, role engine.Role, dialect protocol.Dialect, hash, source string) (enrolment, error) {
	agent, known := m.returningAgent(env, role)
	if role == engine.RoleReferee && !known {
		if err := cmp.Or(m.admitReferee(meta.RefereeKey), m.admitTicketless(meta)); err != nil {
			m.Log.Warn("referee refused", "event_type", "REGISTRATION_REJECTED", store.RefusedKey, protocol.RefusalReason(err),
				"sender", env.Sender, "err", err)
			return enrolment{}, err
		}
	}
	if refused := m.endpointRefusal(meta.ContactEndpoint, known); refused != "" {
		return enrolment{refused: refused}, nil
	}
	if refused := m.nameTakenRefusal(meta.DisplayName, agent.ID); refused != "" {
		return enrolment{refused: refused}, nil
	}
	if kept := m.reservedFor(meta.DisplayName); role == engine.RolePlayer && kept != "" && !strings.EqualFold(kept, meta.DisplayName) {
		return enrolment{refused: fmt.Sprintf("display_name %q is the id kept for %s; choose another name",
			meta.DisplayName, kept)}, nil
	}
	if !known && role == engine.RolePlayer && m.league.State != engine.LeagueWaiting {
		return enrolment{refused: "the league has already started"}, nil
	}
	if !known && role == engine.RolePlayer {
		if refused := m.guessRefusal(source, meta); refused != "" {
			return enrolment{refused: refused}, nil
		}
		if refused := m.newcomerRefusal(meta); refused != "" {
			return enrolment{refused: refused, wrongCode: m.wrongJoinCode(meta)}, nil
		}
	}
	renamed := known && meta.DisplayName != "" && !strings.EqualFold(agent.DisplayName, meta.DisplayName)
	if renamed && role == engine.RolePlayer && m.isOwn(meta.DisplayName) && !m.isOwn(agent.DisplayName) {
		return enrolment{refused: fmt.Sprintf("display_name %q is kept for one of this league's own players; choose another name",
			meta.DisplayName)}, nil
	}
	if renamed || (!known && role == engine.RoleReferee) {
		// An agent registering again under another name is held to
		// the rules of names as a newcomer is, seats aside; a referee
		// to those of every agent (no look-alike of an id).
		if refused := m.nameRefusal(meta, role); refused != "" {
			return enrolment{refused: refused}, nil
		}
	}
	if !known {
		agent.ID = m.newID(role, meta.DisplayName)
	}
	meta.ContactEndpoint = m.seatEndpoint(meta.ContactEndpoint, agent.ID)
	agent = m.registeredAgent(agent.ID, role, meta, hash)
	switch {
	case known:
		agent.PriorTokenHash = hashToken(env.AuthToken)
	case len(meta.RejoinToken) >= protocol.MinRejoinToken:
		store.Redact(meta.RejoinToken) // a secret like a token: no log holds it
		agent.PriorTokenHash = hashToken(meta.RejoinToken)
	}
	delete(m.tokenUsed, agent.ID) // the token issued now is not used yet
	if role == engine.RoleReferee {
		m.forgetStartRefusals(agent.ID) // registered again: perhaps another program now
	}
	if _, err := b.stage(engine.Event{Kind: engine.EventAgentRegistered, Agent: &agent}); err != nil {
		return enrolment{}, err
	}
	m.Client.Learn(agent.Endpoint, dialect)
	return enrolment{agent: agent, again: known}, nil
}

// nameTakenRefusal is why name is not free for the agent self (an id,
// or "" for a newcomer), or "": another goes by it, or by a name that
// looks like it (nameHolder). Two of the league's own players whose kept
// names look alike are the organiser's choice, and both are taken. Call
// with m.mu held.
func (m *Manager) nameTakenRefusal(name, self string) string {
	clash, taken := m.nameHolder(name, self)
	switch {
	case !taken:
		return ""
	case clash.exact:
		// Not a missing field (E003): a registration refused for what it
		// asks, like an endpoint already another's.
		return fmt.Sprintf("display_name %q is taken by %s; choose another name", name, clash.holder.ID)
	case m.isOwn(name) && m.isOwn(clash.holder.DisplayName):
		return ""
	}
	return fmt.Sprintf("display_name %q looks like %q, the %s of %s; choose another name", name, clash.as, clash.what, clash.holder.ID)
}

// endpointRefusal is why the agent may not register from endpoint, or "".
// An endpoint is public (round announcements, GET_PLAYERS): being
// registered from it proves nothing, or anyone could take over the agent
// there with a token of its own. An agent that proved who it is (known)
// may take it over from another, though, of either role: restarted agents
// get free ports, and a referee may get the port a player had before (a
// resumed league restarts all of them); that one keeps its id and token,
// and nothing the league sends it goes elsewhere, since the league calls
// an agent by its id's own record. A replay of the registration that
// issued the holder's token proves nothing either: it is refused, and the
// holder's token stays valid. Call with m.mu held.
func (m *Manager) endpointRefusal(endpoint string, known bool) string {
	holder, taken := m.league.AgentAt(endpoint)
	if !taken || known {
		return ""
	}
	return fmt.Sprintf("that endpoint is %s's; it registers again with its own auth_token", holder.ID)
}

// registeredAgent is the agent as its registration records it.
func (m *Manager) registeredAgent(id string, role engine.Role, meta protocol.AgentMeta, hash string) engine.AgentInfo {
	return engine.AgentInfo{ID: id, Role: role, DisplayName: cmp.Or(meta.DisplayName, id), Endpoint: meta.ContactEndpoint,
		GameTypes: meta.GameTypes, MaxConcurrentMatches: concurrency(meta, role, m.opts.Config.Referee.MaxConcurrentMatches),
		Version: meta.Version, TokenHash: hash}
}

// welcome is the acceptance of an agent whose registration is durable,
// with the key its role needs.
func (m *Manager) welcome(env protocol.Envelope, role engine.Role, entry enrolment, token string) *protocol.RegisterResponse {
	agent := entry.agent
	m.Log.Info("registered", "event_type", strings.ToUpper(string(role))+"_REGISTERED", "agent_id", agent.ID,
		"endpoint", agent.Endpoint, "again", entry.again)
	resp := m.acceptRegistration(env, role, agent.ID, token)
	resp.ManagerKey = m.managerKey(agent)
	if role == engine.RolePlayer && m.issuesTickets() {
		resp.MatchTicketKey = m.ticketKey(agent.ID)
	}
	return resp
}

// returningAgent recognises an agent registering again with a token it
// was issued (a restarted agent, perhaps on a new endpoint). A token that
// is not the claimed agent's own gives nothing: the request is then an
// ordinary registration. Call with m.mu held.
//
// Its own tokens are two: the one its last registration issued, and the
// one it presented then (engine.AgentInfo.PriorTokenHash). An agent saves
// a token only once the manager has journaled it, so an agent killed in
// between (with its leaguetui, while a resumed league's agents register
// again) holds the prior one, and a journal and credentials file that
// disagree so must not lock it out of its own league. A newcomer's prior
// token is the rejoin token it saved before it first registered
// (protocol.AgentMeta.RejoinToken), for the same reason. We keep the saved
// token valid rather than make the new one wait for a confirmation: that
// needs no message other implementations do not send, and a folder
// already left so by a manager that journaled no prior token resumes too
// (the engine takes the token before the new one for the prior). The
// prior token stays valid only until the agent uses the new one: it
// registers with it (it is then the prior) or sends the manager a message
// with it (tokenUsed).
func (m *Manager) returningAgent(env protocol.Envelope, role engine.Role) (engine.AgentInfo, bool) {
	if env.AuthToken == "" {
		return engine.AgentInfo{}, false
	}
	kind, id := protocol.SplitSender(env.Sender)
	agent, ok := m.league.Agent(id)
	if !ok && id != "" {
		// A newcomer that died before it saved its id presents the name
		// it registered under and its rejoin token.
		agent, ok = m.agentNamed(id, role)
		id = agent.ID
	}
	if !ok || kind != role || agent.Role != role {
		return engine.AgentInfo{}, false
	}
	current := tokenMatches(env.AuthToken, agent.TokenHash)
	prior := agent.PriorTokenHash != "" && !m.tokenUsed[id] && tokenMatches(env.AuthToken, agent.PriorTokenHash)
	if !current && !prior {
		return engine.AgentInfo{}, false
	}
	return agent, true
}

// agentNamed finds the agent of role registered under the display name
// name. Call with m.mu held.
func (m *Manager) agentNamed(name string, role engine.Role) (engine.AgentInfo, bool) {
	list := m.league.Players()
	if role == engine.RoleReferee {
		list = m.league.Referees()
	}
	for _, a := range list {
		if a.DisplayName == name {
			return a, true
		}
	}
	return engine.AgentInfo{}, false
}

// newID gives a newcomer its id: the id reserved for its name when the
// league was started for it; else its name when the name has the form of
// its role's ids (P07, REF02) and is free, so that a player started with
// --name P01 is P01 and its id and name agree in the standings; otherwise
// the first free id (P01, P02, … as agents register, when nobody names
// theirs). Reserved ids go to their names only. Call with m.mu held.
func (m *Manager) newID(role engine.Role, name string) string {
	prefix := "P"
	if role == engine.RoleReferee {
		prefix = "REF"
	}
	free := func(id string) bool {
		_, taken := m.league.Agent(id)
		return !taken && (role != engine.RolePlayer || m.reservedFor(id) == "")
	}
	if role == engine.RolePlayer {
		for i, reserved := range m.opts.Reserved {
			if id := config.PlayerIDAt(i); strings.EqualFold(reserved, name) {
				if _, taken := m.league.Agent(id); !taken {
					return id
				}
			}
		}
	}
	if isNumbered(name, prefix) && free(name) {
		return name
	}
	for n := 1; ; n++ {
		if id := fmt.Sprintf("%s%02d", prefix, n); free(id) {
			return id
		}
	}
}

// reservedFor is the name a player id is kept for, "" for none.
func (m *Manager) reservedFor(id string) string {
	for i, name := range m.opts.Reserved {
		if strings.EqualFold(config.PlayerIDAt(i), id) {
			return name
		}
	}
	return ""
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
	m.Log.Warn("registration rejected", "event_type", "REGISTRATION_REJECTED", store.RefusedKey, reason, "sender", env.Sender)
	return &protocol.RegisterResponse{Envelope: m.reply(responseType(role), env), Status: protocol.StatusRejected, Reason: &reason}
}

// reply starts a reply envelope that echoes the request's conversation.
func (m *Manager) reply(messageType string, req protocol.Envelope) protocol.Envelope {
	env := protocol.NewEnvelope(messageType, protocol.SenderManager, req.ConversationID)
	env.LeagueID = m.opts.Config.LeagueID
	return env
}

// checkEnvelope applies the manager's envelope rules to any message
// (protocol.CheckEnvelope).
func checkEnvelope(env protocol.Envelope) error { return protocol.CheckEnvelope(env) }

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
