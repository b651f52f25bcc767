// Package player is the player agent: it registers with the manager, accepts
// invitations, answers move calls with its strategy, and keeps its history.
// It answers those calls only from the referee its manager gave the match,
// proved by the match ticket (agents/ticket; see doorman).
package player

import (
	"context"
	"fmt"
	"log/slog"
	"runtime/debug"
	"sync"
	"time"

	"github.com/leaguetui/leaguetui/agents/llm"
	"github.com/leaguetui/leaguetui/agents/metrics"
	"github.com/leaguetui/leaguetui/agents/node"
	"github.com/leaguetui/leaguetui/agents/protocol"
	"github.com/leaguetui/leaguetui/agents/rpc"
	"github.com/leaguetui/leaguetui/agents/store"
	"github.com/leaguetui/leaguetui/config"
	"github.com/leaguetui/leaguetui/engine"
)

// Options are what a player process is started with.
type Options struct {
	Config     config.Config
	DataDir    string
	Port       int
	ManagerURL string
	Name       string
	Strategy   string
	Seed       int64
	// JoinCode is the join code of the external roster entry it registers
	// as (LEAGUETUI_JOIN_CODE), "" for none.
	JoinCode string
	// Moves, when set, chooses every move instead of a strategy or a
	// model: a client outside the process (an MCP-client seat,
	// agents/seat) answers for the player. Strategy is then not needed.
	Moves MoveSource
}

// MoveSource is where a player's moves come from when they are chosen
// outside the player (Options.Moves). The player keeps each move it gets
// as any other, so a referee that asks twice for a turn gets the same
// move without asking the source again.
type MoveSource interface {
	// Move is the move for mc, chosen before deadline (the call's, as the
	// referee wrote it, or the league's move timeout). An error (no
	// answer in time, or ctx ended) answers the call with an error and
	// keeps nothing: the referee asks again or scores the technical loss,
	// as for any player that does not answer.
	Move(ctx context.Context, mc engine.MoveContext, deadline time.Time) (string, error)
	// MatchOver says the match has ended (GAME_OVER): none of its moves
	// will be asked again.
	MatchOver(matchID string)
	// LeagueCompleted says the manager has ended the league.
	LeagueCompleted()
}

// Player is the player agent.
type Player struct {
	*node.Node
	opts Options

	mu         sync.Mutex                 // serializes the strategies and the history
	strategies map[string]engine.Strategy // game type -> the strategy that plays it, made on first use
	moves      map[string]string          // moveKey -> the move we gave, so a retry or a replay gets the same
	opponent   map[string]string          // match id -> opponent, from the invitation
	door       doorman                    // whom the player answers about a match
	history    History
	// historyFile writes history.json at a bounded rate; nil until registered.
	historyFile *store.Coalescer
	llm         *modelPlayer // the llm strategy's model; nil for a scripted strategy
	metrics     *metrics.Player
}

var _ node.Agent = (*Player)(nil) // its lifecycle is every agent's

// New prepares a player with its strategy, which must be one of the
// league's game.
func New(opts Options) (*Player, error) {
	store.Redact(opts.JoinCode) // a secret: no log line holds it
	var model *modelPlayer
	if opts.Strategy == llm.StrategyName {
		var err error
		if model, err = newModelPlayer(opts); err != nil {
			return nil, err
		}
	} else if opts.Moves != nil {
		opts.Strategy = "" // moves come from outside; the game's default strategy only observes
	} else if _, err := engine.NewStrategyFor(opts.Config.GameType, opts.Strategy, opts.Seed); err != nil {
		return nil, err
	}
	n, err := node.New(opts.Config, protocol.PlayerRole, opts.Name, opts.DataDir)
	if err != nil {
		return nil, err
	}
	p := &Player{Node: n, opts: opts, strategies: map[string]engine.Strategy{}, moves: map[string]string{},
		opponent: map[string]string{}, llm: model, metrics: metrics.NewPlayer(n.Metrics)}
	n.Admitted = p.door.admitted
	if model != nil {
		p.ReportModelCost(p.modelCost)
	}
	// A match's messages are decoded and nothing is kept of their bodies
	// (their messages hold no raw JSON: every string and fact decoded is
	// the player's own), so the server lends them the buffer each was
	// read into rather than copying it (TestMatchHandlersKeepNothingOfTheBody).
	p.Server.HandleBorrowing(protocol.TypeGameInvitation, p.handleInvitation)
	p.Server.HandleBorrowing(protocol.TypeChooseParityCall, p.handleMoveCall)
	p.Server.HandleBorrowing(protocol.TypeGameMoveCall, p.handleMoveCall)
	p.Server.HandleBorrowing(protocol.TypeGameOver, p.handleGameOver)
	p.LeagueCompleted = p.flushHistory // history.json is whole before the player says it is done
	if opts.Moves != nil {
		p.LeagueCompleted = func() { p.flushHistory(); opts.Moves.LeagueCompleted() }
	}
	p.AcknowledgeNotifications(protocol.TypeRoundAnnouncement, protocol.TypeStandingsUpdate,
		protocol.TypeRoundCompleted, protocol.TypeGameError)
	return p, nil
}

// Start listens and registers with the manager (node.Agent), then takes
// up the history it kept of its matches.
func (p *Player) Start(ctx context.Context) error {
	_, err := p.Join(ctx, node.Registration{ManagerURL: p.opts.ManagerURL, Port: p.opts.Port,
		Timeout: p.opts.Config.Timeouts.RegisterPlayer, Type: protocol.TypeLeagueRegisterRequest,
		Meta: protocol.AgentMeta{GameTypes: engine.PlayableGames(), JoinCode: p.opts.JoinCode},
		Request: func(env protocol.Envelope, meta protocol.AgentMeta) protocol.Message {
			return &protocol.LeagueRegisterRequest{Envelope: env, PlayerMeta: meta}
		},
	})
	if err != nil {
		return err
	}
	id, _ := p.Identity()
	historyPath, err := p.Layout().PlayerHistory(id)
	if err != nil {
		return err
	}
	history, err := loadHistory(historyPath, id, p.opts.Strategy)
	if err != nil {
		p.Log.Warn("starting a new history", "event_type", "HISTORY_UNREADABLE", "err", err)
	}
	// Under p.mu: the server is already taking requests, and handleGameOver
	// reads the history under it.
	p.mu.Lock()
	p.history = history
	p.recall(p.LeagueID())
	p.historyFile = p.openHistory(historyPath)
	p.mu.Unlock()
	return nil
}

// recall replays what the history says of this league into the strategy
// of the league's game, and remembers each single-move match's move: a
// player restarted in the middle of a league then chooses as if it had never
// stopped, and a match played again gets the same move. Call with p.mu held.
func (p *Player) recall(leagueID string) {
	strategy := p.strategyFor(p.Cfg.GameType)
	game, _ := engine.LookupGame(p.Cfg.GameType)
	_, oneMove := game.(engine.OneMoveGame) // a longer game's last move is no first move
	for _, e := range p.history.Matches {
		if e.LeagueID != leagueID || strategy == nil {
			continue
		}
		strategy.Observe(observation(e))
		if e.MyChoice != "" && oneMove {
			p.moves[moveKey(e.MatchID, 1)] = e.MyChoice
		}
	}
}

// observation is what a strategy learns from a finished match.
func observation(e HistoryEntry) engine.Observation {
	return engine.Observation{MatchID: e.MatchID, OpponentID: e.OpponentID, MyMove: e.MyChoice,
		OpponentMove: e.OpponentChoice, Details: e.Details}
}

// strategyFor returns the strategy that plays gameType: the one of the
// player's strategy name, or the game's default when the game has no
// strategy of that name. Call with p.mu held.
func (p *Player) strategyFor(gameType string) engine.Strategy {
	if s, ok := p.strategies[gameType]; ok {
		return s
	}
	s, err := engine.NewStrategyFor(gameType, p.opts.Strategy, p.opts.Seed)
	if err != nil {
		if names := engine.StrategyNamesFor(gameType); len(names) > 0 {
			s, _ = engine.NewStrategyFor(gameType, names[0], p.opts.Seed)
		}
	}
	if s != nil {
		p.strategies[gameType] = s
	}
	return s
}

// moveKey names one turn of a match in p.moves.
func moveKey(matchID string, turn int) string {
	if turn <= 1 {
		return matchID
	}
	return fmt.Sprintf("%s#%d", matchID, turn)
}

// checkTicket refuses a match call that its manager's ticket does not
// vouch for (see doorman), and says so in the log.
func (p *Player) checkTicket(env protocol.Envelope) error {
	err := p.door.check(env, p.LeagueID())
	if err != nil {
		p.Log.Warn("match call refused", "event_type", "MATCH_CALL_REFUSED", store.RefusedKey, protocol.RefusalReason(err),
			"message_type", env.MessageType,
			"match_id", env.MatchID, "sender", env.Sender, "err", err)
	}
	return err
}

// handleInvitation always joins: auto_accept_invitations is the default.
func (p *Player) handleInvitation(_ context.Context, in protocol.Inbound) (any, error) {
	var inv protocol.GameInvitation
	if err := rpc.DecodeParams(in, &inv); err != nil {
		return nil, err
	}
	if err := p.checkTicket(inv.Envelope); err != nil {
		return nil, err
	}
	p.SetState(protocol.StateActive)
	p.mu.Lock()
	p.opponent[inv.MatchID] = inv.OpponentID
	p.mu.Unlock()
	id, _ := p.Identity()
	ack := &protocol.GameJoinAck{Envelope: p.PeerEnvelope(protocol.TypeGameJoinAck, inv.ConversationID),
		PlayerID: id, ArrivalTimestamp: protocol.FormatTime(time.Now()), Accept: true}
	ack.MatchID, ack.RoundID = inv.MatchID, inv.RoundID
	// Attributes, not key-value pairs: the same line, without boxing each value (one a match).
	p.Log.LogAttrs(context.Background(), slog.LevelInfo, "joined", slog.String("event_type", "GAME_JOINED"),
		slog.String("match_id", inv.MatchID), slog.String("opponent_id", inv.OpponentID))
	return ack, nil
}

// handleMoveCall answers CHOOSE_PARITY_CALL and GAME_MOVE_CALL with the
// strategy's move for the call's game, the same one again if the referee
// asks twice for the same turn.
func (p *Player) handleMoveCall(ctx context.Context, in protocol.Inbound) (any, error) {
	arrived := time.Now()
	defer func() { p.metrics.MoveDuration.Observe(time.Since(arrived).Seconds()) }()
	var call protocol.MoveCall
	if err := rpc.DecodeParams(in, &call); err != nil {
		return nil, err
	}
	if err := p.checkTicket(call.Envelope); err != nil {
		return nil, err
	}
	request := protocol.ParityMoveRequest()
	if call.MoveRequest != nil && call.MoveRequest.MoveType != "" {
		request = *call.MoveRequest
	} else if call.MoveRequest != nil && len(call.MoveRequest.ValidOptions) > 0 {
		request.ValidOptions = call.MoveRequest.ValidOptions
	}
	gameType := call.GameType
	if gameType == "" {
		gameType = p.Cfg.GameType
	}
	id, _ := p.Identity()
	key := moveKey(call.MatchID, request.Turn)
	mc := engine.MoveContext{Self: id, OpponentID: call.Context.OpponentID,
		MatchID: call.MatchID, Round: int(call.Context.RoundID), GameType: gameType, Turn: max(request.Turn, 1),
		MoveType: request.MoveType, Options: request.ValidOptions, State: request.Context}
	move, report, err := p.chooseMove(ctx, key, mc, call.Deadline)
	if err != nil {
		return nil, err
	}
	if report.Failed() {
		p.Log.Warn("the model failed", "event_type", "MODEL_ERROR", "match_id", call.MatchID, "error_type", report.ErrorType,
			"status", report.Status, "fallback", report.Fallback)
	}
	p.Log.LogAttrs(context.Background(), slog.LevelInfo, "move chosen", slog.String("event_type", "CHOICE_MADE"),
		slog.String("match_id", call.MatchID), slog.String("choice", move))
	return p.moveAnswer(call, id, request.MoveType, move, report), nil
}

// chooseMove is the move of key (with its model report for a model
// player): the one given before, or the model's or the strategy's. p.mu
// is held only inside it, each time released by a deferred unlock, so a
// panic on the way (a strategy's, or one on a model answer's path) fails
// this move only and leaves no lock held: it is logged (MOVE_PANICKED)
// and answered as a model move that failed (MODEL_GENERATION_ERROR,
// llm.MovePanicked) by a model player, as an internal error by any other.
// A referee that asks again gets the move if the panic came after it was
// kept, a fresh try if before.
func (p *Player) chooseMove(ctx context.Context, key string, mc engine.MoveContext, callDeadline string) (move string, report *protocol.ModelMove, err error) {
	defer func() {
		if v := recover(); v != nil {
			p.Log.Error("the move panicked", "event_type", "MOVE_PANICKED", "match_id", mc.MatchID, "panic", fmt.Sprint(v),
				"stack", string(debug.Stack()))
			move, report, err = "", nil, protocol.NewRPCError(protocol.CodeInternal, "", "internal error")
			if p.llm != nil {
				report, err = p.llm.panicked(mc), nil
			}
		}
	}()
	move, report, again := p.givenMove(key)
	switch {
	case again:
		return move, report, nil
	case p.opts.Moves != nil:
		move, err = p.remoteMove(ctx, key, mc, callDeadline)
		return move, nil, err
	case p.llm != nil:
		asked := p.askModel(mc, callDeadline) // outside p.mu: a slow model holds up no other match
		p.mu.Lock()
		defer p.mu.Unlock()
		move, report = p.settleModelMove(key, mc, asked)
		return move, report, nil
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	strategy := p.strategyFor(mc.GameType)
	if strategy == nil {
		return "", nil, protocol.NewRPCError(protocol.CodeInvalidParams, "", "this player cannot play %q", mc.GameType)
	}
	move = strategy.Choose(mc)
	p.moves[key] = move
	return move, nil, nil
}

// remoteMove asks Options.Moves for mc's move, outside p.mu (a client
// that takes its time holds up no other match), and keeps it: the one a
// concurrent ask of the same turn kept first wins.
func (p *Player) remoteMove(ctx context.Context, key string, mc engine.MoveContext, callDeadline string) (string, error) {
	move, err := p.opts.Moves.Move(ctx, mc, moveDeadline(p.Cfg.Timeouts.Move, callDeadline))
	if err != nil {
		return "", protocol.NewRPCError(protocol.CodeInternal, "", "no move: %v", err)
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if kept, again := p.moves[key]; again {
		return kept, nil
	}
	p.moves[key] = move
	return move, nil
}

// moveDeadline is when a move call must be answered: the league's move
// timeout from now, or the call's own deadline if sooner.
func moveDeadline(timeout time.Duration, callDeadline string) time.Time {
	deadline := time.Now().Add(timeout)
	if at, _, err := protocol.ParseTime(callDeadline); err == nil && at.Before(deadline) {
		deadline = at
	}
	return deadline
}

// givenMove is the move given before for key, and its model report.
func (p *Player) givenMove(key string) (move string, report *protocol.ModelMove, again bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	move, again = p.moves[key]
	if again && p.llm != nil {
		report = p.llm.reports[key]
	}
	return move, report, again
}

// moveAnswer is CHOOSE_PARITY_RESPONSE for even/odd's move and
// GAME_MOVE_RESPONSE for any other.
func (p *Player) moveAnswer(call protocol.MoveCall, id, moveType, move string, report *protocol.ModelMove) protocol.Message {
	if protocol.MovesOf(moveType).Answer == protocol.TypeChooseParityResponse {
		resp := &protocol.MoveAnswer{Envelope: p.PeerEnvelope(protocol.TypeChooseParityResponse, call.ConversationID),
			PlayerID: id, Choice: move, Model: report}
		resp.MatchID, resp.RoundID = call.MatchID, call.RoundID
		return resp
	}
	resp := &protocol.GameMoveResponse{Envelope: p.PeerEnvelope(protocol.TypeGameMoveResponse, call.ConversationID),
		PlayerID: id, MoveData: protocol.MoveData{MoveType: moveType, Choice: move}, Model: report}
	resp.MatchID, resp.RoundID = call.MatchID, call.RoundID
	return resp
}

// handleGameOver learns from the result and records it in the history file.
func (p *Player) handleGameOver(ctx context.Context, in protocol.Inbound) (any, error) {
	var over protocol.GameOver
	if err := rpc.DecodeParams(in, &over); err != nil {
		return nil, err
	}
	if err := p.checkTicket(over.Envelope); err != nil {
		return nil, err
	}
	if over.LeagueID == "" {
		over.LeagueID = p.LeagueID() // the referee left it out: the league we registered with
	}
	id, _ := p.Identity()
	p.mu.Lock()
	entry, fresh := p.history.record(id, p.opponent[over.MatchID], over)
	if fresh {
		p.history.setModelCost(entry, p.matchCost(over.MatchID))
	}
	gameType := over.GameType
	if gameType == "" {
		gameType = p.Cfg.GameType
	}
	if strategy := p.strategyFor(gameType); fresh && strategy != nil {
		strategy.Observe(observation(entry))
		// p.moves keeps the move: a match that is played again (its referee
		// or the manager failed before the result was recorded) gets the
		// same move, so it ends the same way.
		delete(p.opponent, over.MatchID)
	}
	file := p.historyFile
	save := fresh && p.history.due()
	p.mu.Unlock()
	p.door.forget(over.MatchID)
	if p.opts.Moves != nil {
		p.opts.Moves.MatchOver(over.MatchID)
	}
	if save && file != nil {
		file.Request()
	}
	return p.Ack(ctx, in)
}
