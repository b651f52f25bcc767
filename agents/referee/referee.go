// Package referee is the referee agent: it registers with the manager, runs
// each match it is given through the engine's game-agnostic step loop, talks
// to both players with the specification's timeouts and retries, and
// reports the result. Every message to a player carries that player's match
// ticket from start_match as its auth_token (agents/ticket).
package referee

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"sync"

	"github.com/leaguetui/leaguetui/agents/mcpserve"
	"github.com/leaguetui/leaguetui/agents/metrics"
	"github.com/leaguetui/leaguetui/agents/node"
	"github.com/leaguetui/leaguetui/agents/protocol"
	"github.com/leaguetui/leaguetui/agents/rpc"
	"github.com/leaguetui/leaguetui/agents/store"
	"github.com/leaguetui/leaguetui/config"
	"github.com/leaguetui/leaguetui/engine"
)

// Options are what a referee process is started with.
type Options struct {
	Config        config.Config
	DataDir       string
	Port          int
	ManagerURL    string
	Name          string
	MaxConcurrent int // matches at once; 0 means the config's default
	// Key is the league's referee key (LEAGUETUI_REFEREE_KEY), presented
	// at registration to be admitted.
	Key string
}

// Referee is the referee agent.
type Referee struct {
	*node.Node
	opts   Options
	inbox  *inbox
	steps  *stepBatcher // match steps to the manager, in order, batched
	states *matchStates // what get_match_state answers
	// announced are the matches taken from round announcements, each once
	// (a manager of another implementation may announce a round again).
	announced onceEach

	pages *mcpserve.Navigator // the page server, for games that read pages; nil otherwise

	metrics *metrics.Referee // GET /metrics

	// Stderr is where what its operator must see goes besides its log
	// (os.Stderr: leaguetui copies a referee's stderr to the agent's log
	// in the console and its output file).
	Stderr io.Writer

	asks sync.Pool // *asking: the retry policies of asks to players

	mu      sync.Mutex
	running map[string]bool // match ids in progress
	closed  bool            // no more matches: awaitMatches is counting them
	wg      sync.WaitGroup
}

var _ node.Agent = (*Referee)(nil) // its lifecycle is every agent's

// New prepares a referee.
func New(opts Options) (*Referee, error) {
	if opts.MaxConcurrent <= 0 {
		opts.MaxConcurrent = opts.Config.Referee.MaxConcurrentMatches
	}
	n, err := node.New(opts.Config, protocol.RefereeRole, opts.Name, opts.DataDir)
	if err != nil {
		return nil, err
	}
	r := &Referee{Node: n, opts: opts, inbox: newInbox(), states: newMatchStates(), running: map[string]bool{},
		metrics: metrics.NewReferee(n.Metrics), Stderr: os.Stderr}
	r.steps = &stepBatcher{r: r}
	r.asks.New = func() any { return newAsking(opts.Config.Retry) }
	r.Server.Handle(protocol.TypeStartMatch, r.handleStartMatch)
	r.Server.Handle(protocol.TypeGameJoinAck, r.handleLateAnswer)
	r.Server.Handle(protocol.TypeChooseParityResponse, r.handleLateAnswer)
	r.Server.Handle(protocol.TypeGameMoveResponse, r.handleLateAnswer)
	r.Server.Handle(protocol.TypeRoundAnnouncement, r.handleRoundAnnouncement)
	r.AcknowledgeNotifications(protocol.TypeStandingsUpdate, protocol.TypeRoundCompleted)
	r.Server.HandleHTTP("GET /matches/{id}", r.serveMatchFile)
	r.mcpTools()
	return r, nil
}

// Start listens and registers with the manager (node.Agent), once it has
// the page server its league's game reads, if it reads pages.
func (r *Referee) Start(ctx context.Context) error {
	store.Redact(r.opts.Key)
	_, err := r.Join(ctx, node.Registration{ManagerURL: r.opts.ManagerURL, Port: r.opts.Port,
		Timeout: r.opts.Config.Timeouts.RegisterReferee, Type: protocol.TypeRefereeRegisterRequest,
		Meta: protocol.AgentMeta{GameTypes: engine.GameTypes(), MaxConcurrentMatches: r.opts.MaxConcurrent,
			RefereeKey: r.opts.Key, MatchTickets: true},
		Request: func(env protocol.Envelope, meta protocol.AgentMeta) protocol.Message {
			return &protocol.RefereeRegisterRequest{Envelope: env, RefereeMeta: meta}
		},
		Prepare: r.connectPages,
	})
	return err
}

// connectPages reaches the page server when the league's game reads pages,
// and maps its tools onto navigation: a server without it fails the start
// (APP_CAPABILITY_ERROR), before this referee takes any match.
func (r *Referee) connectPages(ctx context.Context) error {
	game, ok := engine.LookupGame(r.opts.Config.GameType)
	if _, reads := game.(engine.PageReader); !ok || !reads {
		return nil
	}
	url := r.opts.Config.Pages.URL
	if url == "" {
		return fmt.Errorf("%s: %s reads pages and no page server was given (--pages-url)", engine.ErrorCapability, game.Type())
	}
	nav, err := mcpserve.ConnectPages(ctx, url, r.opts.Config.Pages, r.Log)
	if err != nil {
		return err
	}
	if !nav.CanList() {
		nav.Close()
		return fmt.Errorf("%s: the page server at %s navigates with %s but cannot list its pages (list_pages) to draw races from",
			engine.ErrorCapability, url, nav.Capability())
	}
	r.pages = nav
	r.Log.Info("page server mapped", "event_type", "PAGES_CONNECTED", "pages_url", url, "navigation_capability", nav.Capability())
	return nil
}

// matchSetup is what a match of game starts from: a game that reads pages
// gets the page server and the race's bounds.
func (r *Referee) matchSetup(start protocol.StartMatch, game engine.Game) engine.MatchSetup {
	setup := engine.MatchSetup{MatchID: start.MatchID, Seed: start.LeagueSeed}
	if _, reads := game.(engine.PageReader); reads {
		pages := r.opts.Config.Pages
		race := engine.RaceSetup{Settings: engine.RaceSettings{MaxSteps: pages.MaxSteps, MaxDistance: pages.MaxDistance,
			DrawLoads: pages.DrawLoads}}
		if r.pages != nil { // a nil *Navigator in the interface would look like pages
			race.Pages = r.pages
		}
		setup.GameSetup = race
	}
	return setup
}

// Shutdown ends the referee (node.Agent): the matches in progress are
// cancelled (they report nothing: the manager plays them again) and waited
// for, the match steps still queued are delivered, the server stops and
// then the log is closed.
func (r *Referee) Shutdown(ctx context.Context) error {
	return r.Stop(ctx, node.Stopping{
		Finish:  r.awaitMatches,
		Deliver: r.steps.flush,
	})
}

// awaitMatches waits for the matches in progress to end. It closes the
// referee to new matches under r.mu first: claim adds a match to r.wg
// under it and refuses one once closed, so every match is counted before
// the wait, and none is added while it waits.
func (r *Referee) awaitMatches(ctx context.Context) {
	r.mu.Lock()
	r.closed = true
	r.mu.Unlock()
	done := make(chan struct{})
	go func() { r.wg.Wait(); close(done) }()
	node.AwaitDone(ctx, done)
}

// handleStartMatch accepts a match and runs it in the background; the result
// goes to the manager with report_match_result.
func (r *Referee) handleStartMatch(_ context.Context, in protocol.Inbound) (any, error) {
	var start protocol.StartMatch
	if err := rpc.DecodeParams(in, &start); err != nil {
		return nil, err
	}
	if err := r.CheckManager("start_match", start.AuthToken); err != nil {
		r.Log.Warn("start_match refused", "event_type", "START_MATCH_REFUSED", store.RefusedKey, protocol.RefusalReason(err),
			"sender", start.Sender, "err", err)
		return nil, err
	}
	return r.begin(start)
}

// begin checks a match it is given and runs it in the background: from
// start_match, or from a round announcement of a manager of another
// implementation.
func (r *Referee) begin(start protocol.StartMatch) (any, error) {
	if start.MatchID == "" || start.PlayerAID == "" || start.PlayerBID == "" || start.PlayerAEndpoint == "" || start.PlayerBEndpoint == "" {
		return nil, protocol.Reject(protocol.CodeMissingField, "start_match needs match_id, both player ids and both endpoints")
	}
	file, err := r.checkStart(start)
	if err != nil {
		return nil, err
	}
	game, ok := engine.LookupGame(start.GameType)
	if !ok {
		return nil, protocol.NewRPCError(protocol.CodeInvalidParams, "", "this referee cannot run game %q", start.GameType)
	}
	if err := r.claim(start.MatchID); err != nil {
		return nil, protocol.NewRPCError(protocol.CodeInvalidRequest, "", "%v", err)
	}
	r.SetState(protocol.StateActive)
	run := newMatchRun(r, start, game, file)
	r.states.record(run, "assigned", "")
	go func() {
		defer r.wg.Done()
		defer r.release(start.MatchID) // also when play ends early
		// On the referee's lifetime, not the request's: the match outlives
		// the start_match that began it, and ends with the referee.
		run.play(r.Lifetime())
	}()
	return &protocol.Ack{Envelope: r.PeerEnvelope("START_MATCH_ACK", start.ConversationID), Status: "accepted"}, nil
}

// checkStart refuses a match of another league and ids that could not
// name a file; it returns where the match file goes.
func (r *Referee) checkStart(start protocol.StartMatch) (file string, err error) {
	if start.LeagueID != "" && start.LeagueID != r.Layout().LeagueID {
		return "", protocol.NewRPCError(protocol.CodeInvalidParams, protocol.CodeMissingField,
			"league_id %q is not this referee's league", start.LeagueID)
	}
	for _, id := range []string{start.PlayerAID, start.PlayerBID} {
		if err := store.SafeName(id); err != nil {
			return "", protocol.NewRPCError(protocol.CodeInvalidParams, protocol.CodeMissingField, "player id: %v", err)
		}
	}
	file, err = r.Layout().Match(start.MatchID)
	if err != nil {
		return "", protocol.NewRPCError(protocol.CodeInvalidParams, protocol.CodeMissingField, "match_id: %v", err)
	}
	return file, nil
}

// claim refuses a match already running here, more matches than declared
// and any match once the referee is shutting down; a match it takes is
// counted in r.wg, which its goroutine's end releases.
func (r *Referee) claim(matchID string) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.closed || r.ShuttingDown() {
		return fmt.Errorf("this referee is shutting down")
	}
	if r.running[matchID] {
		return fmt.Errorf("match %s is already running here", matchID)
	}
	if len(r.running) >= r.opts.MaxConcurrent {
		return fmt.Errorf("already running %d matches, the most this referee declared", len(r.running))
	}
	r.running[matchID] = true
	r.wg.Add(1) // under r.mu: see awaitMatches
	return nil
}

func (r *Referee) release(matchID string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	delete(r.running, matchID)
}

// handleLateAnswer takes a GAME_JOIN_ACK, CHOOSE_PARITY_RESPONSE or
// GAME_MOVE_RESPONSE that a player posts back instead of answering inline
// (protocol.md §9 #2), from that player only: it must carry as auth_token
// the match ticket the call it answers carried (see inbox.deliver).
func (r *Referee) handleLateAnswer(ctx context.Context, in protocol.Inbound) (any, error) {
	var env protocol.Envelope
	if err := rpc.DecodeParams(in, &env); err != nil {
		return nil, err
	}
	var who struct {
		PlayerID string `json:"player_id"`
	}
	_ = json.Unmarshal(in.Body, &who)
	player := who.PlayerID
	if player == "" {
		player = env.SenderID()
	}
	switch err := r.inbox.deliver(env.MatchID, player, in.MessageType, env.AuthToken, in.Body); {
	case err == errNotExpected:
		return nil, protocol.NewRPCError(protocol.CodeInvalidParams, "", "no %s expected from %s in match %s",
			in.MessageType, protocol.Printable(player), protocol.Printable(env.MatchID))
	case err != nil:
		r.Log.Warn("posted answer refused", "event_type", "POSTED_ANSWER_REFUSED", store.RefusedKey, protocol.RefusalReason(err),
			"message_type", in.MessageType,
			"match_id", env.MatchID, "player_id", player, "sender", env.Sender, "err", err)
		return nil, err
	}
	return r.Ack(ctx, in)
}
