// Package node is what every agent process shares: its logger, its /mcp
// server and HTTP client, its identity once registered, its health route, and
// the lines it prints so that a parent process knows it is up.
//
// It also holds, once for every role, the agent's lifecycle (Agent: Start,
// then Shutdown, whose order is Stop's, with work on the context Lifetime
// gives) and its registration, first or again after a restart (Join and
// Register). A role supplies only what differs: its Registration, its
// Stopping steps, and what it keeps of the answer (Admitted). Roles are
// typed values, engine.Role, which agents/protocol names protocol.Role.
package node

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"os"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/google/uuid"
	"github.com/prometheus/client_golang/prometheus"

	"github.com/leaguetui/leaguetui/agents/mcpserve"
	"github.com/leaguetui/leaguetui/agents/metrics"
	"github.com/leaguetui/leaguetui/agents/protocol"
	"github.com/leaguetui/leaguetui/agents/retry"
	"github.com/leaguetui/leaguetui/agents/rpc"
	"github.com/leaguetui/leaguetui/agents/store"
	"github.com/leaguetui/leaguetui/agents/tlsconf"
	"github.com/leaguetui/leaguetui/config"
)

// Lines an agent prints on stdout, for the process that started it.
const (
	ReadyListening  = "leaguetui: listening "  // followed by the /mcp URL
	ReadyRegistered = "leaguetui: registered " // followed by the assigned id
)

// Node is one agent process's shared runtime.
type Node struct {
	turns atomic.Int64 // turns of matches begun (referees), for GET /health
	// modelCost, set before serving, sums a model player's cost for GET
	// /health; nil for every other agent.
	modelCost func() *protocol.ModelCost
	Cfg       config.Config
	Role      protocol.Role
	Name      string // display name, also the log file's name
	Log       *slog.Logger
	Client    *rpc.Client
	Server    *rpc.Server
	MCP       *mcpserve.Server // the same /mcp as an MCP server: league operations as tools
	// Metrics is the agent's own registry, served on GET /metrics
	// (agents/metrics declares what each role puts in it).
	Metrics *prometheus.Registry
	Stdout  io.Writer
	// Admitted, if set, takes a registration's answer before the agent
	// says it is registered, for what the agent keeps besides its id.
	Admitted func(*protocol.RegisterResponse)
	// LeagueCompleted, if set, runs when the league says it is over,
	// before the agent acknowledges it: what the agent must save first.
	LeagueCompleted func()
	// OpenReferees is set on a manager that admits referees without the
	// referee key, so that /health says so.
	OpenReferees bool

	manager managerProof // what its manager proves itself with

	mu        sync.RWMutex
	id, token string
	// layout is where the agent keeps its files, under the league it
	// joined: registration may change the league (the manager names it)
	// while the agent already answers calls, so it is read through Layout.
	layout    store.Layout
	sender    string // from id, once registered: every reply's envelope carries it
	state     string
	listening *rpc.Listening
	// advertised is the endpoint registered (ContactEndpoint); "" before.
	advertised string
	logFile    io.Closer
	// life is the agent's lifetime (see Lifetime); Stop ends it.
	life     context.Context
	endLife  context.CancelFunc
	stopOnce sync.Once
	stopErr  error
}

// ParentPIDEnv carries the PID of the leaguetui that started an agent.
// The agent checks at start that this process is still its parent: one
// that died while the agent was being started (before the kernel's
// parent-death signal was armed) leaves an orphan that must not run.
const ParentPIDEnv = "LEAGUETUI_PARENT_PID"

// CheckParent fails if the agent was started by a leaguetui that is gone.
func CheckParent() error {
	want := os.Getenv(ParentPIDEnv)
	if want == "" {
		return nil // started by hand, not by leaguetui
	}
	if got := strconv.Itoa(os.Getppid()); got != want {
		return fmt.Errorf("the leaguetui that started this agent (PID %s) is gone (parent now PID %s); not starting", want, got)
	}
	return nil
}

// Option is what one role's node differs in from the others'.
type Option func(*options)

type options struct {
	logPath     func(store.Layout) string
	writeBuffer int
}

// SendsLarge gives each of the agent's outgoing connections a write
// buffer of bytes, for an agent whose requests outgrow net/http's 4 KB
// (the manager's round broadcasts): each then leaves in one write.
func SendsLarge(bytes int) Option {
	return func(o *options) { o.writeBuffer = bytes }
}

// LogAt puts the agent's log where path says rather than with the other
// agents' (store.Layout.AgentLog): the manager's is the league's log.
func LogAt(path func(store.Layout) string) Option {
	return func(o *options) { o.logPath = path }
}

// New prepares a node; it does not listen yet.
func New(cfg config.Config, role protocol.Role, name, dataDir string, opts ...Option) (*Node, error) {
	var o options
	for _, opt := range opts {
		opt(&o)
	}
	if err := CheckParent(); err != nil {
		return nil, err
	}
	layout, err := store.NewLayout(dataDir, cfg.LeagueID)
	if err != nil {
		return nil, fmt.Errorf("--league-id: %w", err)
	}
	logPath, err := layout.AgentLog(name)
	if err != nil {
		return nil, fmt.Errorf("agent name: %w", err)
	}
	if err := store.CheckWritable(dataDir); err != nil {
		return nil, err
	}
	component := protocol.RoleSender(role, name)
	if o.logPath != nil {
		logPath = o.logPath(layout)
	}
	logger, closer, err := store.NewLogger(logPath, component, name, slog.LevelInfo)
	if err != nil {
		return nil, fmt.Errorf("cannot open the log in %s: %w", dataDir, err)
	}
	n := &Node{Cfg: cfg, Role: role, Name: name, Log: logger, layout: layout, Stdout: os.Stdout,
		state: protocol.StateInit, logFile: closer}
	n.life, n.endLife = context.WithCancel(context.Background())
	n.Client = rpc.NewClient(rpc.Options{Retry: cfg.Retry, Breaker: cfg.Breaker, Log: logger, MaxReplyBytes: cfg.Network.MessageBytes,
		WriteBufferBytes: o.writeBuffer})
	n.Server = rpc.NewServer(logger, n.Sender)
	n.Server.SetReadTimeout(cfg.Timeouts.Generic) // a request slower to arrive than any reply would be is cut off
	n.Server.SetMaxBodyBytes(cfg.Network.MessageBytes)
	n.MCP = mcpserve.Mount(n.Server, role, name)
	n.Server.HandleHTTP("GET /health", n.serveHealth)
	n.Metrics = metrics.NewRegistry()
	n.Server.HandleHTTP("GET /metrics", metrics.Handler(n.Metrics).ServeHTTP)
	return n, nil
}

// Listen binds the agent's port (0 takes a free one) and says so on stdout.
// By then the agent's handlers are in place, so each becomes an MCP tool.
func (n *Node) Listen(port int) error {
	n.MCP.PublishLeagueTools()
	serverTLS, err := tlsconf.Server(n.Cfg.Network.TLSCert, n.Cfg.Network.TLSKey)
	if err != nil {
		return err
	}
	n.Server.SetTLS(serverTLS)
	l, err := n.Server.Listen(n.Cfg.Network.Host, port)
	if err != nil {
		return err
	}
	n.mu.Lock()
	n.listening = l
	n.mu.Unlock()
	n.Log.Info("listening", "event_type", "SYSTEM_STARTUP", "endpoint", l.URL())
	fmt.Fprintln(n.Stdout, ReadyListening+l.URL())
	return nil
}

// Layout is where the agent keeps its files, under the league it joined.
func (n *Node) Layout() store.Layout {
	n.mu.RLock()
	defer n.mu.RUnlock()
	return n.layout
}

// LeagueID is the league the agent joined: the one it was started for,
// or the one the manager named when it registered.
func (n *Node) LeagueID() string { return n.Layout().LeagueID }

// Endpoint is this agent's /mcp URL once listening, as this machine
// reaches it (ContactEndpoint is the one it registers).
func (n *Node) Endpoint() string {
	n.mu.RLock()
	defer n.mu.RUnlock()
	if n.listening == nil {
		return ""
	}
	return n.listening.URL()
}

// Identity returns the id and token the manager issued ("" before registration).
func (n *Node) Identity() (id, token string) {
	n.mu.RLock()
	defer n.mu.RUnlock()
	return n.id, n.token
}

// SetIdentity records what registration issued.
func (n *Node) SetIdentity(id, token string) {
	store.Redact(token)
	n.mu.Lock()
	n.id, n.token, n.state = id, token, protocol.StateRegistered
	n.sender = ""
	if id != "" {
		n.sender = protocol.RoleSender(n.Role, id)
	}
	n.mu.Unlock()
}

// SetState changes the state /health reports.
func (n *Node) SetState(state string) {
	n.mu.Lock()
	n.state = state
	n.mu.Unlock()
}

// State is the state /health reports.
func (n *Node) State() string {
	n.mu.RLock()
	defer n.mu.RUnlock()
	return n.state
}

// Sender is this agent's sender value: "referee:REF01", "player:P01", or
// "role:alpha"-style before registration.
func (n *Node) Sender() string {
	n.mu.RLock()
	sender := n.sender
	n.mu.RUnlock()
	if sender == "" {
		return protocol.RoleSender(n.Role, n.Name)
	}
	return sender
}

// Envelope starts a message to the manager: it carries this agent's token,
// which only the manager that issued it checks.
func (n *Node) Envelope(messageType, conversationID string) protocol.Envelope {
	env := n.PeerEnvelope(messageType, conversationID)
	_, env.AuthToken = n.Identity()
	return env
}

// PeerEnvelope starts a message (or reply) to any other agent. It leaves
// the token out, although the specification's samples put it in: anyone
// can send a player an invitation or a referee a message, so a token that
// went to them could be replayed to the manager as this agent. Only the
// manager checks tokens (protocol.md §9 #6), so no peer needs it.
func (n *Node) PeerEnvelope(messageType, conversationID string) protocol.Envelope {
	if conversationID == "" {
		conversationID = "conv-" + uuid.NewString()
	}
	env := protocol.NewEnvelope(messageType, n.Sender(), conversationID)
	env.LeagueID = n.LeagueID()
	return env
}

// Register sends a registration to the manager until it is taken or ctx
// ends: the manager may still be starting, or busy. It waits longer after
// each failed attempt, and when it gives up it says after how many and
// with the manager's last answer. A rejection, or an answer saying the
// manager will never understand, is final at once.
func (n *Node) Register(ctx context.Context, managerURL string, msg protocol.Message, timeout time.Duration) (*protocol.RegisterResponse, error) {
	n.Client.Vital(managerURL)
	credsPath, err := n.Layout().Credentials(n.Name)
	if err != nil {
		return nil, err
	}
	n.presentCredentials(credsPath, msg.Header())
	var resp protocol.RegisterResponse
	if err := n.sendRegistration(ctx, managerURL, msg, timeout, &resp); err != nil {
		return nil, err
	}
	if resp.Status != protocol.StatusAccepted {
		reason := ""
		if resp.Reason != nil {
			reason = *resp.Reason
		}
		return nil, fmt.Errorf("registration rejected by %s: %s", managerURL, reason)
	}
	id := resp.AgentID()
	if err := n.joinLeague(resp.LeagueID, id); err != nil {
		return nil, fmt.Errorf("registration with %s: %w", managerURL, err)
	}
	if credsPath, err = n.Layout().Credentials(n.Name); err != nil {
		return nil, err
	}
	n.manager.set(resp.ManagerKey)
	if n.Admitted != nil {
		n.Admitted(&resp)
	}
	n.SetIdentity(id, resp.AuthToken)
	creds := store.Credentials{LeagueID: n.LeagueID(), AgentID: id, Role: n.Role, AuthToken: resp.AuthToken}
	if err := store.SaveCredentials(credsPath, creds); err != nil {
		// Registered all the same; only a restart would come back as a newcomer.
		n.Log.Warn("cannot save credentials", "event_type", "DATA_WRITE_FAILED", "err", err)
	}
	n.Log.Info("registered", "event_type", "AGENT_REGISTERED", "agent_id", id, "league_id", n.LeagueID())
	fmt.Fprintln(n.Stdout, ReadyRegistered+id)
	if n.Name != id { // the manager gives ids; the name is shown beside it
		fmt.Fprintf(n.Stdout, "leaguetui: %s is %s in this league\n", n.Name, id)
	}
	return &resp, nil
}

// sendRegistration sends msg until the manager answers it, backing off
// between attempts, and says why it gave up.
func (n *Node) sendRegistration(ctx context.Context, managerURL string, msg protocol.Message, timeout time.Duration,
	resp *protocol.RegisterResponse) error {
	policy := retry.Policy{Delay: registerWait,
		Final: func(err error) bool { return registrationFailure(managerURL, err) != nil },
		BeforeRetry: func(attempt int, err error) error {
			n.Log.Warn("registration not taken yet", "event_type", "REGISTER_RETRY", "attempt", attempt,
				"wait", registerWait(attempt), "err", err)
			return nil
		}}
	start := time.Now()
	// The attempt that ctx's end cuts short says only that time ran out;
	// the one before it says why the manager did not take the agent.
	var answered error
	err := retry.Do(ctx, policy, func(int) error {
		err := n.Client.Do(ctx, rpc.Call{Endpoint: managerURL, Message: msg, Timeout: timeout, Attempts: 1}, resp)
		if err != nil && ctx.Err() == nil {
			answered = err
		}
		return err
	})
	var interrupted *retry.Interrupted
	if errors.As(err, &interrupted) {
		last := interrupted.Last
		if answered != nil {
			last = answered
		}
		return fmt.Errorf("gave up registering with %s after %d attempts in %s; the last one: %w",
			managerURL, interrupted.Attempts, time.Since(start).Round(time.Millisecond), last)
	}
	if err != nil {
		return registrationFailure(managerURL, err)
	}
	return nil
}

// registerWait is the wait after a failed registration attempt: short at
// first (the manager is usually just starting), doubling up to a few
// seconds.
func registerWait(attempt int) time.Duration {
	doubling := config.Retry{InitialDelay: 200 * time.Millisecond, Multiplier: 2}
	return min(doubling.Delay(attempt), 3*time.Second)
}

// registrationFailure says why a registration failed for good, or is nil
// when trying again may help.
func registrationFailure(managerURL string, err error) error {
	if !worthRegisteringAgain(err) {
		return fmt.Errorf("registration with %s failed: %w", managerURL, err)
	}
	var untrusted *tls.CertificateVerificationError
	if errors.As(err, &untrusted) {
		// Trying again will not change the certificate.
		return fmt.Errorf("the manager at %s has a certificate this agent does not trust "+
			"(pass --tls-ca with the CA that signed it): %w", managerURL, err)
	}
	return nil
}

// worthRegisteringAgain tells a failure that may pass (no answer, or the
// manager's own error, such as one while it starts) from an answer that
// will not change: a request it cannot parse or no method it serves.
func worthRegisteringAgain(err error) bool {
	var callErr *rpc.CallError
	var rpcErr *protocol.RPCError
	switch {
	case errors.As(err, &callErr):
		return true
	case errors.As(err, &rpcErr):
		switch rpcErr.Code {
		case protocol.CodeParseError, protocol.CodeInvalidRequest, protocol.CodeMethodNotFound:
			return false
		}
		return true
	}
	return false
}

// joinLeague takes the league the manager says this agent joined, and the
// id it was given; both come from the network and name files, so they are
// checked before use.
func (n *Node) joinLeague(leagueID, id string) error {
	if err := store.SafeName(id); err != nil {
		return fmt.Errorf("the manager issued the id %q: %w", id, err)
	}
	if leagueID == "" {
		return nil
	}
	layout, err := store.NewLayout(n.Layout().Root, leagueID)
	if err != nil {
		return fmt.Errorf("the manager named league %q: %w", leagueID, err)
	}
	n.mu.Lock()
	n.layout = layout
	n.mu.Unlock()
	return nil
}

// presentCredentials signs a registration with the id and token this agent
// was issued before it restarted, if it kept them: the manager that issued
// them gives the agent its place back, another manager ignores them.
func (n *Node) presentCredentials(path string, env *protocol.Envelope) {
	creds, ok, err := store.LoadCredentials(path)
	if err != nil {
		n.Log.Warn("ignoring unreadable credentials", "event_type", "CREDENTIALS_IGNORED", "err", err)
	}
	if !ok || creds.Role != n.Role {
		return
	}
	env.Sender = protocol.RoleSender(n.Role, creds.AgentID)
	env.AuthToken = creds.AuthToken
}

// CountTurn counts one turn of a match begun, shown by GET /health.
func (n *Node) CountTurn() { n.turns.Add(1) }

// ReportModelCost makes GET /health carry cost's answer; call it before
// the node serves.
func (n *Node) ReportModelCost(cost func() *protocol.ModelCost) { n.modelCost = cost }

func (n *Node) serveHealth(w http.ResponseWriter, _ *http.Request) {
	id, _ := n.Identity()
	writes, bytes := store.WriteStats()
	health := protocol.Health{ID: id, Role: n.Role, DisplayName: n.Name, State: n.State(),
		LeagueID: n.LeagueID(), Endpoint: n.healthEndpoint(), Served: n.Server.Served(), Turns: n.turns.Load(),
		Tools: n.MCP.Names(), FileWrites: writes, BytesWritten: bytes, OpenReferees: n.OpenReferees}
	if n.modelCost != nil {
		health.Model = n.modelCost()
	}
	rpc.WriteJSON(w, http.StatusOK, health)
}

// healthEndpoint is the endpoint registered, or before that the local one.
func (n *Node) healthEndpoint() string {
	n.mu.RLock()
	advertised := n.advertised
	n.mu.RUnlock()
	if advertised != "" {
		return advertised
	}
	return n.Endpoint()
}
