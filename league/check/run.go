package check

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/leaguetui/leaguetui/agents/protocol"
	"github.com/leaguetui/leaguetui/agents/relay"
	"github.com/leaguetui/leaguetui/agents/rpc"
	"github.com/leaguetui/leaguetui/engine"
	"github.com/leaguetui/leaguetui/league/process"
	"github.com/leaguetui/leaguetui/league/sandbox"
)

// Options are what one run of the checker is given.
type Options struct {
	Role    Role
	Games   []string // the games to check; empty: every game the agent declares
	Strict  bool     // run the SHOULD checks too
	Command []string // the agent's command line, with {manager}, {port}, {name}, {data}; empty with Listen
	Listen  bool     // wait for an agent started by hand instead
	Host    string   // where the checker's servers listen (default 127.0.0.1)
	DataDir string   // the agent's {data} folder and its output (default: a temporary folder)
	// MoveTimeout is the deadline the checker gives a player's move
	// (league.v2: 30 s); JoinTimeout the invitation's (5 s).
	MoveTimeout, JoinTimeout time.Duration
	// RegisterTimeout bounds the wait for the agent's registration (with
	// Listen, for the person to start it).
	RegisterTimeout time.Duration
	// RefereeMatchTimeout bounds how long a referee may take over one match.
	RefereeMatchTimeout time.Duration
	Status              io.Writer // progress for people (stderr); nil for none
	// Executable is leaguetui's own, which confines the agent it starts
	// (process.StartProgram); NoSandbox runs a trusted agent unconfined,
	// RequireSandbox refuses to run it with less than files, ports and
	// signals confined. Limits are its resource limits.
	Executable     string
	NoSandbox      bool
	RequireSandbox bool
	Limits         sandbox.Limits
	// Read are more files and folders the confined agent may read
	// (absolute), as a roster entry's "read" are.
	Read []string
}

// Games the checker can play.
var Games = []string{engine.EvenOddType, engine.LinkRaceType}

// The league the checker plays, and the ids it gives.
const (
	checkLeague    = "league_check"
	assignedPlayer = "P01"
	opponentPlayer = "P02"
	checkReferee   = "REF01"
	agentName      = "checked-agent"
)

// leagueStartDelay is how long after its registration the agent is first
// called.
const leagueStartDelay = time.Second

// refusalWait is how long a refused agent has to register again or exit.
const refusalWait = 10 * time.Second

// session is one run: the manager the agent registers with, the agent,
// and what the checks found.
type session struct {
	opts  Options
	rec   *recorder
	mgr   *peer
	agent *agentProcess // nil with Listen
	argv  []string      // the expanded command line
	// placeholders are the values the agent's command line was given,
	// the same each time it is started.
	placeholders process.Placeholders
	data         string

	mu          sync.Mutex
	refuseFirst bool
	refused     int
	token       string
	ticketKey   string // the player's match ticket key
	managerKey  string // what the checker presents to a referee's start_match
	refereeMeta protocol.AgentMeta

	id       string // the id the agent was given
	endpoint string // its /mcp URL (its pull seat's relay endpoint, for a player that asked for one)
	pull     bool   // the player registered for a pull seat
	relay    *relay.Relay
	meta     protocol.AgentMeta
	games    []string
	ids      atomic.Int64
	// league calls the agent as leaguetui's agents do, for the verdict
	// "plays in a leaguetui league".
	league *rpc.Client
	dead   string // set once the agent stopped answering: later checks are skipped
	// pagesURL is the checker's page server, for a referee's link race.
	pagesURL string
	// startRefused says why a referee took no start_match in any dialect.
	startRefused string
	// unplayed says why a match given to a referee would not have counted
	// in a leaguetui league: it came to no result the manager takes.
	unplayed string
}

// Run checks one agent and returns the verdicts. Its error is for what
// keeps the checker itself from running (a command that does not start,
// a port it cannot take), not for the agent's failures.
func Run(ctx context.Context, opts Options) (Report, error) {
	opts = withDefaults(opts)
	if err := validate(opts); err != nil {
		return Report{}, err
	}
	s := &session{opts: opts, rec: newRecorder(), token: "tok-check-" + randomHex(16),
		ticketKey: "tk-" + randomHex(32), managerKey: "mk-" + randomHex(32)}
	cfg := s.leagueConfig()
	s.league = rpc.NewClient(rpc.Options{Retry: cfg.Retry, Breaker: cfg.Breaker})
	var err error
	if s.data, err = s.dataDir(); err != nil {
		return Report{}, err
	}
	defer s.cleanUp()
	if s.mgr, err = startPeer(opts.Host, s.answerManager); err != nil {
		return Report{}, err
	}
	defer s.mgr.close()
	s.hostPullSeats(cfg)
	if opts.Role == RefereeRole {
		stop, err := s.servePages()
		if err != nil {
			return Report{}, err
		}
		defer stop()
	}
	defer s.stopAgent()
	if err := s.join(ctx); err != nil {
		return Report{}, err
	}
	if s.endpoint != "" {
		switch opts.Role {
		case PlayerRole:
			s.checkPlayer(ctx)
		case RefereeRole:
			s.checkReferee(ctx)
		}
	}
	return s.report(), nil
}

func withDefaults(o Options) Options {
	if o.Role == "" {
		o.Role = PlayerRole
	}
	if o.Host == "" {
		o.Host = "127.0.0.1"
	}
	if o.MoveTimeout <= 0 {
		o.MoveTimeout = 30 * time.Second
	}
	if o.JoinTimeout <= 0 {
		o.JoinTimeout = 5 * time.Second
	}
	if o.RegisterTimeout <= 0 {
		o.RegisterTimeout = 60 * time.Second
		if o.Listen {
			o.RegisterTimeout = 10 * time.Minute
		}
	}
	if o.RefereeMatchTimeout <= 0 {
		o.RefereeMatchTimeout = 5 * time.Minute
	}
	if o.Status == nil {
		o.Status = io.Discard
	}
	return o
}

// UsageError is a command line the checker cannot run.
type UsageError struct{ Msg string }

func (e *UsageError) Error() string { return e.Msg }

func validate(o Options) error {
	switch {
	case o.Role != PlayerRole && o.Role != RefereeRole:
		return &UsageError{fmt.Sprintf("--role %q: want player or referee", o.Role)}
	case o.Listen && len(o.Command) > 0:
		return &UsageError{"--listen waits for an agent started by hand: give no command after --"}
	case !o.Listen && len(o.Command) == 0:
		return &UsageError{"give the agent's command after -- (e.g. leaguetui check -- python3 player.py --port {port} --manager {manager}), or --listen"}
	}
	for _, g := range o.Games {
		if !slices.Contains(Games, g) {
			return &UsageError{fmt.Sprintf("--game %q: want one of %s", g, strings.Join(Games, ", "))}
		}
	}
	if !o.Listen {
		// A typo in a placeholder is caught before anything starts.
		if _, err := (process.Placeholders{process.PlaceholderManager: "m", process.PlaceholderPort: "1",
			process.PlaceholderName: "n", process.PlaceholderData: "d"}).ExpandAll(o.Command); err != nil {
			return &UsageError{"the agent's command: " + err.Error()}
		}
	}
	return nil
}

func (s *session) dataDir() (string, error) {
	if s.opts.DataDir != "" {
		return s.opts.DataDir, os.MkdirAll(s.opts.DataDir, 0o755)
	}
	return os.MkdirTemp("", "leaguetui-check-")
}

// cleanUp removes the temporary data folder of a run in which every
// check passed; after a failure it says where the agent's output is.
func (s *session) cleanUp() {
	for _, d := range Selected(s.opts.Role, s.opts.Strict) {
		if s.rec.result(d).Status == Fail {
			s.statusf("the agent's output is in %s", filepath.Join(s.data, "agent.out"))
			return
		}
	}
	if s.opts.DataDir == "" {
		s.stopAgent() // before its folder goes
		_ = os.RemoveAll(s.data)
	}
}

func randomHex(n int) string {
	b := make([]byte, n)
	if _, err := rand.Read(b); err != nil {
		panic(err)
	}
	return hex.EncodeToString(b)
}

// report is the verdict of every selected check, in catalogue order.
func (s *session) report() Report {
	r := Report{Role: s.opts.Role, Games: s.games, Strict: s.opts.Strict, Sandbox: s.sandboxStrength()}
	for _, d := range Selected(s.opts.Role, s.opts.Strict) {
		r.Results = append(r.Results, s.rec.result(d))
	}
	return r
}

// sandboxStrength is how the checked agent ran: the sandbox's strength
// line (what it confined, what it did not), for the verdict.
func (s *session) sandboxStrength() string {
	if s.agent == nil {
		return "none: the agent was started by hand (--listen), not by the checker"
	}
	return strings.TrimPrefix(s.agent.describe(), checkedProgram+": ")
}

func (s *session) statusf(format string, args ...any) {
	fmt.Fprintf(s.opts.Status, "leaguetui check: "+format+"\n", args...)
}

// registerType is the register request of the role checked.
func (s *session) registerType() string {
	if s.opts.Role == RefereeRole {
		return protocol.TypeRefereeRegisterRequest
	}
	return protocol.TypeLeagueRegisterRequest
}

// answerManager is the checker's manager: it answers registrations (the
// first refused when the refusal is checked), takes reports, and
// acknowledges everything else.
func (s *session) answerManager(_ context.Context, in inbound) any {
	switch in.Type {
	case protocol.TypeLeagueRegisterRequest, protocol.TypeRefereeRegisterRequest:
		return s.registration(in)
	case protocol.TypeMatchResultReport:
		return &protocol.Ack{Envelope: protocol.NewEnvelope(protocol.TypeMatchResultAck, protocol.SenderManager, ""), Status: "RECEIVED"}
	case protocol.TypeLeagueQuery:
		env := protocol.NewEnvelope(protocol.TypeLeagueQueryResponse, protocol.SenderManager, "")
		return &protocol.LeagueQueryResponse{Envelope: env, Success: false, Error: "leaguetui check answers no queries"}
	}
	return nil
}

func (s *session) registration(in inbound) any {
	s.mu.Lock()
	defer s.mu.Unlock()
	conv := str(fields(in.Message), "conversation_id")
	if in.Type != s.registerType() {
		return protocol.Reject(protocol.CodeMissingField, "leaguetui check is checking a %s; this is a %s", s.opts.Role, in.Type)
	}
	respType := protocol.TypeLeagueRegisterResponse
	if s.opts.Role == RefereeRole {
		respType = protocol.TypeRefereeRegisterResponse
	}
	resp := &protocol.RegisterResponse{Envelope: protocol.NewEnvelope(respType, protocol.SenderManager, conv)}
	if s.refuseFirst && s.refused == 0 {
		s.refused++
		reason := "leaguetui check refuses the first registration, to see that the agent handles a refusal"
		resp.Status, resp.Reason = protocol.StatusRejected, &reason
		return resp
	}
	resp.Status, resp.AuthToken, resp.LeagueID = protocol.StatusAccepted, s.token, checkLeague
	if s.opts.Role == RefereeRole {
		resp.RefereeID, resp.ManagerKey = checkReferee, s.managerKey
	} else {
		resp.PlayerID, resp.MatchTicketKey = assignedPlayer, s.ticketKey
	}
	return resp
}

// start runs the agent's command with the placeholders filled in. Each
// start has a port of its own: the one a refused agent let go of may be
// any other program's by the time it starts again (an outgoing
// connection's, from the same range of ports the kernel hands out).
func (s *session) start() error {
	port, err := process.FreePort(s.opts.Host)
	if err != nil {
		return err
	}
	data, err := filepath.Abs(filepath.Join(s.data, "agent"))
	if err != nil {
		return err
	}
	ph := process.Placeholders{process.PlaceholderManager: s.mgr.URL, process.PlaceholderPort: strconv.Itoa(port),
		process.PlaceholderName: agentName, process.PlaceholderData: data}
	s.placeholders = ph
	if s.argv, err = ph.ExpandAll(s.opts.Command); err != nil {
		return &UsageError{"the agent's command: " + err.Error()}
	}
	s.statusf("starting %s", strings.Join(s.argv, " "))
	spec := s.agentSpec(s.placeholders)
	if s.pagesURL != "" {
		// A leaguetui referee's page server, for the link race.
		spec.Secrets = append(spec.Secrets, "LEAGUETUI_PAGES_URL="+s.pagesURL)
	}
	p, err := startAgent(spec)
	if err != nil {
		return err
	}
	s.statusf("%s", p.describe())
	s.agent = p
	return nil
}

func (s *session) stopAgent() {
	if s.agent != nil {
		s.agent.stop(10 * time.Second)
	}
}

// alive is nil while the agent runs (always, for one started by hand).
func (s *session) alive() error {
	if s.agent == nil {
		return nil
	}
	if done, how := s.agent.exited(); done {
		return fmt.Errorf("%w (%s); its last output: %s", errGone, how, s.lastWords())
	}
	return nil
}

// join gets the agent registered: started (or waited for, with Listen),
// refused once where the refusal is checked, then admitted.
func (s *session) join(ctx context.Context) error {
	if s.opts.Listen {
		fmt.Fprintf(s.opts.Status, "leaguetui check: manager at %s\nleaguetui check: start the %s with this manager URL; waiting %s for it to register\n",
			s.mgr.URL, s.opts.Role, s.opts.RegisterTimeout)
		s.rec.skip("register/refusal-is-handled", "with --listen the checker does not refuse: it cannot start the agent again")
		return s.admitted(ctx, 0)
	}
	s.mu.Lock()
	s.refuseFirst = true
	s.mu.Unlock()
	if err := s.start(); err != nil {
		return err
	}
	if err := s.mgr.await(ctx, s.opts.RegisterTimeout, s.alive, s.registered(1)); err != nil {
		s.neverRegistered(err)
		return nil
	}
	s.checkRefusal(ctx)
	if s.dead != "" {
		return nil
	}
	return s.admitted(ctx, len(s.mgr.received(s.registerType()))-1)
}

// registered is true once n register requests came.
func (s *session) registered(n int) func() bool {
	return func() bool { return len(s.mgr.received(s.registerType())) >= n }
}

func (s *session) neverRegistered(err error) {
	s.dead = "the agent never registered"
	why := s.noRegistration(err)
	s.rec.fail("plays/registers", why, exchange{}, fmt.Sprintf("a %s to %s, the {manager} URL", s.registerType(), s.mgr.URL))
	s.rec.fail("register/request-is-well-formed", why, exchange{}, fmt.Sprintf("a %s to %s, the {manager} URL", s.registerType(), s.mgr.URL))
}

// checkRefusal watches what the agent does once refused: register again,
// or end. An agent that does neither goes on as if admitted; it is
// started again for the other checks.
func (s *session) checkRefusal(ctx context.Context) {
	const id = "register/refusal-is-handled"
	first := s.mgr.received(s.registerType())[0]
	err := s.mgr.await(ctx, refusalWait, s.alive, s.registered(2))
	switch {
	case err == nil:
		s.rec.pass(id, "registered again")
		return
	case errors.Is(err, errGone):
		_, how := s.agent.exited()
		s.rec.pass(id, "exited ("+how+")")
	default:
		// league.v2 does not ask an agent to leave: one that stays up idle
		// carries on as if admitted only if it sends the manager anything.
		if after := s.mgr.since(first.At); len(after) > 0 {
			s.rec.fail(id, fmt.Sprintf("refused, the agent sent the manager a %s as if admitted", orNone(after[0].Type)),
				received(after[0].Body), fmt.Sprintf("a new %s, the agent's exit, or nothing", s.registerType()))
		} else {
			s.rec.pass(id, fmt.Sprintf("stayed up idle for %s; started again", refusalWait))
		}
		s.stopAgent()
	}
	if err := s.start(); err != nil {
		s.dead = "the agent could not be started again: " + err.Error()
		return
	}
	if err := s.mgr.await(ctx, s.opts.RegisterTimeout, s.alive, s.registered(2)); err != nil {
		s.neverRegistered(err)
	}
}

// admitted reads the registration the manager accepted (the n-th request)
// and checks it.
func (s *session) admitted(ctx context.Context, n int) error {
	if err := s.mgr.await(ctx, s.opts.RegisterTimeout, s.alive, s.registered(n+1)); err != nil {
		s.neverRegistered(err)
		return nil
	}
	in := s.mgr.received(s.registerType())[n]
	s.id = assignedPlayer
	if s.opts.Role == RefereeRole {
		s.id = checkReferee
	}
	meta, problems := s.readRegistration(in.Message)
	const id = "register/request-is-well-formed"
	if len(problems) > 0 {
		s.rec.fail(id, strings.Join(problems, "; "), received(in.Body), "the envelope of docs/protocol.md#envelope and every metadata field of "+s.registerType())
	} else {
		s.rec.pass(id, "")
	}
	s.checkAdmissible(in)
	s.meta, s.endpoint = meta, s.seatEndpoint(meta.ContactEndpoint)
	s.league.Learn(s.endpoint, in.Dialect) // as the manager does: the agent is called in the dialect it registered in
	if s.endpoint == "" {
		s.dead = "the agent gave no contact_endpoint"
		return nil
	}
	s.games = s.gamesToCheck()
	s.statusf("%s registered, contact endpoint %s, games %v", s.opts.Role, s.endpoint, s.games)
	// Like a manager's registration window, the league starts a moment
	// after the registration is answered: an agent is not asked to play
	// in the instant it reads its id.
	select {
	case <-time.After(leagueStartDelay):
	case <-ctx.Done():
	}
	return nil
}

// readRegistration reads a register request as the manager would, and
// lists what league.v2 requires of it that it lacks.
func (s *session) readRegistration(msg json.RawMessage) (protocol.AgentMeta, []string) {
	f := fields(msg)
	problems := envelopeProblems(f, s.registerType(), string(s.opts.Role)+":")
	metaKey := "player_meta"
	if s.opts.Role == RefereeRole {
		metaKey = "referee_meta"
	}
	var meta protocol.AgentMeta
	m := fields(f[metaKey])
	if m == nil {
		return meta, append(problems, metaKey+" is missing or not an object")
	}
	_ = json.Unmarshal(f[metaKey], &meta)
	for _, key := range []string{"display_name", "version", "contact_endpoint"} {
		if str(m, key) == "" {
			problems = append(problems, fmt.Sprintf("%s.%s is missing or not a string", metaKey, key))
		}
	}
	var games []string
	if json.Unmarshal(m["game_types"], &games) != nil || len(games) == 0 {
		problems = append(problems, metaKey+".game_types is missing or not a list of game names")
	}
	if ep := str(m, "contact_endpoint"); ep != "" && !relay.IsMarker(ep) && !strings.HasPrefix(ep, "http://") && !strings.HasPrefix(ep, "https://") {
		problems = append(problems, fmt.Sprintf("%s.contact_endpoint %q is not an http(s) URL", metaKey, ep))
	}
	return meta, problems
}

// envelopeProblems lists what a message lacks of the league.v2 envelope.
func envelopeProblems(f map[string]json.RawMessage, messageType, senderPrefix string) []string {
	var out []string
	if f == nil {
		return []string{"the message is not a JSON object"}
	}
	if v := str(f, "protocol"); v != protocol.Version {
		out = append(out, fmt.Sprintf("protocol is %q, not %q", v, protocol.Version))
	}
	if v := str(f, "message_type"); v != messageType {
		out = append(out, fmt.Sprintf("message_type is %q, not %q", v, messageType))
	}
	if v := str(f, "sender"); !strings.HasPrefix(v, senderPrefix) {
		out = append(out, fmt.Sprintf("sender %q does not start with %q", v, senderPrefix))
	}
	if v := str(f, "timestamp"); v == "" {
		out = append(out, "timestamp is missing")
	} else if _, utc, err := protocol.ParseTime(v); err != nil || !utc {
		out = append(out, fmt.Sprintf("timestamp %q is not ISO-8601 in UTC", v))
	}
	if str(f, "conversation_id") == "" {
		out = append(out, "conversation_id is missing")
	}
	return out
}

// gamesToCheck are the games asked for (or all), among those the checker
// plays and the agent declares.
func (s *session) gamesToCheck() []string {
	want := s.opts.Games
	if len(want) == 0 {
		want = Games
	}
	var out []string
	for _, g := range want {
		if s.opts.Role == RefereeRole && len(s.opts.Games) == 0 && len(out) == 1 {
			break // a referee runs its league's one game: the first it declares, unless --game names another
		}
		if slices.Contains(s.meta.GameTypes, g) {
			out = append(out, g)
		} else if len(s.opts.Games) > 0 {
			s.statusf("--game %s: the agent does not declare it (game_types %v); its checks are skipped", g, s.meta.GameTypes)
		}
	}
	return out
}

// checkRestart stops the agent and starts it again: it registers again
// as itself, presenting the id and token it was given.
func (s *session) checkRestart(ctx context.Context) {
	const id = "register/presents-saved-credentials"
	if s.agent == nil {
		s.rec.skip(id, "with --listen the checker cannot restart the agent")
		return
	}
	s.stopAgent()
	n := len(s.mgr.received(s.registerType()))
	if err := s.start(); err != nil {
		s.rec.fail(id, "the agent could not be started again: "+err.Error(), exchange{}, "the agent running again")
		return
	}
	if err := s.mgr.await(ctx, s.opts.RegisterTimeout, s.alive, s.registered(n+1)); err != nil {
		s.rec.fail(id, "started again, the agent did not register: "+err.Error(), exchange{}, "a new "+s.registerType())
		return
	}
	in := s.mgr.received(s.registerType())[n]
	f := fields(in.Message)
	sender := protocol.RoleSender(protocol.Role(s.opts.Role), s.id)
	if str(f, "auth_token") != s.token || str(f, "sender") != sender {
		s.rec.fail(id, fmt.Sprintf("it registered as sender %q with auth_token %q", str(f, "sender"), str(f, "auth_token")),
			received(in.Body), fmt.Sprintf("sender %q and the auth_token of its first registration (%s…)", sender, s.token[:12]))
		return
	}
	s.rec.pass(id, "")
}

// skipRest skips every check not yet decided, saying why.
func (s *session) skipRest(ids ...string) {
	for _, id := range ids {
		s.rec.skip(id, s.dead)
	}
}

// call sends msg to the agent under method with a fresh integer id.
func (s *session) call(ctx context.Context, method string, msg any, timeout time.Duration) exchange {
	return post(ctx, s.endpoint, request(method, msg, s.ids.Add(1)), timeout, nil)
}
